import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Temporary folders where FFmpeg reads and writes: one per job attempt (`reelsmith-job-*`) and one
 * per uploaded file being checked (`reelsmith-upload-check-*`), under the system's temp folder.
 * Their owners remove them; a process that died leaves them behind, and the retention sweeper
 * removes those once they are older than any run could be.
 */
export const WORK_DIR_PREFIXES = {
  job: 'reelsmith-job-',
  uploadCheck: 'reelsmith-upload-check-',
  safety: 'reelsmith-safety-',
  finishCheck: 'reelsmith-finish-check-',
} as const;
export type WorkDirPurpose = keyof typeof WORK_DIR_PREFIXES;

/** The folders this process's runs are using now: never swept, however old. */
const inUse = new Set<string>();

/** Makes a fresh work folder; give it back with removeWorkDir. */
export async function makeWorkDir(purpose: WorkDirPurpose, root = tmpdir()): Promise<string> {
  const dir = await mkdtemp(path.join(root, WORK_DIR_PREFIXES[purpose]));
  inUse.add(dir);
  return dir;
}

export async function removeWorkDir(dir: string): Promise<void> {
  try {
    await rm(dir, { recursive: true, force: true });
  } finally {
    inUse.delete(dir);
  }
}

/**
 * Removes work folders nothing in this process uses whose last change is older than `olderThanMs`
 * (a folder changes whenever a file is made in it); answers how many. Only folders: it never
 * touches the processes that may have used them (see media/processes.ts for why none outlive
 * their limit).
 */
export async function removeStaleWorkDirs(olderThanMs: number, root = tmpdir(), now = Date.now()): Promise<number> {
  let removed = 0;
  const names = await readdir(root).catch(() => [] as string[]);
  for (const name of names) {
    if (!Object.values(WORK_DIR_PREFIXES).some((prefix) => name.startsWith(prefix))) continue;
    const dir = path.join(root, name);
    if (inUse.has(dir)) continue;
    const info = await stat(dir).catch(() => null);
    if (!info?.isDirectory() || now - info.mtimeMs < olderThanMs) continue;
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    removed += 1;
  }
  return removed;
}
