// Bundles the server into dist/server/main.js (dependencies stay in node_modules), with the object
// detector's worker thread beside it as dist/server/object-detector.worker.js, where
// src/server/ai/object-detector.ts looks for it (and the Content Credentials worker as
// dist/server/c2pa.worker.js, for src/server/provenance/c2pa.ts), and copies the committed migrations beside
// them, where the database client looks for them.
import { cpSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

/** Leaves every package import to node_modules except those named (bundled, like our own code). */
function externalExcept(bundled) {
  return {
    name: 'external-except',
    setup(builder) {
      builder.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:')) return { path: args.path, external: true };
        const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
        return bundled.includes(name) ? undefined : { path: args.path, external: true };
      });
    },
  };
}

rmSync('dist/server', { recursive: true, force: true });
await build({
  // Named entries: each output is dist/server/<name>.js, whatever folder its source is in.
  entryPoints: {
    main: 'src/server/main.ts',
    'object-detector.worker': 'src/server/ai/object-detector.worker.ts',
    'c2pa.worker': 'src/server/provenance/c2pa.worker.ts',
  },
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  // Dependencies stay in node_modules, but for drizzle-orm: its hundreds of files each make Node
  // resolve them against its 180 KB package.json, about a second of every start (bench/cold-start.ts).
  plugins: [externalExcept(['drizzle-orm'])],
  sourcemap: true,
  logLevel: 'warning',
});
cpSync('src/server/db/migrations', 'dist/server/migrations', { recursive: true });
// The visible "AI" label's picture, where src/server/modules/provenance/provenance.service.ts looks in the bundle.
cpSync('src/server/modules/provenance/ai-label.png', 'dist/server/ai-label.png');
// The shipped ComfyUI workflow templates, where src/server/engines/comfyui/templates.ts looks in the bundle.
cpSync('src/server/engines/comfyui/templates', 'dist/server/comfyui-templates', { recursive: true });
