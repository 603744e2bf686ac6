// Checks that every file or folder path the documentation names in backticks exists, so a doc
// never points at a file that was moved or deleted. Run by `npm run lint`; usage:
// node scripts/check-doc-paths.mjs [--root DIR] (DIR defaults to the repository this script is in).
//
// What it reads: README.md and every docs/**/*.md, inline code spans only (fenced blocks are
// commands and examples). A span is a path when it is one word of path characters that contains a
// '/' or ends in a source extension (.ts, .md, .json, ...). Not paths: URLs, routes and absolute
// paths ('/api/...'), globs and placeholders ('src/**', '<name>.ts'), './' and '../' paths (run-time
// folders, other checkouts), environment variables ('DATA_DIR/objects'), MIME types ('image/png'),
// npm packages ('@scope/name', 'react-dom/static'), build output ('dist/...', 'test-results/') and a
// provider's endpoint ids ('fal-ai/mmaudio-v2': fal.ai's, the names its pages and our engines use).
//
// Where a path is looked for: the repository root, then src/, src/server/, src/client/,
// src/shared/ and the document's own folder; then the folders named earlier on the same line and
// on the list items it sits under (so '`src/server/engines/`: ... `catalogue.ts`' reads as the
// engines folder's file); a bare file name found nowhere there must be the name of exactly one
// file of the repository.
//
// A path that no longer exists may stay in a decision record when marked historical: the span is
// followed by '(historical' (docs/decisions/000-template.md), e.g. `src/shared/pricing.ts` (historical).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const EXTENSIONS = /\.(ts|tsx|js|mjs|cjs|jsx|json|md|sql|css|html|yml|yaml|sh|txt|svg|png|woff2)$/;
const PATH_CHARS = /^[A-Za-z0-9_.@-]+(\/[A-Za-z0-9_.@-]+)*\/?$/;
const MIME = /^(image|video|audio|text|application|multipart|font)\/[A-Za-z0-9.+-]+$/;
/** 'DATA_DIR', 'LISTEN': environment variables and SQL words, never a folder of ours. */
const CAPITALS_SEGMENT = /^[A-Z][A-Z0-9_]+$/;
/** The first segment of a provider's endpoint id ('fal-ai/sync-lipsync/v2'), never a folder of ours. */
const PROVIDER_IDS = new Set(['fal-ai']);
/** Made by builds and test runs, not kept in the repository. */
const OUTPUT_FOLDERS = new Set(['dist', 'test-results', 'coverage', 'node_modules']);
/** Never searched for bare file names. */
const SKIPPED_FOLDERS = new Set([...OUTPUT_FOLDERS, '.git', '.data']);
const BASES = ['', 'src', 'src/server', 'src/client', 'src/shared'];
const HISTORICAL = /^\s*\(historical\b/;

/** Whether an inline code span names a file or folder of the repository (see the header). */
export function isPathSpan(text) {
  if (!PATH_CHARS.test(text)) return false;
  if (text.startsWith('./') || text.startsWith('../') || text.startsWith('@')) return false;
  if (!text.includes('/') && !EXTENSIONS.test(text)) return false;
  if (MIME.test(text)) return false;
  const segments = text.split('/').filter(Boolean);
  if (segments.some((segment) => CAPITALS_SEGMENT.test(segment) || segment === '..')) return false;
  return !OUTPUT_FOLDERS.has(segments[0]) && !PROVIDER_IDS.has(segments[0]);
}

/** The packages package.json declares (a span starting with one names the package, not a path). */
function declaredPackages(root) {
  try {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    return new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})]);
  } catch {
    return new Set();
  }
}

/** Every file of the repository by its name, for a bare name the document gives no folder for. */
function filesByName(root) {
  const byName = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      if (SKIPPED_FOLDERS.has(entry.name)) continue;
      const relative = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(relative);
      else byName.set(entry.name, [...(byName.get(entry.name) ?? []), relative]);
    }
  };
  walk('');
  return byName;
}

/** The markdown files the check reads: README.md and docs/**\/*.md, relative to the root. */
export function docFiles(root) {
  const files = existsSync(path.join(root, 'README.md')) ? ['README.md'] : [];
  const walk = (dir) => {
    if (!existsSync(path.join(root, dir))) return;
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith('.md')) files.push(relative);
    }
  };
  walk('docs');
  return files.sort();
}

/** Where the path exists ('folder' or 'file' kind of match), or null. */
function resolveAt(root, base, name) {
  const full = path.join(root, base, name);
  if (!full.startsWith(root) || !existsSync(full)) return null;
  const isDir = statSync(full).isDirectory();
  if (name.endsWith('/') && !isDir) return null;
  return { relative: path.relative(root, full).split(path.sep).join('/'), isDir };
}

function indentOf(line) {
  return /^\s*/.exec(line)?.[0].length ?? 0;
}

const LIST_ITEM = /^\s*([-*+]|\d+\.)\s/;

/**
 * The broken paths of one document: { file, line, path } for every path span that exists nowhere
 * it may be looked for and is not marked historical.
 */
export function checkDocument(root, file, repo = { packages: declaredPackages(root), byName: filesByName(root) }) {
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
  const docDir = path.posix.dirname(file);
  const problems = [];
  /** Folders named by the enclosing list items, innermost last: { indent, folders }. */
  let parents = [];
  let fenced = false;
  lines.forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    const isItem = LIST_ITEM.test(line);
    if (isItem) parents = parents.filter((p) => p.indent < indentOf(line));
    else if (line.trim() !== '' && indentOf(line) === 0) parents = [];
    const folders = [];
    const context = () => [...parents.flatMap((p) => p.folders), ...folders];
    for (const match of line.matchAll(/`([^`]+)`/g)) {
      const text = match[1].trim();
      if (!isPathSpan(text)) continue;
      const after = line.slice((match.index ?? 0) + match[0].length);
      const found =
        [...BASES, docDir, ...context()].map((base) => resolveAt(root, base, text)).find(Boolean) ??
        uniqueFile(repo.byName, text);
      // 'react-dom/static': an entry point of a declared package, when no folder of ours has that name.
      const isPackage = text.includes('/') && repo.packages.has(text.split('/')[0]);
      if (found) {
        folders.push(found.isDir ? found.relative : path.posix.dirname(found.relative));
      } else if (!isPackage && !HISTORICAL.test(after)) {
        problems.push({ file, line: index + 1, path: text });
      }
    }
    if (isItem) parents.push({ indent: indentOf(line), folders });
  });
  return problems;
}

/** A bare file name ('price-list.ts') names the one file of that name; none or several is a miss. */
function uniqueFile(byName, text) {
  if (text.includes('/')) return null;
  const matches = byName.get(text) ?? [];
  return matches.length === 1 ? { relative: matches[0], isDir: false } : null;
}

/** Every broken path of the repository's documentation. */
export function checkDocPaths(root) {
  const repo = { packages: declaredPackages(root), byName: filesByName(root) };
  return docFiles(root).flatMap((file) => checkDocument(root, file, repo));
}

function main() {
  const at = process.argv.indexOf('--root');
  const here = path.dirname(fileURLToPath(import.meta.url));
  const root = path.resolve(at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : path.join(here, '..'));
  const problems = checkDocPaths(root);
  for (const p of problems) {
    console.error(
      `${p.file}:${p.line}: \`${p.path}\` does not exist (fix the path, or mark a decision's old path "(historical)")`,
    );
  }
  if (problems.length > 0) {
    console.error(`check-doc-paths: ${problems.length} path(s) in the docs point nowhere`);
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
