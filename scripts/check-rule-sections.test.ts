// The product-rules section check (scripts/check-rule-sections.mjs, run by `npm run lint`), run as npm runs
// it: on a small repository made for each probe, and on this repository.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const script = path.join(root, 'scripts/check-rule-sections.mjs');
const made: string[] = [];

const RULES = [
  '# Product rules',
  '',
  '## Prices',
  '## Accounts and sign-in',
  '## Browser timings',
  '## Daily generations and the 3am New York day',
  '',
].join('\n');

/** A repository whose rules page has four sections, with the given files beside it. */
function repoWith(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rule-sections-'));
  made.push(dir);
  for (const [file, text] of Object.entries({ 'docs/product-rules.md': RULES, ...files })) {
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

describe('check-rule-sections', () => {
  it('fails on a section the rules page does not have, naming the file, the line and the name', () => {
    const dir = repoWith({
      'src/shared/cap.ts':
        '// Prices (docs/product-rules.md, Prices).\n/** The cap (docs/product-rules.md, Daily spend cap): */\n',
    });
    const { status, stderr } = check(dir);
    expect(status).toBe(1);
    expect(stderr).toContain('src/shared/cap.ts:2: docs/product-rules.md has no section "Daily spend cap"');
    expect(stderr).not.toContain('"Prices"');
  });

  it('reads every form: after a comma, before the parenthesis, after a colon, and anchors', () => {
    const good = repoWith({
      'src/client/a.tsx': [
        '/** Sign-in (docs/product-rules.md, Accounts and sign-in): the sentence. */',
        ' * Prices and Browser timings (docs/product-rules.md): two sections, one of them with "and" inside.',
        '// The status line; Browser timings (docs/product-rules.md): the clause before it is not a name.',
        ' * The clock (docs/product-rules.md: Prices, Daily generations and the 3am New York day).',
        '// A mention without a section: 1 credit, 3 with audio: docs/product-rules.md).',
      ].join('\n'),
      'docs/notes.md': 'See [the timings](product-rules.md#browser-timings) and `docs/product-rules.md`.\n',
    });
    expect(check(good)).toEqual({ status: 0, stderr: '' });
    const wrong = repoWith({
      'src/client/a.tsx': [
        ' * Screens and Browser timings (docs/product-rules.md): one of the two is no section.',
        ' * The clock (docs/product-rules.md: Prices, Extra packs).',
      ].join('\n'),
      'docs/notes.md': 'See [the timings](product-rules.md#timings).\n',
    });
    const { status, stderr } = check(wrong);
    expect(status).toBe(1);
    expect(stderr).toContain('src/client/a.tsx:1: docs/product-rules.md has no section "Screens and Browser timings"');
    expect(stderr).toContain('src/client/a.tsx:2: docs/product-rules.md has no section "Extra packs"');
    expect(stderr).toContain('docs/notes.md:1: docs/product-rules.md has no section "#timings"');
  });

  it('passes on this repository', () => {
    expect(check(root)).toEqual({ status: 0, stderr: '' });
  });
});
