import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let version: string | undefined;

/** This installation's version: the project's package.json, found above this file (src/ or dist/). */
export function appVersion(): string {
  if (version) return version;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (manifest.name === 'reelsmith' && manifest.version) return (version = manifest.version);
    }
    const parent = path.dirname(dir);
    if (parent === dir) return (version = 'unknown');
    dir = parent;
  }
}
