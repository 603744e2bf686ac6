// Every package a file imports is declared in package.json. Shipped code (src/, tests aside) imports only
// `dependencies`: a devDependency, or a package that is only installed because another one needs it, is not
// there in production. A type-only import is erased, so a declared devDependency (or its @types package) will do.
import fs from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { isTestFile, isTypeOnly, onImports, packageOf, relPath, root } from './imports.js';

const manifestPath = path.join(root, 'package.json');
let manifest = { mtimeMs: -1, dependencies: new Set(), devDependencies: new Set() };

/** package.json's declarations, read again only when the file changes (editors keep ESLint running). */
function declared() {
  const { mtimeMs } = fs.statSync(manifestPath);
  if (mtimeMs !== manifest.mtimeMs) {
    const json = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
    manifest = {
      mtimeMs,
      dependencies: new Set(Object.keys(json.dependencies ?? {})),
      devDependencies: new Set(Object.keys(json.devDependencies ?? {})),
    };
  }
  return manifest;
}

/** '@types/node' for 'node', '@types/scope__name' for '@scope/name'. */
function typesPackageOf(name) {
  return `@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`;
}

/** Shipped code: src/ without its tests and test helpers. */
function isShipped(rel) {
  return rel.startsWith('src/') && !isTestFile(rel) && !rel.startsWith('src/client/app/testing/');
}

export const declaredDependencies = {
  meta: { type: 'problem', docs: { description: 'Imported packages are declared in package.json.' }, schema: [] },
  create(context) {
    const shipped = isShipped(relPath(context.filename));
    const { dependencies, devDependencies } = declared();
    const isDeclared = (name) => dependencies.has(name) || devDependencies.has(name);
    return onImports((node, source) => {
      if (source.startsWith('.') || source.startsWith('/') || isBuiltin(source)) return;
      const name = packageOf(source);
      if (isTypeOnly(node)) {
        if (isDeclared(name) || isDeclared(typesPackageOf(name))) return;
        context.report({
          node: node.source,
          message: `'${name}' is not declared in package.json (nor '${typesPackageOf(name)}').`,
        });
      } else if (shipped ? !dependencies.has(name) : !isDeclared(name)) {
        const where = shipped ? 'dependencies' : 'dependencies or devDependencies';
        const why = devDependencies.has(name)
          ? 'it is only a devDependency'
          : 'it is not declared (at most installed for another package)';
        context.report({ node: node.source, message: `'${name}' must be listed in package.json ${where}: ${why}.` });
      }
    });
  },
};
