import type { ModelInfo } from '../../shared/models';
import type { ModelId, ModelPrice } from '../../shared/money/pricing';
import { type Config, ConfigError } from '../config';
import { BUILT_IN_MODELS, type ModelDefinition, priceFrom, readModelsConfig } from './catalogue';
import { createComfyEngine } from './comfyui/comfyui-engine';
import { builtInTemplatesDir, type ComfyTemplate, loadTemplates } from './comfyui/templates';
import type { VideoEngine } from './engine';
import { createFalEngine } from './fal-engine';
import { createKlingEngine } from './kling-engine';
import { type FfmpegBinaries, resolveFfmpeg } from '../media/ffmpeg';
import { createLocalEngine } from './local/local-engine';
import { createReplicateEngine, createReplicateWebhooks, type ReplicateWebhooks } from './replicate-engine';
import { createVeoEngine } from './veo-engine';

export interface EngineRegistry {
  /** The engine for a model, or null when this server cannot run it (missing keys, switched off, unknown). */
  get(model: ModelId): VideoEngine | null;
  /** The model used when a request names none: Veo 3, else Kling, else the first available AI model, else the local engine. */
  defaultModel: ModelId;
  /** The catalogue (GET /api/models): every model, available or not, with its price and why not. */
  list(): ModelInfo[];
  /** One model of the catalogue, or undefined for an id this server does not know. */
  info(model: ModelId): ModelInfo | undefined;
  /** A known model's base price in hundredths (MODELS_CONFIG, else the spec's prices). */
  price(model: ModelId): ModelPrice | undefined;
  /** Replicate's webhooks (signature check, waking the job) when a Replicate token is set. */
  replicateWebhooks: ReplicateWebhooks | null;
  /** FFmpeg, used by every engine's output check and poster. */
  binaries: FfmpegBinaries;
}

const COMFY_MISSING = 'Not available on this server: it has no ComfyUI address (COMFYUI_URL).';
const SWITCHED_OFF = 'Not available on this server: its operator switched it off.';

type RegistryConfig = Pick<
  Config,
  'ffmpeg' | 'gemini' | 'kling' | 'providers' | 'fal' | 'replicate' | 'comfyui' | 'models'
>;

function comfyDefinition(template: ComfyTemplate): ModelDefinition {
  const { mapping } = template;
  return {
    id: mapping.id,
    engine: 'comfyui',
    name: mapping.name,
    description: mapping.description,
    inputs: mapping.inputs,
    durations: mapping.durations,
    aspectRatios: Object.keys(mapping.sizes) as ModelDefinition['aspectRatios'],
    resolutions: mapping.resolutions,
    sound: mapping.sound,
    isPreview: false,
    missing: COMFY_MISSING,
  };
}

/** Built-in and operator templates; an operator's template with a built-in id replaces it. */
function comfyTemplates(dir: string | undefined): ComfyTemplate[] {
  try {
    const byId = new Map(loadTemplates(builtInTemplatesDir()).map((t) => [t.mapping.id, t]));
    if (dir) for (const template of loadTemplates(dir)) byId.set(template.mapping.id, template);
    return [...byId.values()];
  } catch (error) {
    throw new ConfigError([`COMFYUI_TEMPLATES_DIR: ${error instanceof Error ? error.message : String(error)}`]);
  }
}

/** The engines this configuration can run and the model catalogue, built once per process. */
export function createEngineRegistry(config: RegistryConfig): EngineRegistry {
  const binaries = resolveFfmpeg(config.ffmpeg, config.ffmpeg.searchPath);
  let overrides: ReturnType<typeof readModelsConfig>['models'];
  try {
    overrides = readModelsConfig(config.models.configPath).models;
  } catch (error) {
    throw new ConfigError([error instanceof Error ? error.message : String(error)]);
  }
  const templates = comfyTemplates(config.models.comfyTemplatesDir);
  const definitions = [
    ...BUILT_IN_MODELS.filter((m) => m.id !== 'local'),
    ...templates.map(comfyDefinition),
    ...BUILT_IN_MODELS.filter((m) => m.id === 'local'),
  ];
  const unknown = Object.keys(overrides).filter((id) => !definitions.some((d) => d.id === id));
  if (unknown.length > 0)
    throw new ConfigError([`MODELS_CONFIG: unknown model ids ${unknown.join(', ')} (see GET /api/models for the ids)`]);

  const { pollIntervalMs, timeoutMs, retryBaseDelayMs } = config.providers;
  const timing = { pollIntervalMs, timeoutMs, retryBaseDelayMs };
  const replicateWebhooks = config.replicate ? createReplicateWebhooks(config.replicate) : null;

  const build = (definition: ModelDefinition): VideoEngine | null => {
    const custom = overrides[definition.id];
    const name = custom?.name ?? definition.name;
    switch (definition.engine) {
      case 'local':
        return createLocalEngine(binaries);
      case 'veo':
        return config.gemini
          ? createVeoEngine({
              apiKey: config.gemini.apiKey,
              baseUrl: config.gemini.baseUrl,
              model: config.gemini.veoModel,
              ...timing,
            })
          : null;
      case 'kling':
        return config.kling ? createKlingEngine({ ...config.kling, ...timing }) : null;
      case 'fal': {
        if (!config.fal || !definition.fal) return null;
        const textEndpoint = custom?.endpoint ?? definition.fal.textEndpoint;
        const imageEndpoint = custom?.imageEndpoint === undefined ? definition.fal.imageEndpoint : custom.imageEndpoint;
        return createFalEngine({
          ...config.fal,
          ...timing,
          model: { id: definition.id, name, family: definition.fal.family, textEndpoint, imageEndpoint },
        });
      }
      case 'replicate':
        if (!config.replicate || !definition.replicate || !replicateWebhooks) return null;
        return createReplicateEngine({
          ...config.replicate,
          ...timing,
          webhooks: replicateWebhooks,
          model: {
            id: definition.id,
            name,
            family: definition.replicate.family,
            slug: custom?.endpoint ?? definition.replicate.slug,
          },
        });
      case 'comfyui': {
        const template = templates.find((t) => t.mapping.id === definition.id);
        return config.comfyui && template ? createComfyEngine({ ...config.comfyui, ...timing, template }) : null;
      }
    }
  };

  const entries = definitions.map((definition) => {
    const custom = overrides[definition.id];
    const switchedOff = custom?.enabled === false && definition.id !== 'local';
    const engine = switchedOff ? null : build(definition);
    // A model the operator switched off but could run still says so; a missing key says which.
    const reason = engine ? null : switchedOff ? SWITCHED_OFF : definition.missing;
    return { definition, engine, reason, price: priceFrom(custom), name: custom?.name ?? definition.name };
  });
  const firstAvailable = (ids: string[]) => ids.find((id) => entries.some((e) => e.definition.id === id && e.engine));
  const defaultModel =
    firstAvailable(['veo3', 'kling-v2v']) ??
    entries.find((e) => e.engine && !e.definition.isPreview)?.definition.id ??
    'local';
  const infos: ModelInfo[] = entries.map(({ definition, engine, reason, price, name }) => ({
    id: definition.id,
    engine: definition.engine,
    name,
    description: definition.description,
    available: Boolean(engine),
    reason,
    inputs: [...definition.inputs],
    durations: [...definition.durations],
    aspectRatios: [...definition.aspectRatios],
    resolutions: [...definition.resolutions],
    sound: definition.sound,
    credits: price.standard / 100,
    economyCredits: price.economy / 100,
    isDefault: definition.id === defaultModel,
    isPreview: definition.isPreview,
  }));
  const byId = new Map(entries.map((e) => [e.definition.id, e]));
  return {
    get: (model) => byId.get(model)?.engine ?? null,
    defaultModel,
    binaries,
    replicateWebhooks,
    list: () => infos,
    info: (model) => infos.find((m) => m.id === model),
    price: (model) => byId.get(model)?.price,
  };
}

/**
 * fal.ai and Replicate fetch input images from our signed links: a PUBLIC_URL they cannot reach
 * (unset, localhost, a private address) makes every image-to-video request fail there.
 */
export function unreachableInputsWarning(config: Pick<Config, 'fal' | 'replicate' | 'publicUrl'>): string | null {
  if (!config.fal && !config.replicate) return null;
  const host = new URL(config.publicUrl).hostname;
  const local =
    /^(localhost|127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|\[?::1\]?$|0\.0\.0\.0)/.test(host) ||
    host.endsWith('.local');
  return local
    ? `PUBLIC_URL is ${config.publicUrl}: fal.ai and Replicate cannot fetch input images from there, so image-to-video requests to them will fail. Set PUBLIC_URL to an address reachable from the internet.`
    : null;
}
