import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binaries, makeCutMp4 } from '../../../tests/support/media';
import { AbortedError } from '../lib/aborted-error';
import { runFfmpeg } from './ffmpeg';
import { MediaTimeoutError, runningMediaProcesses, startMediaProcess } from './processes';

const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-processes-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** FFmpeg making frames forever: a test source with no end. */
const ENDLESS = ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=s=64x64:r=25', '-f', 'null', '-'];

const isAlive = (pid: number | undefined) => {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - started;
}

/** The cut MP4 of tests/support/media.ts, as a file. */
async function makeCutMp4File(): Promise<string> {
  const cut = path.join(dir, 'cut.mp4');
  writeFileSync(cut, await makeCutMp4());
  return cut;
}

describe('running FFmpeg', () => {
  it('kills a run at its time limit, with its whole process group', async () => {
    const started = Date.now();
    const proc = startMediaProcess(binaries.ffmpeg, ENDLESS, { timeoutMs: 500 });
    expect(isAlive(proc.pid)).toBe(true);
    await expect(proc.done).rejects.toBeInstanceOf(MediaTimeoutError);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(isAlive(proc.pid)).toBe(false);
    expect(runningMediaProcesses()).toBe(0);
  });

  it('kills a run when its signal fires', async () => {
    const controller = new AbortController();
    const proc = startMediaProcess(binaries.ffmpeg, ENDLESS, { timeoutMs: 60_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    await expect(proc.done).rejects.toBeInstanceOf(AbortedError);
    expect(isAlive(proc.pid)).toBe(false);
  });

  it('stops a render that loops forever over a video it cannot decode, as soon as it stops making progress', async () => {
    const cut = await makeCutMp4File();
    const output = path.join(dir, 'out.mp4');
    const started = Date.now();
    const rendering = runFfmpeg(
      binaries.ffmpeg,
      [
        '-y',
        '-loglevel',
        'error',
        '-stream_loop',
        '-1',
        '-i',
        cut,
        '-vf',
        'fps=24',
        '-c:v',
        'libx264',
        '-frames:v',
        '96',
        '-t',
        '4',
        output,
      ],
      { signal: new AbortController().signal, timeoutMs: 60_000, stallMs: 1500, outputSeconds: 4 },
    );
    await expect(rendering).rejects.toMatchObject({ name: 'MediaTimeoutError', reason: 'stalled' });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(runningMediaProcesses()).toBe(0);
  });

  it('kills what is still running when this process exits', async () => {
    const pid = await startInChild('exit');
    expect(isAlive(pid)).toBe(false);
  });

  it.runIf(binaries.watchdog)(
    'kills a run through its watchdog when its process was killed and could not clean up',
    async () => {
      const pid = await startInChild('sigkill');
      expect(isAlive(pid)).toBe(true);
      // The run's limit is 1 s; the watchdog allows 5 s more.
      const waited = await waitUntil(() => !isAlive(pid), 15_000);
      expect(waited).toBeLessThan(10_000);
    },
    20_000,
  );
});

/** Starts an endless FFmpeg (1 s limit) in a child Node process, then ends that process; answers FFmpeg's pid. */
async function startInChild(ending: 'exit' | 'sigkill'): Promise<number> {
  const script = `
    import { startMediaProcess } from ${JSON.stringify(path.resolve(import.meta.dirname, 'processes.ts'))};
    const proc = startMediaProcess(${JSON.stringify(binaries.ffmpeg)}, ${JSON.stringify(ENDLESS)}, { timeoutMs: 1000, watchdog: ${JSON.stringify(binaries.watchdog ?? '')} || undefined });
    proc.done.catch(() => undefined);
    console.log(proc.pid);
    ${ending === 'exit' ? 'setTimeout(() => process.exit(0), 300);' : ''}
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const pid = await new Promise<number>((resolve, reject) => {
    child.stdout.setEncoding('utf8').once('data', (line: string) => resolve(Number(line.trim())));
    child.once('error', reject);
  });
  if (ending === 'sigkill') {
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.kill('SIGKILL');
  }
  await new Promise((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve),
  );
  // A killed process group can take a moment to be reaped.
  await waitUntil(() => ending === 'sigkill' || !isAlive(pid), 2000).catch(() => undefined);
  return pid;
}
