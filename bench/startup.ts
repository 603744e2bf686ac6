// Time from launching the built server to its first HTTP answer, on a fresh DATA_DIR (first run:
// PGlite initdb + migrations) and again on the same DATA_DIR (a restart). Run `npm run build` first.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readEnv } from '../src/server/config';
import { SERVER_NODE_FLAGS } from '../src/server/node-flags';

async function timeToFirstAnswer(dataDir: string, port: number): Promise<number> {
  const env: Record<string, string | undefined> = {
    ...readEnv(),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const started = performance.now();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'dist/server/main.js'], { env, stdio: 'ignore' });
  try {
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (response.ok) return performance.now() - started;
      } catch {
        // not yet listening
      }
      if (performance.now() - started > 60_000) throw new Error('no answer within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'reelsmith-bench-'));
try {
  const first = await timeToFirstAnswer(dataDir, 3901);
  const restarts: number[] = [];
  for (let i = 0; i < 3; i += 1) restarts.push(await timeToFirstAnswer(dataDir, 3901));
  const median = restarts.sort((a, b) => a - b)[1] ?? 0;
  console.log(`first start (fresh DATA_DIR, migrations): ${first.toFixed(0)} ms`);
  console.log(`restart (median of 3):                    ${median.toFixed(0)} ms`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
