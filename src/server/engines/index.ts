import { ENGINE_DURATIONS, type ModelInfo } from '../../shared/generations';
import { MODEL_IDS, type ModelId } from '../../shared/money/pricing';
import type { Config } from '../config';
import type { VideoEngine } from './engine';
import { createKlingEngine } from './kling-engine';
import { type FfmpegBinaries, resolveFfmpeg } from '../media/ffmpeg';
import { createLocalEngine } from './local/local-engine';
import { createVeoEngine } from './veo-engine';

export interface EngineRegistry {
  /** The engine for a model, or null when this server cannot run it (missing keys). */
  get(model: ModelId): VideoEngine | null;
  /** The model used when a request names none: Veo 3, else Kling, else the local engine. */
  defaultModel: ModelId;
  list(): ModelInfo[];
  /** FFmpeg, used by every engine's output check and poster. */
  binaries: FfmpegBinaries;
}

const DESCRIPTIONS: Record<ModelId, { name: string; description: string; missing: string }> = {
  veo3: {
    name: 'Veo 3',
    description: "Google's video model with native sound, through the Gemini API.",
    missing: 'Not available on this server: it has no Google Gemini API key.',
  },
  'kling-v2v': {
    name: 'Kling-V2V',
    description: 'Kling AI: text-to-video, image-to-video and video-to-video editing.',
    missing: 'Not available on this server: it has no Kling API keys.',
  },
  local: {
    name: 'Local preview engine',
    description:
      'Renders a preview on this server with FFmpeg from your image, video, audio and words. It is not an AI model.',
    missing: '',
  },
};

/** The engines this configuration can run, built once per process. */
export function createEngineRegistry(config: Pick<Config, 'ffmpeg' | 'gemini' | 'kling' | 'providers'>): EngineRegistry {
  const binaries = resolveFfmpeg(config.ffmpeg, config.ffmpeg.searchPath);
  const engines: Partial<Record<ModelId, VideoEngine>> = { local: createLocalEngine(binaries) };
  const { pollIntervalMs, timeoutMs, retryBaseDelayMs } = config.providers;
  if (config.gemini) {
    engines.veo3 = createVeoEngine({
      apiKey: config.gemini.apiKey,
      baseUrl: config.gemini.baseUrl,
      model: config.gemini.veoModel,
      pollIntervalMs,
      timeoutMs,
      retryBaseDelayMs,
    });
  }
  if (config.kling) {
    engines['kling-v2v'] = createKlingEngine({ ...config.kling, pollIntervalMs, timeoutMs, retryBaseDelayMs });
  }
  const defaultModel: ModelId = engines.veo3 ? 'veo3' : engines['kling-v2v'] ? 'kling-v2v' : 'local';
  return {
    get: (model) => engines[model] ?? null,
    defaultModel,
    binaries,
    list: () =>
      MODEL_IDS.map((id) => ({
        id,
        name: DESCRIPTIONS[id].name,
        description: DESCRIPTIONS[id].description,
        available: Boolean(engines[id]),
        reason: engines[id] ? null : DESCRIPTIONS[id].missing,
        durations: [...ENGINE_DURATIONS[id]],
        isDefault: id === defaultModel,
        isPreview: id === 'local',
      })),
  };
}
