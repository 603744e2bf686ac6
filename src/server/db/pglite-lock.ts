import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * PGlite is a single-process database: two processes opening one data directory would corrupt
 * it. A lock file holding the owner's pid keeps a second server, worker or command line out.
 */
export function acquirePgliteLock(dataDir: string): () => void {
  const file = path.join(dataDir, 'reelsmith.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new Error(
          `The embedded database in ${dataDir} is in use by process ${owner}. ` +
            'Stop that process first, or set DATABASE_URL to share a PostgreSQL server between processes.',
        );
      }
      rmSync(file, { force: true }); // left by a process that is gone
    }
  }
  throw new Error(`Could not lock ${file}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
