// The project's own lint rules: the architecture of docs/architecture.md, checked on resolved paths.
import { declaredDependencies } from './declared-dependencies.js';
import { importDirection } from './import-direction.js';
import { moduleCycles } from './module-cycles.js';
import { serverRules } from './server-layers.js';

export const boundaries = {
  meta: { name: 'boundaries' },
  rules: {
    // shared → shared and zod; client ↛ server ↛ client; client app → features → components|lib.
    'import-direction': importDirection,
    // src/server: queries in repositories, thin routes, modules reached through services, lower layers.
    ...serverRules,
    // The graph of src/server/modules folders has no cycle (import-x/no-cycle sees only files).
    'module-cycles': moduleCycles,
    // src/ imports only packages from `dependencies`; everything else only declared packages.
    'declared-dependencies': declaredDependencies,
  },
};
