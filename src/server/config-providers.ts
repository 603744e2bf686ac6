import type {
  MailSettings,
  ProviderId,
  ProviderKeys,
  RulesSettings,
  StripeKeys,
} from '../shared/installation-settings';
import type { Config } from './config';
import { withSavedRules } from './config-rules';

/**
 * The providers' settings an administrator saves in the browser (issue 45), joined to the
 * configuration read from the environment. A provider the environment sets keeps the environment's
 * settings (the operator's file wins, and the settings page says so); the others take the saved
 * keys with the environment's addresses and model names (FAL_BASE_URL, VEO_MODEL, ...).
 */
export interface ProviderDefaults {
  falQueueUrl: string;
  /** fal.ai's platform API, where a key is tried (FAL_API_URL). */
  falApiUrl: string;
  replicateBaseUrl: string;
  replicateWebhookUrl: string | undefined;
  geminiBaseUrl: string;
  veoModel: string;
  geminiTextModel: string;
  klingBaseUrl: string;
  klingModel: string;
  klingVideoExtend: boolean;
  /** STRIPE_API_URL: another Stripe API server (a test's stand-in), also for keys saved in the browser. */
  stripeApiUrl: string | undefined;
  /** LLM_TIMEOUT_SECONDS, for a text model saved in the browser. */
  llmTimeoutMs: number;
}

/** Saved settings: each provider's keys (its own validated shape), and the operator's contact. */
export type SavedProviders = Partial<{ [P in ProviderId]: Extract<ProviderKeys, { provider: P }> }> & {
  operatorContact?: string;
  stripe?: StripeKeys;
  mail?: MailSettings;
  rules?: RulesSettings;
};

/** Which providers the environment configures: their saved settings are kept but not used. */
export function providersSetByEnvironment(config: Config): Set<ProviderId> {
  const set = new Set<ProviderId>();
  if (config.fal) set.add('fal');
  if (config.replicate) set.add('replicate');
  if (config.gemini) set.add('gemini');
  if (config.kling) set.add('kling');
  if (config.comfyui) set.add('comfyui');
  if (config.llm) set.add('llm');
  return set;
}

/** The configuration in effect: the environment's, with saved settings where the environment sets none. */
export function withSavedProviders(base: Config, saved: SavedProviders): Config {
  // Nothing saved: the environment's configuration itself (the same object, so callers can tell).
  if (Object.keys(saved).length === 0) return base;
  return withSavedRules(withSavedKeys(base, saved), saved.rules);
}

function withSavedKeys(base: Config, saved: SavedProviders): Config {
  const d = base.providerDefaults;
  const { fal, replicate, gemini, kling, comfyui, llm } = saved;
  return {
    ...base,
    fal: base.fal ?? (fal ? { apiKey: fal.apiKey, baseUrl: d.falQueueUrl } : undefined),
    replicate:
      base.replicate ??
      (replicate
        ? { apiToken: replicate.apiToken, baseUrl: d.replicateBaseUrl, webhookUrl: d.replicateWebhookUrl }
        : undefined),
    gemini:
      base.gemini ??
      (gemini
        ? { apiKey: gemini.apiKey, baseUrl: d.geminiBaseUrl, veoModel: d.veoModel, textModel: d.geminiTextModel }
        : undefined),
    kling:
      base.kling ??
      (kling
        ? {
            accessKey: kling.accessKey,
            secretKey: kling.secretKey,
            baseUrl: d.klingBaseUrl,
            model: d.klingModel,
            videoExtend: d.klingVideoExtend,
          }
        : undefined),
    comfyui: base.comfyui ?? (comfyui ? { url: comfyui.url, authHeader: undefined } : undefined),
    llm:
      base.llm ??
      (llm ? { baseUrl: llm.url, model: llm.model, apiKey: llm.apiKey, timeoutMs: d.llmTimeoutMs } : undefined),
    operatorContact: base.operatorContact ?? saved.operatorContact,
    accounts:
      base.accounts.mail || !saved.mail
        ? base.accounts
        : {
            ...base.accounts,
            mail: {
              smtpUrl: saved.mail.smtpUrl,
              from: saved.mail.from ?? `Reelsmith <no-reply@${new URL(base.publicUrl).hostname}>`,
            },
          },
    stripe:
      base.stripe ??
      (saved.stripe
        ? {
            secretKey: saved.stripe.secretKey,
            publishableKey: saved.stripe.publishableKey,
            webhookSecret: saved.stripe.webhookSecret,
            apiUrl: d.stripeApiUrl,
          }
        : undefined),
  };
}
