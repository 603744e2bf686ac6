// How the client build groups our own modules into chunks (vite.config.ts). Left to automatic
// splitting, every set of pages sharing a module gets a chunk of its own: the generator needed 47
// files, most under 1 kB gzipped. Each file is a request that costs a round trip on a phone's
// connection, and a <link rel="modulepreload"> that the page's loader adds on the main thread before
// the page can render (decision 013). These groups keep the landing page's files as they were.
import path from 'node:path';
import type { Rolldown } from 'vite';

type ModuleGraph = Rolldown.ChunkingContext;

const APP_CODE = /[\\/]src[\\/](client|shared)[\\/]/;

/** The modules `from` imports statically, itself included, by module id. */
function staticClosure(graph: ModuleGraph, from: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const imported of graph.getModuleInfo(id)?.importedIds ?? []) visit(imported);
  };
  from.forEach(visit);
  return seen;
}

/**
 * Names our modules' chunks beyond what the entry needs:
 * - `start`: what the app's start (app/boot.tsx) imports, in one file beside boot's own, instead of
 *   a dozen; index.html preloads both for every page but the landing page, which loads them after
 *   it has painted, as before.
 * - `pages`: what the generator (the first page of everyone signed in) shares with other pages:
 *   the API hooks, the design system's parts, the shared schemas. Other pages that use any of it
 *   load it whole, and most of it they use too.
 * Anything else (the entry's own modules, a page's own modules, what only other pages share) is
 * left to automatic splitting.
 */
export function appChunkName(clientRoot: string): Rolldown.CodeSplittingNameFunction {
  const entry = path.join(clientRoot, 'main.tsx');
  const boot = path.join(clientRoot, 'app/boot.tsx');
  const generator = path.join(clientRoot, 'app/routes/generator.tsx');
  let closures: { entry: Set<string>; boot: Set<string>; generator: Set<string> } | undefined;
  return (id, graph) => {
    if (!APP_CODE.test(id) || id === boot) return null;
    closures ??= {
      entry: staticClosure(graph, [entry]),
      boot: staticClosure(graph, [boot]),
      generator: staticClosure(graph, [generator]),
    };
    if (closures.entry.has(id)) return null;
    if (closures.boot.has(id)) return 'start';
    if (id !== generator && closures.generator.has(id)) return 'pages';
    return null;
  };
}
