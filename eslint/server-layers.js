// The server's layers (docs/architecture.md): who may query the database, how modules reach each other,
// and which folders stay below HTTP and the product modules. Tests and test support are exempt.
import path from 'node:path';
import { isTestFile, isTypeOnly, onImports, relPath } from './imports.js';

/** Where a server file (or an import's target) sits: its folder, its module and its role. */
function placeOf(rel) {
  if (!rel.startsWith('src/server/')) return null;
  const inner = rel.slice('src/server/'.length).replace(/\.(tsx?|jsx?|mjs)$/, '');
  const segments = inner.split('/');
  return {
    inner,
    folder: segments.length > 1 ? segments[0] : null, // null for the root files: app.ts, main.ts, config.ts
    module: segments[0] === 'modules' && segments.length > 2 ? segments[1] : null,
    role: /\.(repository|service|routes|hooks)$/.exec(inner)?.[1] ?? null,
    isSchema: inner === 'db/schema' || inner.startsWith('db/schema/'),
  };
}

/**
 * A rule run on every import of a non-test server file: check(from, to, node, source) returns a message or null.
 * `to` is the place of a relative import's target, or null for a package or a target outside src/server.
 */
function serverRule(description, check) {
  return {
    meta: { type: 'problem', docs: { description }, schema: [] },
    create(context) {
      const rel = relPath(context.filename);
      const from = placeOf(rel);
      if (!from || isTestFile(rel)) return {};
      return onImports((node, source) => {
        const to = source.startsWith('.')
          ? placeOf(relPath(path.resolve(path.dirname(context.filename), source)))
          : null;
        const message = check(from, to, node, source);
        if (message) context.report({ node: node.source, message });
      });
    },
  };
}

// 1. Queries live in repositories; the database layer itself may of course use Drizzle.
const dataAccess = serverRule(
  'Only repositories and src/server/db use drizzle-orm and the schema tables.',
  (from, to, node, source) => {
    if (from.role === 'repository' || from.folder === 'db') return null;
    if (source === 'drizzle-orm' || source.startsWith('drizzle-orm/')) {
      return `Only repositories (*.repository.ts) and src/server/db may import '${source}': move the query into a repository.`;
    }
    if (to?.isSchema && !isTypeOnly(node)) {
      return 'Only repositories (*.repository.ts) and src/server/db may import values (tables) from the schema: use `import type` for row types.';
    }
    return null;
  },
);

// 2. Routes are thin: they call services, never queries.
const routesUseServices = serverRule('Route files never import repositories.', (from, to) =>
  from.role === 'routes' && to?.role === 'repository'
    ? 'Route files never import repositories: call the service, which owns the rules and transactions.'
    : null,
);

// 3. A module is reached from outside only through its services (app.ts also registers routes and hooks).
const moduleServices = serverRule(
  "Another module's files are reached only through its *.service.ts files.",
  (from, to) => {
    if (!to?.module || to.module === from.module) return null;
    if (to.role === 'service') return null;
    if (from.inner === 'app' && (to.role === 'routes' || to.role === 'hooks')) return null;
    const who = from.module ? `Module '${from.module}'` : `src/server/${from.inner}`;
    return `${who} may import module '${to.module}' only through its *.service.ts files, not '${to.inner}'.`;
  },
);

// 4. Folders below the product: no HTTP, no modules, no jobs; lib/ is a leaf. bus/ is the live events bus
// that modules publish to and the live stream (modules/live-stream) subscribes to, so it never knows
// either of them.
const BELOW_MODULES = new Set(['engines', 'storage', 'ai', 'media', 'stripe', 'bus', 'lib', 'db']);
const BELOW_HTTP = new Set(['jobs', 'workflows', ...BELOW_MODULES]);
const serverLayers = serverRule(
  'Folders below the product modules never import http/, modules/ or jobs/.',
  (from, to) => {
    if (!to) return null;
    if (from.folder === 'lib' && to.folder !== 'lib') {
      return `src/server/lib imports nothing else of the server's: not '${to.inner}'.`;
    }
    if (BELOW_HTTP.has(from.folder) && to.folder === 'http') {
      return `src/server/${from.folder} never imports src/server/http ('${to.inner}'): HTTP concerns stay in http/ and the routes.`;
    }
    if (BELOW_MODULES.has(from.folder) && (to.folder === 'modules' || to.folder === 'jobs')) {
      return `src/server/${from.folder} never imports src/server/${to.folder} ('${to.inner}'): pass what it needs in from the caller.`;
    }
    return null;
  },
);

// 5. Workflows (src/server/workflows/: one verb-named file per workflow that spans modules) sit above the
// modules: they reach modules through their services (rule 3), and only what starts a workflow calls one.
const WORKFLOW_CALLERS = new Set(['jobs', 'cli']);
const workflowCallers = serverRule('Only routes, jobs/, cli/ and app.ts call src/server/workflows.', (from, to) => {
  if (to?.folder !== 'workflows' || from.folder === 'workflows') return null;
  if (from.role === 'routes' || WORKFLOW_CALLERS.has(from.folder) || from.inner === 'app') return null;
  return `src/server/${from.inner} may not import src/server/${to.inner}: a workflow sits above the modules, so only routes, jobs/, cli/ and app.ts start one.`;
});

export const serverRules = {
  'data-access': dataAccess,
  'routes-use-services': routesUseServices,
  'module-services': moduleServices,
  'server-layers': serverLayers,
  'workflow-callers': workflowCallers,
};
