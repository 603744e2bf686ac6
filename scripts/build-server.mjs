// Bundles the server into dist/server/main.js (dependencies stay in node_modules), with the object
// detector's worker thread beside it as dist/server/object-detector.worker.js, where
// src/server/ai/object-detector.ts looks for it, and copies the committed migrations beside
// them, where the database client looks for them.
import { cpSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist/server', { recursive: true, force: true });
await build({
  // Named entries: each output is dist/server/<name>.js, whatever folder its source is in.
  entryPoints: { main: 'src/server/main.ts', 'object-detector.worker': 'src/server/ai/object-detector.worker.ts' },
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
cpSync('src/server/db/migrations', 'dist/server/migrations', { recursive: true });
// The shipped ComfyUI workflow templates, where src/server/engines/comfyui/templates.ts looks in the bundle.
cpSync('src/server/engines/comfyui/templates', 'dist/server/comfyui-templates', { recursive: true });
