import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** The preview label's font, shipped as an npm package (DejaVu Sans Bold). */
export function labelFontPath(): string {
  return path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSans-Bold.ttf');
}
