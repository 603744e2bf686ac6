import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Prices of three kinds for MODELS_CONFIG: per second dearer at 1080p, per video by resolution, per second only. */
export const PRICED_MODELS = {
  // Per second, dearer at 1080p.
  local: { credits: 0.1, per: 'second', resolutionCredits: { '1080p': 0.2 } },
  // Per video, by resolution.
  'fal-veo3': { credits: 4, economyCredits: 2, resolutionCredits: { '1080p': 6 } },
  // Per second only.
  'fal-kling-2.1': { credits: 0.45, per: 'second' },
};

/** A MODELS_CONFIG file holding `models` and `finishing` (in a folder of its own), and how to remove it. */
export function modelsConfigFile(
  models: Record<string, object>,
  finishing: Record<string, object> = {},
): { file: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-models-'));
  const file = path.join(dir, 'models.json');
  writeFileSync(file, JSON.stringify({ models, finishing }));
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
