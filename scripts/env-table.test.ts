// The generated environment table of docs/operating.md and the list in .env.example (scripts/env-table.ts;
// `--check` runs in `npm run lint`): probes made from this repository's files with one thing wrong, and the
// repository itself, run as npm runs it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { envExampleProblems, envTableProblems, renderEnvTable } from './env-table';

const root = path.resolve(import.meta.dirname, '..');
const doc = fs.readFileSync(path.join(root, 'docs/operating.md'), 'utf8');
const example = fs.readFileSync(path.join(root, '.env.example'), 'utf8');
const made: string[] = [];

/** The lines of a text without the one that starts with `start`. */
function without(text: string, start: string): string {
  return text
    .split('\n')
    .filter((line) => !line.startsWith(start))
    .join('\n');
}

function run(dir: string) {
  const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');
  const result = spawnSync(process.execPath, [tsx, path.join(root, 'scripts/env-table.ts'), '--check', '--root', dir], {
    encoding: 'utf8',
  });
  return { status: result.status, stderr: result.stderr };
}

afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

// Each run starts tsx and loads the configuration's modules; on a busy machine two runs pass the default 5 s.
describe('env-table', { timeout: 30_000 }, () => {
  it('fails when the table misses a variable, lists one the server does not read, or shows another default', () => {
    const probe = without(doc, '| `PORT` |')
      .replace('| `HOST` | `0.0.0.0` |', '| `HOST` | `127.0.0.1` |')
      .replace('| `DATA_DIR` |', '| `UPLOAD_DIR` | unset | Where uploads go. |\n| `DATA_DIR` |');
    const problems = envTableProblems(probe);
    expect(problems).toContain('docs/operating.md misses PORT, which src/server/config.ts reads');
    expect(problems).toContain('docs/operating.md lists UPLOAD_DIR, which src/server/config.ts does not read');
    expect(problems.some((p) => p.startsWith('docs/operating.md: the row of HOST differs from the code'))).toBe(true);
    expect(problems).toHaveLength(3);
    expect(envTableProblems(doc.replace('<!-- env-table:end -->', ''))[0]).toContain('markers');
  });

  it('fails when .env.example misses a variable, sets one the server does not read, or writes another default', () => {
    const probe = without(example, 'SMTP_URL=')
      .replace('PORT=3000', 'PORT=8080')
      .concat('\nCHROMIUM_PATH=\nPATH=/usr/bin\n');
    expect(envExampleProblems(probe)).toEqual([
      '.env.example sets PORT=8080, but its default is 3000: write the default, or leave it empty',
      '.env.example sets CHROMIUM_PATH, which src/server/config.ts does not read',
      ".env.example sets PATH, which it leaves out: the system's variable, not Reelsmith's",
      '.env.example misses SMTP_URL',
    ]);
  });

  it('fails from the command line on a checkout whose docs drifted, naming the variable', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'env-table-'));
    made.push(dir);
    fs.mkdirSync(path.join(dir, 'docs'));
    fs.writeFileSync(path.join(dir, 'docs/operating.md'), without(doc, '| `METRICS_TOKEN` |'));
    fs.writeFileSync(path.join(dir, '.env.example'), example);
    const { status, stderr } = run(dir);
    expect(status).toBe(1);
    expect(stderr).toContain('docs/operating.md misses METRICS_TOKEN, which src/server/config.ts reads');
  });

  it('passes on this repository, whose table is the one the code gives', () => {
    expect(doc).toContain(renderEnvTable());
    expect(envExampleProblems(example)).toEqual([]);
    expect(run(root)).toEqual({ status: 0, stderr: '' });
  });
});
