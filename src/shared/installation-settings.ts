import { z } from 'zod';

import { KEEP_GROUPS, MAX_VIDEO_RETENTION_HOURS, MIN_VIDEO_RETENTION_HOURS } from './retention';
import { singleLine } from './text';

// The installation's settings an administrator makes in the browser (issue 45): the video model
// providers' keys. Each key is tried against its provider with a harmless call before it is saved,
// stored encrypted with the installation's secret, and used by every web and worker process from the
// next video on, with no restart. An environment variable, where set, wins and is shown as such.

export const PROVIDER_IDS = ['fal', 'replicate', 'gemini', 'kling', 'comfyui', 'llm'] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];
export const providerIdSchema = z.enum(PROVIDER_IDS);

export interface ProviderField {
  name: 'apiKey' | 'apiToken' | 'accessKey' | 'secretKey' | 'url' | 'model';
  label: string;
  /** May be left empty (a local model server needs no key). */
  optional?: boolean;
  /** Typed as a password (never shown back) or as an address. */
  secret: boolean;
  /** The environment variable that sets it (and wins). */
  env: string;
}

export interface ProviderForm {
  id: ProviderId;
  name: string;
  /** What connecting it brings, in a customer's words. */
  brings: string;
  /** Where the operator gets the key. */
  where: string;
  fields: ProviderField[];
}

/** The settings page's forms, in the order shown: the broadest catalogue first. */
export const PROVIDER_FORMS: readonly ProviderForm[] = [
  {
    id: 'fal',
    name: 'fal.ai',
    brings: 'Veo 3, Kling, Wan, LTX, Hailuo and more: most of the catalogue with one key.',
    where: 'fal.ai → Settings → API keys',
    fields: [{ name: 'apiKey', label: 'fal.ai API key', secret: true, env: 'FAL_KEY' }],
  },
  {
    id: 'replicate',
    name: 'Replicate',
    brings: 'Veo 3, Kling and open models hosted on Replicate.',
    where: 'replicate.com → Account settings → API tokens',
    fields: [{ name: 'apiToken', label: 'Replicate API token', secret: true, env: 'REPLICATE_API_TOKEN' }],
  },
  {
    id: 'gemini',
    name: 'Google Gemini',
    brings: "Google's Veo models, and AI Enhance and image analysis by Gemini.",
    where: 'aistudio.google.com → Get API key',
    fields: [{ name: 'apiKey', label: 'Gemini API key', secret: true, env: 'GEMINI_API_KEY' }],
  },
  {
    id: 'kling',
    name: 'Kling AI',
    brings: "Kling's own API, with its camera control.",
    where: 'Kling AI developer console → API keys (an access key and a secret key)',
    fields: [
      { name: 'accessKey', label: 'Access key', secret: true, env: 'KLING_ACCESS_KEY' },
      { name: 'secretKey', label: 'Secret key', secret: true, env: 'KLING_SECRET_KEY' },
    ],
  },
  {
    id: 'comfyui',
    name: 'ComfyUI',
    brings: 'Open models (Wan, LTX-Video) on your own GPU server.',
    where: "your ComfyUI server's address, reachable from this server",
    fields: [{ name: 'url', label: 'ComfyUI address', secret: false, env: 'COMFYUI_URL' }],
  },
  {
    id: 'llm',
    name: 'Your own text model',
    brings: 'AI Enhance and image analysis by a model you run or rent: Ollama, vLLM, LM Studio, OpenAI.',
    where: "the server's OpenAI-compatible address (Ollama: http://host:11434/v1) and a model it has",
    fields: [
      { name: 'url', label: 'Server address', secret: false, env: 'LLM_BASE_URL' },
      { name: 'model', label: 'Model', secret: false, env: 'LLM_MODEL' },
      { name: 'apiKey', label: 'API key', secret: true, env: 'LLM_API_KEY', optional: true },
    ],
  },
];

export const providerFormOf = (id: ProviderId): ProviderForm =>
  PROVIDER_FORMS.find((form) => form.id === id) ?? (PROVIDER_FORMS[0] as ProviderForm);

/** A key as pasted: trimmed, printable ASCII without spaces (a key never has others; a pasted sentence does). */
const keyText = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `${label} is empty`)
    .max(500, `${label} is longer than any key (500 characters at most)`)
    .regex(/^[!-~]+$/, `${label} has spaces or characters no key has: paste the key alone`);

/** What an administrator sends to connect a provider (PUT /api/admin/settings/providers); unknown fields are refused. */
export const providerKeysSchema = z.discriminatedUnion('provider', [
  z.strictObject({ provider: z.literal('fal'), apiKey: keyText('The fal.ai API key') }),
  z.strictObject({ provider: z.literal('replicate'), apiToken: keyText('The Replicate API token') }),
  z.strictObject({ provider: z.literal('gemini'), apiKey: keyText('The Gemini API key') }),
  z.strictObject({
    provider: z.literal('kling'),
    accessKey: keyText('The access key'),
    secretKey: keyText('The secret key'),
  }),
  z.strictObject({
    provider: z.literal('llm'),
    url: z
      .url({
        protocol: /^https?$/,
        error: 'The server address must be an http(s) address, like http://localhost:11434/v1',
      })
      .max(500),
    model: z.string().trim().min(1, 'Name a model the server has').max(200).check(singleLine),
    apiKey: keyText('The API key').optional(),
  }),
  z.strictObject({
    provider: z.literal('comfyui'),
    url: z
      .url({ protocol: /^https?$/, error: 'The ComfyUI address must be an http(s) address, like http://gpu-box:8188' })
      .max(500),
  }),
]);
export type ProviderKeys = z.infer<typeof providerKeysSchema>;

/** Where a provider's settings come from. */
export const settingSourceSchema = z.enum(['environment', 'saved', 'none']);
export type SettingSource = z.infer<typeof settingSourceSchema>;

export const providerSettingSchema = z.object({
  id: providerIdSchema,
  source: settingSourceSchema,
  /** The end of the key in use ("…a1b2"), or the ComfyUI address; never a whole key. */
  hint: z.string().nullable(),
  /** When an administrator saved it (saved only). */
  savedAt: z.iso.datetime().nullable(),
  /** Saved under another installation secret (SESSION_SECRET changed): not in use until saved again. */
  unreadable: z.boolean(),
  /** The catalogue's models this provider makes available now. */
  models: z.array(z.string()),
});
export type ProviderSetting = z.infer<typeof providerSettingSchema>;

const stripeMode = (key: string) => (key.includes('_live_') ? 'live' : 'test');

/** Stripe's keys for payments (PUT /api/admin/settings/payments): from the Stripe Dashboard's API keys page. */
export const stripeKeysSchema = z
  .strictObject({
    secretKey: keyText('The secret key').regex(
      /^(sk|rk)_(test|live)_/,
      'A Stripe secret key starts with sk_test_ or sk_live_ (a restricted key with rk_)',
    ),
    publishableKey: keyText('The publishable key').regex(
      /^pk_(test|live)_/,
      'A Stripe publishable key starts with pk_test_ or pk_live_',
    ),
    /** The signing secret of the webhook endpoint (whsec_…); without it Stripe's events are refused. */
    webhookSecret: keyText('The webhook signing secret')
      .regex(/^whsec_/, 'A webhook signing secret starts with whsec_')
      .optional(),
  })
  .refine((keys) => stripeMode(keys.secretKey) === stripeMode(keys.publishableKey), {
    message: 'The two keys are from different modes (one test, one live): copy both from the same mode',
    path: ['publishableKey'],
  });
export type StripeKeys = z.infer<typeof stripeKeysSchema>;

/** Mail (PUT /api/admin/settings/mail): the SMTP server password resets, verification and notifications go through. */
export const mailSettingsSchema = z.strictObject({
  /** smtp://user:password@host:587 or smtps://…:465. */
  smtpUrl: z
    .url({
      protocol: /^smtps?$/,
      error: 'The mail server must be an smtp:// or smtps:// address, like smtps://user:password@mail.example.com:465',
    })
    .max(500, 'The mail server address is longer than 500 characters')
    .check(singleLine),
  /** Who the mail is from, like "Reelsmith <no-reply@example.com>"; the server's own address when absent. */
  from: z.string().trim().min(3).max(200, 'The sender is longer than 200 characters').check(singleLine).optional(),
});
export type MailSettings = z.infer<typeof mailSettingsSchema>;

/** Who runs this server, as people are told where they need someone to ask (credits, help). */
export const operatorContactBodySchema = z.strictObject({
  /** An email address or an http(s) address; null forgets the saved one. */
  contact: z
    .string()
    .trim()
    .max(200, 'The contact is longer than 200 characters')
    .check(singleLine)
    .refine(
      (v) => z.email().safeParse(v).success || /^https?:\/\/[^\s]+$/.test(v),
      'Give an email address, or a web address starting with https://',
    )
    .nullable(),
});
export type OperatorContactBody = z.infer<typeof operatorContactBodySchema>;

/**
 * The installation's rules an administrator may set in the browser: how long videos are kept, who
 * may keep one, what a new account is given, and whether registration asks for a proof of work. Each
 * is optional: a rule left out keeps what it is; a rule the environment sets cannot be sent.
 */
export const rulesSettingsSchema = z.strictObject({
  /** Hours a finished video (and an upload) is kept (VIDEO_RETENTION_HOURS). */
  videoHours: z
    .number({ error: 'Give the hours as a whole number' })
    .int('Give the hours as a whole number')
    .min(MIN_VIDEO_RETENTION_HOURS, `Videos are kept at least ${MIN_VIDEO_RETENTION_HOURS} hour`)
    .max(MAX_VIDEO_RETENTION_HOURS, `Videos are kept at most ${MAX_VIDEO_RETENTION_HOURS} hours (a year)`)
    .optional(),
  /** Who may keep a video past that (KEEP_VIDEOS_FOR); empty is nobody. */
  keepFor: z
    .array(z.enum(KEEP_GROUPS, { error: `Choose among ${KEEP_GROUPS.join(', ')}` }))
    .max(KEEP_GROUPS.length)
    .refine((groups) => new Set(groups).size === groups.length, 'Each group once')
    .optional(),
  /** Credits every new account receives (SIGNUP_CREDITS), in hundredths: 100 is one credit. */
  signupCreditsHundredths: z
    .number({ error: 'Give the credits as a number' })
    .int('Give the credits with at most two decimals')
    .min(0, 'New accounts cannot be given fewer than 0 credits')
    .max(99_999_999, 'New accounts are given at most 999999 credits')
    .optional(),
  /** Whether anyone may open an account (REGISTRATION_OPEN). */
  registrationOpen: z.boolean({ error: 'Say true or false' }).optional(),
  /** Whether registration first solves a small proof of work in the browser (REGISTRATION_CHALLENGE). */
  registrationChallenge: z.boolean({ error: 'Say true or false' }).optional(),
});
export type RulesSettings = z.infer<typeof rulesSettingsSchema>;
export type RuleName = keyof RulesSettings;

/** Each rule's environment variable: set there, it wins and the page only shows it. */
export const RULE_VARIABLES: Record<RuleName, string> = {
  videoHours: 'VIDEO_RETENTION_HOURS',
  keepFor: 'KEEP_VIDEOS_FOR',
  signupCreditsHundredths: 'SIGNUP_CREDITS',
  registrationOpen: 'REGISTRATION_OPEN',
  registrationChallenge: 'REGISTRATION_CHALLENGE',
};

/** A rule in effect and where it comes from ('none': the product's default). */
const ruleOf = <T extends z.ZodType>(value: T) => z.object({ value, source: settingSourceSchema });

export const installationSettingsSchema = z.object({
  providers: z.array(providerSettingSchema),
  /** Card payments through Stripe: where the keys come from, their mode, and whether Stripe's events are checked. */
  payments: z.object({
    source: settingSourceSchema,
    hint: z.string().nullable(),
    savedAt: z.iso.datetime().nullable(),
    mode: z.enum(['test', 'live']).nullable(),
    webhookSecret: z.boolean(),
    /** Where Stripe must send its events (the endpoint to add in the Stripe Dashboard). */
    webhookUrl: z.string(),
  }),
  /** Mail: where its settings come from, the server it uses (host and port, never the password), and the sender. */
  mail: z.object({
    source: settingSourceSchema,
    server: z.string().nullable(),
    from: z.string().nullable(),
    savedAt: z.iso.datetime().nullable(),
  }),
  /** The operator's contact in use, and where it comes from (OPERATOR_CONTACT wins). */
  contact: z.object({ source: settingSourceSchema, value: z.string().nullable() }),
  /** The rules in effect, each with where it comes from. */
  rules: z.object({
    videoHours: ruleOf(z.number().int()),
    keepFor: ruleOf(z.array(z.enum(KEEP_GROUPS))),
    signupCreditsHundredths: ruleOf(z.number().int()),
    registrationOpen: ruleOf(z.boolean()),
    registrationChallenge: ruleOf(z.boolean()),
  }),
  /** True while nothing but the local preview engine can render (the dashboard's checklist shows). */
  previewOnly: z.boolean(),
  /** The rest of the first-run checklist: what the environment configures today. */
  setup: z.object({ payments: z.boolean(), mail: z.boolean(), operatorContact: z.boolean() }),
});
export type InstallationSettings = z.infer<typeof installationSettingsSchema>;

export const PROVIDER_KEY_REFUSED_CODE = 'provider_key_refused';
export const PROVIDER_UNREACHABLE_CODE = 'provider_unreachable';
export const SET_BY_ENVIRONMENT_CODE = 'set_by_environment';

/** The last characters of a key, enough to tell two keys apart and too few to use. */
export function keyHint(key: string): string {
  return key.length <= 8 ? '…' : `…${key.slice(-4)}`;
}
