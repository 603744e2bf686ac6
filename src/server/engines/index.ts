import { CAMERA_MOVES, characterModeOf, type ModelInfo } from '../../shared/models';
import type { ModelId, ModelPrice } from '../../shared/money/pricing';
import { type Config, ConfigError } from '../config';
import { withCameraPhrase } from './camera';
import {
  BUILT_IN_MODELS,
  chooseDefaultModel,
  type ModelDefinition,
  narrowed,
  priceFrom,
  type ProviderCost,
  type ProviderExtend,
  readModelsConfig,
} from './catalogue';
import { createComfyEngine } from './comfyui/comfyui-engine';
import { builtInTemplatesDir, type ComfyTemplate, loadTemplates } from './comfyui/templates';
import { EngineError, type VideoEngine } from './engine';
import { createFalEngine, createFalQueueEngine } from './fal-engine';
import { createKlingEngine } from './kling-engine';
import { type FfmpegBinaries, resolveFfmpeg } from '../media/ffmpeg';
import { createLocalEngine } from './local/local-engine';
import { FINISHING_TOOLS, finishingCatalogue, type FinishingOverrides, unknownFinishingIds } from './finishing';
import type { FinishingTool } from '../../shared/finishing';
import { createReplicateEngine, createReplicateWebhooks, type ReplicateWebhooks } from './replicate-engine';
import { createVeoEngine } from './veo-engine';

export interface EngineRegistry {
  /** The engine for a model, or null when this server cannot run it (missing keys, switched off, unknown). */
  get(model: ModelId): VideoEngine | null;
  /** The model used when a request names none (`chooseDefaultModel` in catalogue.ts); GET /api/models marks it `isDefault`. */
  defaultModel: ModelId;
  /** The catalogue (GET /api/models): every model, available or not, with its price and why not. */
  list(): ModelInfo[];
  /** One model of the catalogue, or undefined for an id this server does not know. */
  info(model: ModelId): ModelInfo | undefined;
  /** A known model's base price in hundredths (MODELS_CONFIG, else the spec's prices). */
  price(model: ModelId): ModelPrice | undefined;
  /** What the provider bills for the model (MODELS_CONFIG `providerCost`), or undefined when the operator gave none. */
  providerCost(model: ModelId): ProviderCost | undefined;
  /** The provider's own extend call and its limits, when this server can run the model and it has one; else null. */
  providerExtend(model: ModelId): ProviderExtend | null;
  /** The finishing tools (GET /api/finishing): every one, with its price and whether it runs here. */
  finishing(): FinishingTool[];
  /** A provider's finishing tool's engine, or null when this server cannot run it (this server's own run in the worker). */
  finishingEngine(tool: string): VideoEngine | null;
}

/** Providers' webhooks this server accepts, each with its signature check and the jobs waiting on it. */
export interface WebhookRegistry {
  /** Replicate's (signature check, waking the job) when a Replicate token is set. */
  replicate: ReplicateWebhooks | null;
}

export function createWebhookRegistry(config: Pick<Config, 'replicate'>): WebhookRegistry {
  return { replicate: config.replicate ? createReplicateWebhooks(config.replicate) : null };
}

/** What the engines share with the rest of the process: FFmpeg (ctx.media) and the providers' webhooks (ctx.webhooks). */
export interface EngineTools {
  media: FfmpegBinaries;
  webhooks: WebhookRegistry;
}

/** Engines that take a camera move as words in the prompt; Kling (camera control) and the local engine (motion) take it themselves. */
const PROMPT_CAMERA_ENGINES = new Set<ModelDefinition['engine']>(['veo', 'fal', 'replicate', 'comfyui']);

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
    endFrame: mapping.endFrame,
    // Wan and LTX follow camera directions written in the prompt (camera.ts).
    cameraMoves: [...CAMERA_MOVES],
    referenceImages: 0,
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
export function createEngineRegistry(
  config: RegistryConfig,
  tools: EngineTools = {
    media: resolveFfmpeg(config.ffmpeg, config.ffmpeg.searchPath),
    webhooks: createWebhookRegistry(config),
  },
): EngineRegistry {
  const binaries = tools.media;
  const replicateWebhooks = tools.webhooks.replicate;
  let overrides: ReturnType<typeof readModelsConfig>['models'];
  let finishingOverrides: FinishingOverrides;
  try {
    ({ models: overrides, finishing: finishingOverrides } = readModelsConfig(config.models.configPath));
  } catch (error) {
    throw new ConfigError([error instanceof Error ? error.message : String(error)]);
  }
  const unknownTools = unknownFinishingIds(finishingOverrides);
  if (unknownTools.length > 0)
    throw new ConfigError([
      `MODELS_CONFIG: unknown finishing tool ids ${unknownTools.join(', ')} (see GET /api/finishing for the ids)`,
    ]);
  const finishingTools = finishingCatalogue(finishingOverrides, { fal: Boolean(config.fal) });
  const templates = comfyTemplates(config.models.comfyTemplatesDir);
  const catalogue = [
    ...BUILT_IN_MODELS.filter((m) => m.id !== 'local'),
    ...templates.map(comfyDefinition),
    ...BUILT_IN_MODELS.filter((m) => m.id === 'local'),
  ];
  const unknown = Object.keys(overrides).filter((id) => !catalogue.some((d) => d.id === id));
  if (unknown.length > 0)
    throw new ConfigError([`MODELS_CONFIG: unknown model ids ${unknown.join(', ')} (see GET /api/models for the ids)`]);
  let definitions: ModelDefinition[];
  try {
    definitions = catalogue.map((d) => narrowed(d, overrides[d.id]));
  } catch (error) {
    throw new ConfigError([error instanceof Error ? error.message : String(error)]);
  }

  const { pollIntervalMs, timeoutMs, retryBaseDelayMs } = config.providers;
  const timing = { pollIntervalMs, timeoutMs, retryBaseDelayMs };

  const build = (definition: ModelDefinition): VideoEngine | null => {
    const engine = buildEngine(definition);
    // Engines without a camera parameter of their own get the move as documented prompt phrasing.
    return engine && PROMPT_CAMERA_ENGINES.has(definition.engine) ? withCameraPhrase(engine) : engine;
  };
  const buildEngine = (definition: ModelDefinition): VideoEngine | null => {
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
          model: {
            id: definition.id,
            name,
            family: definition.fal.family,
            textEndpoint,
            imageEndpoint,
            endFrameEndpoint: definition.fal.endFrameEndpoint ?? null,
            referenceEndpoint: definition.fal.referenceEndpoint ?? null,
            extendEndpoint: definition.fal.extend?.endpoint ?? null,
          },
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
  const defaultModel = chooseDefaultModel(
    entries.map((e) => ({ definition: e.definition, available: Boolean(e.engine) })),
  );
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
    endFrame: definition.endFrame,
    cameraMoves: [...definition.cameraMoves],
    referenceImages: definition.referenceImages,
    referencesAlone: definition.referencesAlone ?? false,
    character: characterModeOf(definition),
    credits: price.standard / 100,
    economyCredits: price.economy / 100,
    pricePer: price.perSecond ? ('second' as const) : ('video' as const),
    resolutionCredits: Object.fromEntries(
      Object.entries(price.byResolution ?? {}).map(([r, hundredths]) => [r, hundredths / 100]),
    ),
    isDefault: definition.id === defaultModel,
    isPreview: definition.isPreview,
  }));
  const byId = new Map(entries.map((e) => [e.definition.id, e]));
  return {
    get: (model) => byId.get(model)?.engine ?? null,
    defaultModel,
    list: () => infos,
    info: (model) => infos.find((m) => m.id === model),
    price: (model) => byId.get(model)?.price,
    providerCost: (model) => (Object.hasOwn(overrides, model) ? overrides[model]?.providerCost : undefined),
    providerExtend: (model) => {
      const entry = byId.get(model);
      if (!entry?.engine) return null;
      // Kling's call is used only where the operator says their KLING_MODEL is one Kling extends.
      const kling = config.kling?.videoExtend ? entry.definition.kling?.extend : undefined;
      return entry.definition.fal?.extend ?? kling ?? null;
    },
    finishing: () => finishingTools,
    finishingEngine: (id) => {
      const definition = FINISHING_TOOLS.find((tool) => tool.id === id);
      const listed = finishingTools.find((tool) => tool.id === id);
      if (!definition?.fal || !listed?.available || !config.fal) return null;
      const { fal } = definition;
      return createFalQueueEngine({
        ...config.fal,
        ...timing,
        id: definition.id,
        name: definition.name,
        request: (job) => {
          if (!job.finish) throw new EngineError(`${definition.name} finishes videos; this job has none.`, false);
          return { endpoint: fal.endpoint, input: fal.input(job.finish, job) };
        },
      });
    },
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
