// Runs several npm scripts at once and fails when any of them fails: `node scripts/run-together.mjs
// lint typecheck test:e2e`. ESLint and tsc each keep one core busy, and the browser journeys leave
// about a third of two cores idle while pages and renders wait, so together they take about the
// longest one's time instead of the sum (npm test's first stage). Each script's output is held and
// printed whole when it ends, so they never interleave line by line.
import { spawn } from 'node:child_process';

/** A script still running after this long is stopped and counts as failed. */
const LIMIT_MS = 30 * 60 * 1000;

const names = process.argv.slice(2);
if (names.length === 0) {
  process.stderr.write('usage: node scripts/run-together.mjs <npm script> [<npm script> ...]\n');
  process.exit(2);
}

/** One script: its exit code (1 when it was stopped or could not start) once it has ended. */
function run(name) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
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

const codes = await Promise.all(names.map(run));
process.exit(codes.every((code) => code === 0) ? 0 : 1);
