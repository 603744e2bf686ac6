// The import directions of docs/architecture.md between shared, server and client, checked on resolved paths.
import path from 'node:path';
import { onImports, packageOf, relPath } from './imports.js';

/** Which part of the code base a file belongs to. */
function areaOf(file) {
  const rel = relPath(file);
  if (rel.startsWith('src/shared/')) return { kind: 'shared' };
  if (rel.startsWith('src/server/')) return { kind: 'server' };
  const feature = /^src\/client\/features\/([^/]+)\//.exec(rel);
  if (feature) return { kind: 'client', layer: 'feature', feature: feature[1] };
  // The entry file mounts the app, so it belongs to app/.
  if (rel.startsWith('src/client/app/') || rel === 'src/client/main.tsx') return { kind: 'client', layer: 'app' };
  if (rel.startsWith('src/client/')) return { kind: 'client', layer: 'base' };
  return { kind: 'outside' };
}

const NODE_BUILTIN = /^node:/;
// shared/ is browser-safe: zod and small pure libraries only.
const SHARED_ALLOWED_PACKAGES = new Set(['zod']);

function problem(from, to, source, isTest) {
  if (from.kind === 'shared' && !(isTest && !source.startsWith('.'))) {
    if (!source.startsWith('.')) {
      if (NODE_BUILTIN.test(source) || !SHARED_ALLOWED_PACKAGES.has(packageOf(source))) {
        return `src/shared must stay browser-safe: it may not import '${source}'.`;
      }
      return null;
    }
    if (to.kind !== 'shared') return 'src/shared imports only src/shared.';
    return null;
  }
  if (from.kind === 'client' && to.kind === 'server') return 'The client never imports the server.';
  if (from.kind === 'server' && to.kind === 'client') return 'The server never imports the client.';
  if (from.kind === 'client' && to.kind === 'client') {
    if (from.layer === 'feature' && to.layer === 'feature' && from.feature !== to.feature) {
      return `Feature '${from.feature}' may not import feature '${to.feature}': compose them in a page under app/.`;
    }
    if (from.layer !== 'app' && to.layer === 'app') return 'Only app/ may import app/.';
    if (from.layer === 'base' && to.layer === 'feature') return 'components/ and lib/ may not import features.';
  }
  return null;
}

export const importDirection = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const file = context.filename;
    const from = areaOf(file);
    return onImports((node, source) => {
      const to = source.startsWith('.') ? areaOf(path.resolve(path.dirname(file), source)) : { kind: 'package' };
      const message = problem(from, to, source, /\.test\.tsx?$/.test(file));
      if (message) context.report({ node: node.source, message });
    });
  },
};
