// Checks that every reference to a section of docs/product-rules.md names a heading that exists there, so a
// comment that says where a rule is written down never points at a section that was renamed or never
// existed. Run by `npm run lint`; usage: node scripts/check-rule-sections.mjs [--root DIR].
//
// The forms a reference takes (docs/product-rules.md explains the first):
//   (docs/product-rules.md, Retention)               the section after a comma, up to ')', ':', ';' or '.'
//   Screens and Browser timings (docs/product-rules.md)   the sections before the parenthesis, back to the
//                                                     start of the comment, list item or clause ('; ')
//   docs/product-rules.md: Prices, Extra packs       the sections after a colon
//   product-rules.md#retention                       a link to a heading's anchor
// Several sections are joined by ', ', ' and ' or ', and '. A mention with none of these forms (a path in
// backticks, 'docs/product-rules.md)' after other words) names no section and is not checked.
//
// Where references are looked for: README.md, docs/**/*.md and the source under src/, tests/, e2e/,
// bench/ and examples/. scripts/ is left out: its tests hold probes that name sections on purpose.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const RULES_FILE = 'docs/product-rules.md';
const SOURCE_FOLDERS = ['src', 'tests', 'e2e', 'bench', 'examples'];
const SOURCE_FILE = /\.(ts|tsx|js|mjs|cjs|jsx|md|css|html)$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.data', 'test-results', 'coverage', '.git']);
const MENTION = 'product-rules.md';
/** Comment and list markers before the first words of a comment or item. */
const LEAD = /^\s*(?:\{?\/\*+|\*|\/\/+|[-*+]|\d+\.)?\s*/;

/** The headings of the rules page (every level below the title), as written. */
export function ruleSections(text) {
  return new Set(
    text
      .split('\n')
      .map((line) => /^#{2,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1])
      .filter((heading) => heading !== undefined),
  );
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as dashes. */
export function anchorOf(heading) {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/**
 * The names in a list of sections that are no section: each piece between commas must be a heading, or
 * headings joined by ' and ' (headings such as 'Accounts and sign-in' contain the word themselves).
 */
export function unknownSections(list, sections) {
  const pieces = list
    .split(/,\s*(?:and\s+)?/)
    .map((piece) => piece.trim())
    .filter(Boolean);
  return pieces.filter((piece) => !isHeadingsJoined(piece.split(' and '), sections));
}

function isHeadingsJoined(parts, sections) {
  if (parts.length === 0) return true;
  for (let end = 1; end <= parts.length; end += 1) {
    if (sections.has(parts.slice(0, end).join(' and ')) && isHeadingsJoined(parts.slice(end), sections)) return true;
  }
  return false;
}

/** The section names (or anchor) one mention of the rules page gives, or null when it names none. */
export function referenceAt(line, index) {
  const after = line.slice(index + MENTION.length);
  const before = line.slice(0, index).replace(/(?:docs\/)$/, '');
  if (after.startsWith('#')) return { anchor: /^#([\w-]*)/.exec(after)?.[1] ?? '' };
  if (after.startsWith(', ')) return { list: after.slice(2).split(/[):;.]/)[0] ?? '' };
  if (after.startsWith(': ') && !before.endsWith('`')) return { list: after.slice(2).split(/[).]/)[0] ?? '' };
  if (after.startsWith(')') && before.endsWith(' (')) {
    const words = before
      .slice(0, -2)
      .replace(LEAD, '')
      .split(/[;:.(] /)
      .pop()
      ?.trim();
    return words ? { list: words } : null;
  }
  return null;
}

/** The wrong references of one text: { line, name } for each name that is no section of the page. */
export function checkText(text, sections) {
  const anchors = new Set([...sections].map(anchorOf));
  const problems = [];
  text.split('\n').forEach((line, index) => {
    for (let at = line.indexOf(MENTION); at >= 0; at = line.indexOf(MENTION, at + MENTION.length)) {
      const reference = referenceAt(line, at);
      if (!reference) continue;
      if ('anchor' in reference) {
        if (!anchors.has(reference.anchor)) problems.push({ line: index + 1, name: `#${reference.anchor}` });
        continue;
      }
      for (const name of unknownSections(reference.list, sections)) problems.push({ line: index + 1, name });
    }
  });
  return problems;
}

/** The files whose references are checked, relative to the root. */
export function referringFiles(root) {
  const files = existsSync(path.join(root, 'README.md')) ? ['README.md'] : [];
  const walk = (dir, matches) => {
    if (!existsSync(path.join(root, dir))) return;
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      if (SKIPPED_FOLDERS.has(entry.name)) continue;
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(relative, matches);
      else if (matches.test(entry.name)) files.push(relative);
    }
  };
  walk('docs', /\.md$/);
  for (const folder of SOURCE_FOLDERS) walk(folder, SOURCE_FILE);
  return files.sort();
}

/** Every wrong reference of the repository: { file, line, name }. */
export function checkRuleSections(root) {
  const sections = ruleSections(readFileSync(path.join(root, RULES_FILE), 'utf8'));
  return referringFiles(root).flatMap((file) =>
    checkText(readFileSync(path.join(root, file), 'utf8'), sections).map((problem) => ({ file, ...problem })),
  );
}

function main() {
  const at = process.argv.indexOf('--root');
  const here = path.dirname(fileURLToPath(import.meta.url));
  const root = path.resolve(at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : path.join(here, '..'));
  const problems = checkRuleSections(root);
  for (const p of problems) {
    console.error(`${p.file}:${p.line}: ${RULES_FILE} has no section "${p.name}" (name one of its ## headings)`);
  }
  if (problems.length > 0) {
    console.error(`check-rule-sections: ${problems.length} reference(s) name a section ${RULES_FILE} does not have`);
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
