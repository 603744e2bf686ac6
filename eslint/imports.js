// What the project's own lint rules share: where the repository is, where a file sits, which imports a file makes.
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');

/** A path relative to the repository root, with forward slashes ('src/server/app.ts'). */
export function relPath(file) {
  return path.relative(root, file).split(path.sep).join('/');
}

/** Tests and test support: the rules about layers and packages do not bind them. */
export function isTestFile(rel) {
  return /\.test\.tsx?$/.test(rel) || rel.startsWith('tests/') || rel.includes('/tests/');
}

/** The package an import names: '@scope/name' or 'name' ('drizzle-orm/pg-core' → 'drizzle-orm'). */
export function packageOf(source) {
  const parts = source.split('/');
  return source.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** True when an import or re-export brings in types only (erased from the JavaScript). */
export function isTypeOnly(node) {
  if (node.type === 'ImportDeclaration') {
    return (
      node.importKind === 'type' ||
      (node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === 'type'))
    );
  }
  if (node.type === 'ExportNamedDeclaration') {
    return (
      node.exportKind === 'type' ||
      (node.specifiers.length > 0 && node.specifiers.every((s) => s.exportKind === 'type'))
    );
  }
  if (node.type === 'ExportAllDeclaration') return node.exportKind === 'type';
  return false; // import('...') loads the module.
}

/** A visitor calling check(node, source) for every import, re-export and import() with a literal source. */
export function onImports(check) {
  const visit = (node) => {
    const source = node.source?.value;
    if (typeof source === 'string') check(node, source);
  };
  return {
    ImportDeclaration: visit,
    ExportNamedDeclaration: visit,
    ExportAllDeclaration: visit,
    ImportExpression: visit,
  };
}
