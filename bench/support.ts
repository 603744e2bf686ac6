// What the benchmarks that start servers share: their command-line options, starting child
// processes (stopped together at the end) and waiting for a server to answer.
import { type ChildProcess, spawn } from 'node:child_process';

/** The value after `--name` on the command line, or the fallback. */
export function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : (process.argv[index + 1] ?? fallback);
}

const children: ChildProcess[] = [];

/** Starts a process with `env` and its stderr shown; `stopChildren` ends every one. */
export function start(command: string, args: string[], env: NodeJS.ProcessEnv, cwd?: string): ChildProcess {
  const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(child);
  return child;
}

export function stopChildren(): void {
  for (const child of children) child.kill('SIGTERM');
}

/** Waits until `url` answers at all (any status), each try within 2 s, for up to 60 s. */
export async function waitFor(url: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      await (await fetch(url, { signal: AbortSignal.timeout(2000) })).arrayBuffer();
      return;
    } catch {
      if (Date.now() - started > 60_000) throw new Error(`${url} did not answer within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
