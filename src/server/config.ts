import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { type AccountsConfig, accountsEnv, readAccountsConfig } from './config-accounts';
import { type LlmConfig, llmEnv, readLlmConfig } from './config-llm';
import { type NotificationsConfig, notificationsEnv, readNotificationsConfig } from './config-notifications';
import { readWebhooksConfig, webhooksEnv, type WebhooksConfig } from './config-webhooks';
import { type OperationsConfig, operationsEnv, readOperationsConfig } from './config-operations';
import { type ModerationConfig, moderationEnv, readModerationConfig } from './config-moderation';
import { type ProvenanceConfig, provenanceEnv, readProvenanceConfig } from './config-provenance';
import { type RetentionConfig, readRetentionConfig, retentionEnv } from './config-retention';
import type { ProviderDefaults } from './config-providers';
import { rulesSetIn } from './config-rules';
import type { RuleName } from '../shared/installation-settings';
import {
  readRegistrationChallenge,
  type RegistrationChallengeConfig,
  registrationChallengeEnv,
} from './config-challenge';

/** SUPPORT_EMAIL when the operator set none: a placeholder nobody reads, never shown as a contact. */
export const DEFAULT_SUPPORT_EMAIL = 'support@reelsmith.local';

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));

/** Every environment variable the server reads, parsed once at start. Nothing else reads process.env. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), 'must be a postgres:// or postgresql:// URL'),
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SUPPORT_EMAIL: z.email({ error: 'must be an email address' }).default(DEFAULT_SUPPORT_EMAIL),
  // Who customers ask for credits where payments are not configured: an email address or an http(s) URL.
  OPERATOR_CONTACT: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .refine(
      (v) => v === undefined || z.email().safeParse(v).success || /^https?:\/\/[^\s]+$/.test(v),
      'must be an email address or an http(s) URL',
    ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CLIENT_DIR: z.string().min(1).default('./dist/client'),
  S3_BUCKET: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined)),
  S3_ENDPOINT: z
    .url({ error: 'must be a URL' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** The reverse proxies whose X-Forwarded-* headers are believed (addresses, CIDR ranges, presets). */
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const parsed = parseTrustedProxies(value);
      if (typeof parsed === 'string') ctx.addIssue({ code: 'custom', message: parsed });
      return typeof parsed === 'string' ? [] : parsed;
    }),
  /** Accounts one client address may register per hour and per day (docs/operating.md, Accounts). */
  REGISTRATIONS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().positive().default(10),
  REGISTRATIONS_PER_ADDRESS_PER_DAY: z.coerce.number().int().positive().default(30),
  /** Slow clients: headers must arrive within this, a whole request (upload bodies too) within the next. */
  HTTP_HEADERS_TIMEOUT_SECONDS: z.coerce.number().positive().max(300).default(15),
  HTTP_REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().max(86_400).default(900),
  /** A connection with no bytes moving either way for this long is closed. */
  HTTP_IDLE_TIMEOUT_SECONDS: z.coerce.number().positive().max(86_400).default(120),
  /** An idle keep-alive connection is closed after this (longer than a proxy's own idle timeout). */
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(72),
  /** Live event streams (GET /api/events) send a comment line this often, so proxies keep them open. */
  LIVE_EVENTS_HEARTBEAT_SECONDS: z.coerce.number().min(0.05).max(60).default(20),
  /** More database queries than this waiting: API requests are refused for a moment (503, Retry-After). */
  DB_MAX_QUEUED_QUERIES: z.coerce.number().int().min(1).max(100_000).default(64),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(1),
  WORKER_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
  WORKER_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  /** On SIGTERM a worker lets its jobs finish this long, then hands them back to the queue. */
  WORKER_SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(25).default(25),
  /** Seconds before a retried job runs again, multiplied by the attempt number. */
  WORKER_RETRY_DELAY_SECONDS: z.coerce.number().min(0).max(3600).default(15),
  /** One attempt of a job may work this long on this server (providers' waiting comes on top); then it fails. */
  WORKER_JOB_TIMEOUT_SECONDS: z.coerce.number().min(1).max(86_400).default(600),
  /** A video's record (shown as Expired once its file is gone after VIDEO_RETENTION_HOURS) is deleted this many days after it was made. */
  GENERATION_RECORD_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Where the system's ffmpeg is looked for. */
  PATH: z.string().optional(),
  FFMPEG_PATH: optionalText,
  FFPROBE_PATH: optionalText,
  GEMINI_API_KEY: optionalText,
  GEMINI_BASE_URL: z.url({ error: 'must be a URL' }).default('https://generativelanguage.googleapis.com/'),
  VEO_MODEL: z.string().min(1).default('veo-3.0-generate-001'),
  /** The Gemini model for prompt enhancement and image analysis (unless LLM_BASE_URL is set). */
  GEMINI_TEXT_MODEL: z.string().min(1).default('gemini-2.5-flash'),
  ...llmEnv,
  KLING_ACCESS_KEY: optionalText,
  KLING_SECRET_KEY: optionalText,
  KLING_BASE_URL: z.url({ error: 'must be a URL' }).default('https://api-singapore.klingai.com'),
  KLING_MODEL: z.string().min(1).default('kling-v2-1-master'),
  /**
   * Extend through Kling's own video-extend call (for KLING_MODEL versions Kling extends): off, Extend
   * continues a Kling video from its last frame and joins the two, which works with every version.
   */
  KLING_VIDEO_EXTEND: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** Seconds between status polls of a provider task, and the longest a task may take. */
  PROVIDER_POLL_SECONDS: z.coerce.number().min(0.01).max(600).default(10),
  PROVIDER_TIMEOUT_SECONDS: z.coerce.number().min(1).max(86_400).default(900),
  /** First backoff before a provider request answered 429/5xx is sent again (doubled each time, 4 tries). */
  PROVIDER_RETRY_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** fal.ai's queue API (hosts Veo, Kling, Wan, LTX, Hailuo, ...); the base URL is a local server in tests. */
  FAL_KEY: optionalText,
  FAL_BASE_URL: z.url({ error: 'must be a URL' }).default('https://queue.fal.run'),
  /** fal.ai's platform API, where a key saved in the browser is tried (docs.fal.ai/platform-apis). */
  FAL_API_URL: z.url({ error: 'must be a URL' }).default('https://api.fal.ai'),
  /** Replicate's predictions API. */
  REPLICATE_API_TOKEN: optionalText,
  REPLICATE_BASE_URL: z.url({ error: 'must be a URL' }).default('https://api.replicate.com'),
  /** An operator's own ComfyUI (GPU), its optional auth header ("Name: value") and extra workflow templates. */
  COMFYUI_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  COMFYUI_AUTH_HEADER: optionalText.refine(
    (v) => v === undefined || /^[A-Za-z0-9-]+:\s*\S/.test(v),
    'must look like "Name: value"',
  ),
  COMFYUI_TEMPLATES_DIR: optionalText,
  /** A JSON file with per-model prices and switches (checked at start). */
  MODELS_CONFIG: optionalText,
  /** Stripe: payments are on when both keys are set. */
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_PUBLISHABLE_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  /** Points the Stripe SDK at another API server (a mock, or a test's fake): http(s)://host:port. */
  STRIPE_API_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s)://host:port URL' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  ...accountsEnv,
  ...operationsEnv,
  ...provenanceEnv,
  ...moderationEnv,
  ...retentionEnv,
  ...registrationChallengeEnv,
  ...notificationsEnv,
  ...webhooksEnv,
});

export type Env = z.infer<typeof envSchema>;

/** The name of every environment variable the server reads (the container recipe's test checks against it). */
export const ENV_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

/** What a variable is when unset, as the server reads it (undefined: no default); for the docs' environment table. */
export function envDefault(name: keyof Env): unknown {
  const parsed = envSchema.shape[name].safeParse(undefined);
  return parsed.success ? parsed.data : undefined;
}

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  /** True when PUBLIC_URL is https: cookies are then Secure. */
  secureCookies: boolean;
  sessionSecret: string;
  supportEmail: string;
  /** OPERATOR_CONTACT: an email address or an http(s) URL; shown where a customer cannot pay here, and on /login without mail. */
  operatorContact: string | undefined;
  logLevel: Env['LOG_LEVEL'];
  clientDir: string;
  /**
   * Reverse proxies (addresses, CIDR ranges or proxy-addr's presets) whose X-Forwarded-For, -Host and
   * -Proto are believed; false trusts none (client IPs are the socket's). Never "everyone".
   */
  trustProxy: false | string[];
  /** Accounts one client address may register in an hour and in a day. */
  registrationsPerAddress: { hour: number; day: number };
  /** Server timeouts against slow or idle clients (milliseconds). */
  http: HttpTimeouts;
  /** Load shedding: API requests get 503 while more queries than this wait for the database. */
  maxQueuedQueries: number;
  /** Milliseconds between heartbeat comments on live event streams. */
  liveHeartbeatMs: number;
  /** S3-compatible object storage; local disk under DATA_DIR/objects when absent. */
  s3: S3Config | undefined;
  worker: WorkerConfig;
  ffmpeg: { ffmpegPath: string | undefined; ffprobePath: string | undefined; searchPath: string | undefined };
  /** Google Veo through the Gemini API; absent without GEMINI_API_KEY. */
  gemini: { apiKey: string; baseUrl: string; veoModel: string; textModel: string } | undefined;
  /**
   * An OpenAI-compatible server for AI Enhance and image analysis (config-llm.ts); absent without
   * LLM_BASE_URL. When set it answers them instead of Gemini (Veo still uses Gemini).
   */
  llm: LlmConfig | undefined;
  /** Kling's official API; absent without both keys. */
  kling: { accessKey: string; secretKey: string; baseUrl: string; model: string; videoExtend: boolean } | undefined;
  providers: { pollIntervalMs: number; timeoutMs: number; retryBaseDelayMs: number };
  /** fal.ai, Replicate and ComfyUI (issue 21); each absent without its key or address. */
  fal: { apiKey: string; baseUrl: string } | undefined;
  /** `webhookUrl` only when PUBLIC_URL is set: Replicate must be able to reach it. */
  replicate: { apiToken: string; baseUrl: string; webhookUrl: string | undefined } | undefined;
  comfyui: { url: string; authHeader: { name: string; value: string } | undefined } | undefined;
  /** The providers' addresses and model names, used with keys an administrator saves in the browser (config-providers.ts). */
  providerDefaults: ProviderDefaults;
  /** Operator files: the model catalogue's prices and switches, and extra ComfyUI templates. */
  models: { configPath: string | undefined; comfyTemplatesDir: string | undefined };
  /** Card payments through Stripe; absent without both keys. */
  stripe: StripeConfig | undefined;
  /** Days a generation's record is kept (its video is deleted after `retention.videoHours`). */
  generationRecordRetentionDays: number;
  /** How long videos and uploads are kept, and who may keep a video longer (config-retention.ts). */
  retention: RetentionConfig;
  /** External sign-ins, mail for password resets, the sign-up grant. */
  accounts: AccountsConfig;
  /** Content Credentials: the signer and what a manifest says (config-provenance.ts). */
  provenance: ProvenanceConfig;
  moderation: ModerationConfig;
  /** The operator's settings: metrics, refunds of failed generations (config-operations.ts). */
  operations: OperationsConfig;
  /** The proof-of-work challenge on registration; undefined when off (the default). */
  registrationChallenge: RegistrationChallengeConfig | undefined;
  /** REGISTRATION_CHALLENGE_COST, for a challenge an administrator turns on in the browser. */
  registrationChallengeCost: number;
  /** The rules whose variable is set in the environment: it wins over the settings page (config-rules.ts). */
  rulesFromEnvironment: ReadonlySet<RuleName>;
  /** Web Push keys and the push services subscriptions may name. */
  notifications: NotificationsConfig;
  /** Outbound webhooks: which private receivers the operator allows, and whether only https passes. */
  webhooks: WebhooksConfig;
}

export interface StripeConfig {
  secretKey: string;
  publishableKey: string;
  /** Without it the webhook endpoint answers 503. */
  webhookSecret: string | undefined;
  /** Another API server for the SDK (host, port, protocol). */
  apiUrl: string | undefined;
}

export interface HttpTimeouts {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  idleTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

export interface WorkerConfig {
  concurrency: number;
  leaseSeconds: number;
  pollMs: number;
  retryDelaySeconds: number;
  shutdownGraceSeconds: number;
  /** One attempt's budget on this server; a provider job also gets PROVIDER_TIMEOUT_SECONDS. */
  jobTimeoutSeconds: number;
}

export interface S3Config {
  bucket: string;
  endpoint: string | undefined;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** The process environment; the only place that touches process.env. */
export function readEnv(): Record<string, string | undefined> {
  return { ...process.env };
}

/** Parses the environment; throws ConfigError listing every problem. */
export function loadConfig(source: Record<string, string | undefined> = readEnv()): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`));
  }
  const env = parsed.data;
  if (Boolean(env.STRIPE_SECRET_KEY) !== Boolean(env.STRIPE_PUBLISHABLE_KEY)) {
    throw new ConfigError(['STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY: set both to take payments, or neither']);
  }
  if (Boolean(env.KLING_ACCESS_KEY) !== Boolean(env.KLING_SECRET_KEY)) {
    throw new ConfigError(['KLING_ACCESS_KEY and KLING_SECRET_KEY: set both to use Kling, or neither']);
  }
  if (env.HTTP_HEADERS_TIMEOUT_SECONDS > env.HTTP_REQUEST_TIMEOUT_SECONDS) {
    throw new ConfigError(['HTTP_HEADERS_TIMEOUT_SECONDS: must not be longer than HTTP_REQUEST_TIMEOUT_SECONDS']);
  }
  const accounts = readAccountsConfig(env);
  if (typeof accounts === 'string') throw new ConfigError([accounts]);
  const llm = readLlmConfig(env);
  if (typeof llm === 'string') throw new ConfigError([llm]);
  let notifications: NotificationsConfig;
  try {
    notifications = readNotificationsConfig(env);
  } catch (error) {
    throw new ConfigError([(error as Error).message]);
  }
  const dataDir = path.resolve(env.DATA_DIR);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    publicUrl,
    secureCookies: publicUrl.startsWith('https://'),
    sessionSecret: env.SESSION_SECRET ?? loadOrCreateSecret(dataDir),
    supportEmail: env.SUPPORT_EMAIL,
    operatorContact: env.OPERATOR_CONTACT,
    logLevel: env.LOG_LEVEL,
    clientDir: path.resolve(env.CLIENT_DIR),
    trustProxy: env.TRUST_PROXY.length > 0 ? env.TRUST_PROXY : false,
    registrationsPerAddress: {
      hour: env.REGISTRATIONS_PER_ADDRESS_PER_HOUR,
      day: env.REGISTRATIONS_PER_ADDRESS_PER_DAY,
    },
    http: {
      headersTimeoutMs: Math.round(env.HTTP_HEADERS_TIMEOUT_SECONDS * 1000),
      requestTimeoutMs: Math.round(env.HTTP_REQUEST_TIMEOUT_SECONDS * 1000),
      idleTimeoutMs: Math.round(env.HTTP_IDLE_TIMEOUT_SECONDS * 1000),
      keepAliveTimeoutMs: Math.round(env.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS * 1000),
    },
    maxQueuedQueries: env.DB_MAX_QUEUED_QUERIES,
    liveHeartbeatMs: Math.round(env.LIVE_EVENTS_HEARTBEAT_SECONDS * 1000),
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          endpoint: env.S3_ENDPOINT,
          region: env.S3_REGION,
          accessKeyId: env.S3_ACCESS_KEY_ID,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY,
          forcePathStyle: env.S3_FORCE_PATH_STYLE,
        }
      : undefined,
    worker: {
      concurrency: env.WORKER_CONCURRENCY,
      leaseSeconds: env.WORKER_LEASE_SECONDS,
      pollMs: env.WORKER_POLL_MS,
      retryDelaySeconds: env.WORKER_RETRY_DELAY_SECONDS,
      shutdownGraceSeconds: env.WORKER_SHUTDOWN_GRACE_SECONDS,
      jobTimeoutSeconds: env.WORKER_JOB_TIMEOUT_SECONDS,
    },
    ffmpeg: { ffmpegPath: env.FFMPEG_PATH, ffprobePath: env.FFPROBE_PATH, searchPath: env.PATH },
    generationRecordRetentionDays: env.GENERATION_RECORD_RETENTION_DAYS,
    retention: readRetentionConfig(env),
    gemini: env.GEMINI_API_KEY
      ? {
          apiKey: env.GEMINI_API_KEY,
          baseUrl: env.GEMINI_BASE_URL,
          veoModel: env.VEO_MODEL,
          textModel: env.GEMINI_TEXT_MODEL,
        }
      : undefined,
    llm,
    kling:
      env.KLING_ACCESS_KEY && env.KLING_SECRET_KEY
        ? {
            accessKey: env.KLING_ACCESS_KEY,
            secretKey: env.KLING_SECRET_KEY,
            baseUrl: env.KLING_BASE_URL,
            model: env.KLING_MODEL,
            videoExtend: env.KLING_VIDEO_EXTEND,
          }
        : undefined,
    providers: {
      pollIntervalMs: env.PROVIDER_POLL_SECONDS * 1000,
      timeoutMs: env.PROVIDER_TIMEOUT_SECONDS * 1000,
      retryBaseDelayMs: env.PROVIDER_RETRY_DELAY_MS,
    },
    fal: env.FAL_KEY ? { apiKey: env.FAL_KEY, baseUrl: env.FAL_BASE_URL } : undefined,
    replicate: env.REPLICATE_API_TOKEN
      ? {
          apiToken: env.REPLICATE_API_TOKEN,
          baseUrl: env.REPLICATE_BASE_URL,
          webhookUrl: env.PUBLIC_URL ? `${publicUrl}/api/webhooks/replicate` : undefined,
        }
      : undefined,
    comfyui: env.COMFYUI_URL ? { url: env.COMFYUI_URL, authHeader: parseHeader(env.COMFYUI_AUTH_HEADER) } : undefined,
    providerDefaults: {
      falQueueUrl: env.FAL_BASE_URL,
      falApiUrl: env.FAL_API_URL,
      replicateBaseUrl: env.REPLICATE_BASE_URL,
      replicateWebhookUrl: env.PUBLIC_URL ? `${publicUrl}/api/webhooks/replicate` : undefined,
      geminiBaseUrl: env.GEMINI_BASE_URL,
      veoModel: env.VEO_MODEL,
      geminiTextModel: env.GEMINI_TEXT_MODEL,
      klingBaseUrl: env.KLING_BASE_URL,
      klingModel: env.KLING_MODEL,
      klingVideoExtend: env.KLING_VIDEO_EXTEND,
      stripeApiUrl: env.STRIPE_API_URL,
      llmTimeoutMs: Math.round(env.LLM_TIMEOUT_SECONDS * 1000),
    },
    models: { configPath: env.MODELS_CONFIG, comfyTemplatesDir: env.COMFYUI_TEMPLATES_DIR },
    stripe:
      env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY
        ? {
            secretKey: env.STRIPE_SECRET_KEY,
            publishableKey: env.STRIPE_PUBLISHABLE_KEY,
            webhookSecret: env.STRIPE_WEBHOOK_SECRET,
            apiUrl: env.STRIPE_API_URL,
          }
        : undefined,
    accounts,
    operations: readOperationsConfig(env),
    provenance: readProvenanceConfig(env),
    moderation: readModerationConfig(env),
    registrationChallenge: readRegistrationChallenge(env),
    registrationChallengeCost: env.REGISTRATION_CHALLENGE_COST,
    rulesFromEnvironment: rulesSetIn(source),
    notifications,
    webhooks: readWebhooksConfig(env, env.NODE_ENV),
  };
}

/** "Name: value" as a header, or undefined. */
function parseHeader(text: string | undefined): { name: string; value: string } | undefined {
  if (!text) return undefined;
  const colon = text.indexOf(':');
  return { name: text.slice(0, colon).trim().toLowerCase(), value: text.slice(colon + 1).trim() };
}

/** proxy-addr's named ranges: 127.0.0.0/8 and ::1; 169.254.0.0/16 and fe80::/10; 10/8, 172.16/12, 192.168/16 and fc00::/7. */
const PROXY_PRESETS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY as a list of trusted proxies, or a sentence saying what is wrong. Only named proxies
 * are trusted: "true" (anyone) would let every client pick its own address with an
 * X-Forwarded-For header and walk past per-address limits, and a hop count cannot tell a proxy
 * from a client that connects directly (Fastify 5 ignores it for that reason).
 */
function parseTrustedProxies(value: string): string[] | string {
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 1 && ['false', '0'].includes(entries[0] ?? '')) return [];
  const example =
    'e.g. TRUST_PROXY=127.0.0.1, or TRUST_PROXY=loopback,uniquelocal for a proxy on this machine or a private network';
  if (entries.some((e) => /^(true|\d+)$/.test(e))) {
    return `trusting any X-Forwarded-For (true) or a number of hops lets clients choose their own address; list your reverse proxy's addresses or ranges instead (${example})`;
  }
  const wrong = entries.filter((e) => !PROXY_PRESETS.has(e) && !isAddressOrRange(e));
  if (wrong.length > 0)
    return `not an IP address, CIDR range or preset (loopback, linklocal, uniquelocal): ${wrong.join(', ')} (${example})`;
  return entries;
}

function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** A secret generated once per installation and kept in DATA_DIR, so sessions survive restarts. */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // absent: create it below
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
