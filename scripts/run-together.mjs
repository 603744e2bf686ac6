// Runs several npm scripts at once and fails when any of them fails: `node scripts/run-together.mjs
// test:e2e test:client --idle lint typecheck` (npm test's first stage). The browser journeys leave
// about two fifths of two cores idle while pages and renders wait; the client's jsdom tests take part
// of it, and ESLint and tsc, at the lowest priority, the rest, instead of running before or after.
// Each script's output is held and printed whole when it ends, so they never interleave line by line.
import { spawn } from 'node:child_process';

/**
 * A script still running after this long is stopped and counts as failed: room for the browser
 * journeys on a busy machine, and for an idle script that waited for them.
 */
const LIMIT_MS = 45 * 60 * 1000;

// Scripts named after --idle run at the lowest priority (nice 19): they take only the processor time
// the others leave, so the others run as fast as alone.
const args = process.argv.slice(2);
const idleFrom = args.includes('--idle') ? args.indexOf('--idle') : args.length;
const scripts = [
  ...args.slice(0, idleFrom).map((name) => ({ name, idle: false })),
  ...args.slice(idleFrom + 1).map((name) => ({ name, idle: true })),
];
if (scripts.length === 0) {
  process.stderr.write('usage: node scripts/run-together.mjs <npm script> ... [--idle <npm script> ...]\n');
  process.exit(2);
}

/** One script: its exit code (1 when it was stopped or could not start) once it has ended. */
function run({ name, idle }) {
  return new Promise((resolve) => {
    const started = Date.now();
    const [file, ...rest] = [...(idle ? ['nice', '-n', '19'] : []), 'npm', 'run', '--silent', name];
    const child = spawn(file, rest, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    const signal = (which) => {
      try {
        process.kill(-child.pid, which);
      } catch {
        // already gone
      }
    };
    let kill;
    // SIGTERM first, so a script can stop what it started outside its process group (the browser
    // journeys' server: e2e/support/global-setup.ts); SIGKILL 15 s later.
    const limit = setTimeout(() => {
      chunks.push(Buffer.from(`\n${name} was stopped after ${LIMIT_MS / 60_000} minutes\n`));
      signal('SIGTERM');
      kill = setTimeout(() => signal('SIGKILL'), 15_000);
    }, LIMIT_MS);
    let ended = false;
    const finish = (code) => {
      if (ended) return;
      ended = true;
      clearTimeout(limit);
      clearTimeout(kill);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n> npm run ${name}: ${code === 0 ? 'passed' : `failed (${code})`} in ${seconds} s\n`);
      process.stdout.write(Buffer.concat(chunks));
      resolve(code);
    };
    child.on('error', (error) => {
      chunks.push(Buffer.from(`${error.message}\n`));
      finish(1);
    });
    child.on('close', (code, signal) => finish(code ?? (signal ? 1 : 0)));
  });
}

const codes = await Promise.all(scripts.map(run));
process.exit(codes.every((code) => code === 0) ? 0 : 1);
