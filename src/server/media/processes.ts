import { spawn, spawnSync } from 'node:child_process';
import { AbortedError } from '../lib/aborted-error';

/**
 * How FFmpeg and ffprobe are run. They decode files users sent, so no run may last forever:
 * - every run has a wall-clock limit, and stops when its caller's signal fires;
 * - each starts in its own process group (detached), and stopping kills the whole group with
 *   SIGKILL, so nothing it started survives it;
 * - the groups still running when this process exits are killed on 'exit' (main.ts exits after
 *   SIGTERM/SIGINT, and an uncaught error exits too);
 * - a worker killed with SIGKILL (or by the OOM killer) runs no handler at all, and Node cannot ask
 *   Linux for PR_SET_PDEATHSIG. So when coreutils' `timeout` is there, every run is started under
 *   it with the same limit plus a few seconds: a left-over FFmpeg is killed by its own watchdog,
 *   not by someone guessing at process names (the sweeper kills nothing).
 */

/** The watchdog's limit is the run's own plus this, so the caller's timer always fires first. */
const WATCHDOG_GRACE_SECONDS = 5;

/** Thrown when a run passed its wall-clock limit, or (FFmpeg renders) stopped making progress. */
export class MediaTimeoutError extends Error {
  constructor(
    readonly reason: 'timeout' | 'stalled',
    readonly limitMs: number,
  ) {
    super(
      reason === 'timeout'
        ? `media process ran longer than ${limitMs} ms`
        : `media process made no progress for ${limitMs} ms`,
    );
    this.name = 'MediaTimeoutError';
  }
}

export interface MediaRunOptions {
  /** Wall-clock limit of the run. */
  timeoutMs: number;
  /** Stops the run (AbortedError). */
  signal?: AbortSignal;
  /** coreutils' `timeout`, to start the binary under (FfmpegBinaries.watchdog). */
  watchdog?: string;
  onStdout?: (chunk: string) => void;
}

export interface MediaRunResult {
  code: number | null;
  /** The last 4,000 characters of standard error. */
  stderr: string;
}

export interface MediaProcess {
  /** The process (group) id; undefined when it could not start. */
  pid: number | undefined;
  /** Settles when the process has exited: rejects when it was stopped or could not start. */
  done: Promise<MediaRunResult>;
  /** Kills the process group; `done` rejects with this error. */
  stop(error: Error): void;
}

/** Process group ids (= pids of the detached leaders) of the runs still going. */
const running = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Kills every FFmpeg and ffprobe this process started and that still runs (its own groups only). */
export function killMediaProcesses(): void {
  for (const pid of running) killGroup(pid);
}

/** How many FFmpeg/ffprobe runs of this process are going now. */
export function runningMediaProcesses(): number {
  return running.size;
}

function track(pid: number): void {
  running.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', killMediaProcesses);
}

/** Starts one run in its own process group, under the watchdog when there is one. */
export function startMediaProcess(binary: string, args: readonly string[], options: MediaRunOptions): MediaProcess {
  let stop: (error: Error) => void = () => undefined;
  let pid: number | undefined;
  const done = new Promise<MediaRunResult>((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new AbortedError());
      return;
    }
    const limitSeconds = Math.ceil(options.timeoutMs / 1000) + WATCHDOG_GRACE_SECONDS;
    const [command, argv] = options.watchdog
      ? [options.watchdog, ['-s', 'KILL', String(limitSeconds), binary, ...args]]
      : [binary, [...args]];
    const child = spawn(command, argv, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    pid = child.pid;
    if (pid !== undefined) track(pid);
    let failure: Error | null = null;
    const group = pid;
    stop = (error) => {
      if (failure) return;
      failure = error;
      if (group !== undefined) killGroup(group);
    };
    const onAbort = () => stop(new AbortedError());
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => stop(new MediaTimeoutError('timeout', options.timeoutMs)), options.timeoutMs);
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => options.onStdout?.(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    const settle = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (group !== undefined) running.delete(group);
    };
    child.on('error', (error) => {
      settle();
      reject(failure ?? error);
    });
    child.on('close', (code) => {
      settle();
      if (failure) reject(failure);
      else resolve({ code, stderr });
    });
  });
  return { pid, done, stop: (error) => stop(error) };
}

/** Runs to the end; answers the exit code, standard output and the tail of standard error. */
export async function runMediaProcess(
  binary: string,
  args: readonly string[],
  options: Omit<MediaRunOptions, 'onStdout'>,
): Promise<MediaRunResult & { stdout: string }> {
  let stdout = '';
  const result = await startMediaProcess(binary, args, { ...options, onStdout: (chunk) => (stdout += chunk) }).done;
  return { ...result, stdout };
}

/** coreutils' (or BusyBox's) `timeout` at this path, when it works as `timeout -s KILL SECONDS command`. */
export function isWorkingWatchdog(candidate: string): boolean {
  const check = spawnSync(candidate, ['-s', 'KILL', '5', 'true'], { stdio: 'ignore', timeout: 5000 });
  return check.status === 0;
}
