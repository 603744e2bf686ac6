// Lints the OpenAPI document this code serves (GET /api/openapi.json) with the tools integrators run
// on it: Redocly's `recommended` rules (redocly.yaml) and Spectral's `spectral:oas` (.spectral.yaml).
// The app is built in this process on an in-memory PGlite with no keys, as the tests build it; the
// document goes to a temporary file and both linters read it. Any error fails; warnings are printed.
//   tsx scripts/lint-openapi.ts             (npm run lint)
//   tsx scripts/lint-openapi.ts --keep FILE  also keep the document at FILE
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/server/app';
import { loadConfig, readEnv } from '../src/server/config';
import { createServiceContext } from '../src/server/context';
import { openDatabase } from '../src/server/db/client';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The document a server of this code with no keys and no saved settings serves. */
export async function currentDocument(): Promise<object> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'reelsmith-openapi-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    SESSION_SECRET: 'openapi-lint-secret-openapi-lint-secret',
    CLIENT_DIR: path.join(dataDir, 'no-client'),
    PATH: readEnv().PATH,
  });
  const database = await openDatabase({ kind: 'pglite' });
  try {
    await database.migrate();
    const app = await buildApp(createServiceContext(config, database));
    try {
      await app.ready();
      return app.swagger();
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const bin = (command: string) => path.join(ROOT, 'node_modules', '.bin', command);

/** Runs a linter; answers its exit status and what it printed. */
function lint(command: string, args: string[]): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    execFile(bin(command), args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const status = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ status, output: `${stdout}${stderr}` });
    });
  });
}

/** Redocly prints its problems by rule (`--format=summary`) and fails on an error. */
async function redocly(file: string): Promise<boolean> {
  const { status, output } = await lint('redocly', [
    'lint',
    file,
    '--config',
    path.join(ROOT, 'redocly.yaml'),
    '--format=summary',
  ]);
  console.log(`Redocly (recommended):\n${output.trim()}`);
  return status === 0;
}

interface SpectralProblem {
  code: string;
  message: string;
  path: string[];
  severity: number;
}

/** Spectral's errors in full, its warnings counted by rule, as Redocly's summary prints them. */
async function spectral(file: string, dir: string): Promise<boolean> {
  const output = path.join(dir, 'spectral.json');
  const args = [
    'lint',
    file,
    '--ruleset',
    path.join(ROOT, '.spectral.yaml'),
    '--format=json',
    `--output=${output}`,
    '--quiet',
  ];
  const { status, output: printed } = await lint('spectral', args);
  // 0: no problem at the failing severity, 1: some (counted below); anything else is Spectral failing.
  if (status > 1) {
    console.log(printed);
    return false;
  }
  const problems = JSON.parse(readFileSync(output, 'utf8')) as SpectralProblem[];
  const errors = problems.filter((problem) => problem.severity === 0);
  console.log(`Spectral (spectral:oas): ${errors.length} errors, ${problems.length - errors.length} warnings.`);
  for (const error of errors) console.log(`error   ${error.code} at ${error.path.join('.')}: ${error.message}`);
  const byRule = new Map<string, number>();
  for (const problem of problems.filter((p) => p.severity > 0))
    byRule.set(problem.code, (byRule.get(problem.code) ?? 0) + 1);
  for (const [rule, count] of byRule) console.log(`warning ${rule}: ${count}`);
  return errors.length === 0;
}

async function main(): Promise<void> {
  const keep = process.argv.indexOf('--keep');
  const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-openapi-lint-'));
  const file = path.join(dir, 'openapi.json');
  try {
    writeFileSync(file, JSON.stringify(await currentDocument(), null, 2));
    if (keep >= 0 && process.argv[keep + 1]) copyFileSync(file, path.resolve(process.argv[keep + 1] ?? ''));
    // Side by side: each takes several seconds, and they print in turn.
    const [redoclyPassed, spectralPassed] = await Promise.all([redocly(file), spectral(file, dir)]);
    if (!redoclyPassed || !spectralPassed) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
