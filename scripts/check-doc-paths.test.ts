// The docs' path check (scripts/check-doc-paths.mjs, run by `npm run lint`), run as npm runs it: on a
// small repository made for each probe, and on this repository.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const script = path.join(root, 'scripts/check-doc-paths.mjs');
const made: string[] = [];

/** A repository with a few source files, a package.json and the given documents. */
function repoWith(docs: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-paths-'));
  made.push(dir);
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ dependencies: { 'react-dom': '19.0.0' } }),
    'src/server/engines/catalogue.ts': '',
    'src/shared/money/pricing.ts': '',
    'src/client/components/layouts/nav-items.ts': '',
    ...docs,
  };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

function check(dir: string) {
  const run = spawnSync(process.execPath, [script, '--root', dir], { encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr };
}

afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('check-doc-paths', () => {
  it('fails on a path that does not exist, naming the file, the line and the path', () => {
    const dir = repoWith({
      'docs/notes.md':
        '# Notes\n\nPrices live in `src/shared/money/pricing.ts`.\nBilling was in `src/shared/billing.ts`.\n',
    });
    const { status, stderr } = check(dir);
    expect(status).toBe(1);
    expect(stderr).toContain('docs/notes.md:4: `src/shared/billing.ts` does not exist');
    expect(stderr).not.toContain('pricing.ts');
  });

  it('passes a path marked historical, and still checks the new path it names', () => {
    const ok = repoWith({
      'docs/decisions/001-x.md':
        'One function in `src/shared/billing.ts` (historical; now `src/shared/money/pricing.ts`).\n',
    });
    expect(check(ok)).toEqual({ status: 0, stderr: '' });
    const wrongNew = repoWith({
      'docs/decisions/001-x.md': 'In `src/shared/billing.ts` (historical; now `src/shared/money/prices.ts`).\n',
    });
    expect(check(wrongNew).stderr).toContain('docs/decisions/001-x.md:1: `src/shared/money/prices.ts` does not exist');
  });

  it('reads paths from the root, src/ and its sides, the folders named before them on the line and list, and unique file names', () => {
    const dir = repoWith({
      'README.md': [
        'See `docs/architecture.md`, `engines/catalogue.ts` and `shared/money/`.',
        '- `src/server/engines/`: the engines; `catalogue.ts` holds the models.',
        '  - `catalogue.ts` again, under its list item.',
        '- `src/client/components/`: `layouts/nav-items.ts`, and `nav-items.ts` by its unique name.',
      ].join('\n'),
      'docs/architecture.md': 'Beside it: `product-rules.md`.\n',
      'docs/product-rules.md': '',
    });
    expect(check(dir)).toEqual({ status: 0, stderr: '' });
  });

  it('fails on a file put in the wrong folder, even when the name exists elsewhere', () => {
    const dir = repoWith({ 'docs/a.md': '- `src/server/engines/pricing.ts` and `money/catalogue.ts`.\n' });
    const { status, stderr } = check(dir);
    expect(status).toBe(1);
    expect(stderr).toContain('docs/a.md:1: `src/server/engines/pricing.ts` does not exist');
    expect(stderr).toContain('docs/a.md:1: `money/catalogue.ts` does not exist');
  });

  it('leaves alone what is not a path of the repository', () => {
    const dir = repoWith({
      'docs/a.md': [
        'Routes `/api/video-generation` and `GET /api/models`, a URL `https://example.com/x.ts`, a command `npm run lint`,',
        'globs `src/**` and `*.routes.ts`, placeholders `modules/<name>/`, variables `DATA_DIR/objects` and `LISTEN/NOTIFY`,',
        'a MIME type `image/png`, packages `@ffmpeg-installer/ffmpeg` and `react-dom/static`, run-time folders `./.data`,',
        'build output `dist/server/main.js` and `test-results/screenshots/`, words `ledger` and `app.inject`,',
        "a provider's endpoint id `fal-ai/sync-lipsync/v2`.",
        '```',
        'node scripts/missing.mjs src/missing.ts',
        '`src/also-missing.ts`',
        '```',
      ].join('\n'),
    });
    expect(check(dir)).toEqual({ status: 0, stderr: '' });
  });

  it('passes on this repository', () => {
    expect(check(root)).toEqual({ status: 0, stderr: '' });
  });
});
