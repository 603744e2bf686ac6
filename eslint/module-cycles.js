// No cycle between product modules (the folders under src/server/modules/). import-x/no-cycle sees files: two
// modules whose files import each other's services through different files make no file cycle, yet neither
// module can be understood, tested or changed without the other. This rule sees folders.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { isTestFile, onImports, relPath, root } from './imports.js';

const MODULES_DIR = path.join(root, 'src/server/modules');
const SOURCE_FILE = /\.(tsx?|jsx?|mjs)$/;

/** The module a file under `modulesDir` belongs to ('<modulesDir>/money/stripe/x.ts' → 'money'), or null. */
function moduleIn(modulesDir, file) {
  const match = /^([^/.][^/]*)\/./.exec(path.relative(modulesDir, file).split(path.sep).join('/'));
  return match ? match[1] : null;
}

/** Every non-test source file under `dir`, as absolute paths (test files judged by their path from `base`). */
function moduleFiles(dir, base) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return moduleFiles(file, base);
    return SOURCE_FILE.test(entry.name) && !isTestFile(path.relative(base, file).split(path.sep).join('/'))
      ? [file]
      : [];
  });
}

// Import sources per file, read again only when the file changed (an editor keeps one process for hours).
const importCache = new Map();
function importsOf(file) {
  const { mtimeMs } = fs.statSync(file);
  const cached = importCache.get(file);
  if (cached?.mtimeMs === mtimeMs) return cached.sources;
  // TypeScript's own scanner: imports, re-exports and import() (type-only ones too), never text in comments.
  const sources = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles.map((f) => f.fileName);
  importCache.set(file, { mtimeMs, sources });
  return sources;
}

/** The module a relative import of `file` lands in, or null (a package, or a file outside the modules). */
function targetModule(modulesDir, file, source) {
  return source.startsWith('.') ? moduleIn(modulesDir, path.resolve(path.dirname(file), source)) : null;
}

/**
 * The modules under `base`/src/server/modules as they are on disk: module → (module it imports → the first
 * file that does, relative to `base`). Type-only imports count: a module that names another's types changes
 * when they change. Also read by scripts/module-graph.mjs, which writes the graph into docs/architecture.md.
 */
export function moduleGraph(base = root) {
  const modulesDir = path.join(base, 'src/server/modules');
  const graph = new Map();
  for (const file of moduleFiles(modulesDir, base)) {
    const from = moduleIn(modulesDir, file);
    if (!graph.has(from)) graph.set(from, new Map());
    for (const source of importsOf(file)) {
      const to = targetModule(modulesDir, file, source);
      if (!to || to === from) continue;
      if (!graph.get(from).has(to)) graph.get(from).set(to, path.relative(base, file).split(path.sep).join('/'));
    }
  }
  return graph;
}

/** The shortest way from `start` back to `goal` as [[module, file that imports the next]...], or null. */
function pathBack(graph, start, goal) {
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift();
    for (const [next, file] of graph.get(current) ?? []) {
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, { from: current, file });
      if (next === goal) return walkBack(cameFrom, goal);
      queue.push(next);
    }
  }
  return null;
}

function walkBack(cameFrom, goal) {
  const steps = [];
  for (let step = cameFrom.get(goal); step; step = cameFrom.get(step.from)) steps.unshift([step.from, step.file]);
  return steps;
}

export const moduleCycles = {
  meta: {
    type: 'problem',
    docs: { description: 'The modules under src/server/modules/ import each other without a cycle.' },
    schema: [],
  },
  create(context) {
    const rel = relPath(context.filename);
    const from = moduleIn(MODULES_DIR, context.filename);
    if (!from || isTestFile(rel)) return {};
    let graph = null; // built on this file's first import of another module
    return onImports((node, source) => {
      const to = targetModule(MODULES_DIR, context.filename, source);
      if (!to || to === from) return;
      graph ??= moduleGraph();
      const back = pathBack(graph, to, from);
      if (!back) return;
      const modules = [from, ...back.map(([module]) => module), from];
      const how = back.map(([module, file], i) => `${module} -> ${modules[i + 2]} in ${file}`).join(', ');
      context.report({
        node: node.source,
        message: `Modules import each other in a cycle: ${modules.join(' -> ')} (${how}). Let one of them depend on the other, or move what both need below the modules (src/server/bus/, lib/, shared/).`,
      });
    });
  },
};
