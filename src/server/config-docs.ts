import type { Env } from './config';

/**
 * What each environment variable means, in one line, for the table in docs/operating.md that
 * scripts/env-table.ts writes (and checks, with .env.example, in `npm run lint`). Keyed by the schema's
 * own names, so a variable added to config.ts without a line here, or a line left for a variable that
 * is gone, fails the typecheck. The server never reads this file.
 */
export const ENV_GROUPS = [
  'Server and HTTP',
  'Database and storage',
  'Workers and jobs',
  'Video providers',
  'AI assist',
  'Payments',
  'Accounts and sign-in',
  'Notifications and webhooks',
  'Operations and retention',
  'Content Credentials',
  'Screening',
] as const;

export type EnvGroup = (typeof ENV_GROUPS)[number];

export interface EnvDoc {
  group: EnvGroup;
  /** One line: what the variable does. */
  meaning: string;
  /** The default in words, where the schema leaves it unset and the server works one out. */
  defaultInWords?: string;
  /** Why the variable is not listed in .env.example (a variable of the system, not of Reelsmith). */
  notInEnvExample?: string;
}

export const ENV_DOCS: Record<keyof Env, EnvDoc> = {
  NODE_ENV: {
    group: 'Server and HTTP',
    meaning: '`production`, `development` or `test`; production accepts only https webhook endpoints.',
  },
  PORT: { group: 'Server and HTTP', meaning: 'HTTP port to listen on.' },
  HOST: { group: 'Server and HTTP', meaning: 'Interface to listen on.' },
  PUBLIC_URL: {
    group: 'Server and HTTP',
    meaning:
      'The address people (and providers, for signed input links and webhooks) use to reach the app; https makes cookies Secure.',
    defaultInWords: '`http://localhost:$PORT`',
  },
  SESSION_SECRET: {
    group: 'Server and HTTP',
    meaning: 'Secret for signing sessions, at least 32 characters.',
    defaultInWords: 'generated once into `$DATA_DIR/session-secret`',
  },
  SUPPORT_EMAIL: { group: 'Server and HTTP', meaning: 'Shown on the error screen\'s "contact support" link.' },
  OPERATOR_CONTACT: {
    group: 'Server and HTTP',
    meaning:
      'Who customers ask for credits without payments, and for a password-reset link without mail: an email address or an http(s) URL.',
  },
  LOG_LEVEL: { group: 'Server and HTTP', meaning: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`.' },
  CLIENT_DIR: {
    group: 'Server and HTTP',
    meaning: 'Where the built web client is served from (`npm run build` writes it).',
  },
  TRUST_PROXY: {
    group: 'Server and HTTP',
    meaning:
      'Reverse proxies whose X-Forwarded-* headers are believed: addresses, CIDR ranges or `loopback`, `linklocal`, `uniquelocal`; `true` and hop counts are refused.',
  },
  REGISTRATIONS_PER_ADDRESS_PER_HOUR: {
    group: 'Accounts and sign-in',
    meaning: 'Accounts one client address may register in an hour (then 429 with Retry-After).',
  },
  REGISTRATIONS_PER_ADDRESS_PER_DAY: {
    group: 'Accounts and sign-in',
    meaning: 'Accounts one client address may register in a day.',
  },
  HTTP_HEADERS_TIMEOUT_SECONDS: {
    group: 'Server and HTTP',
    meaning: "A request's headers must arrive within this.",
  },
  HTTP_REQUEST_TIMEOUT_SECONDS: {
    group: 'Server and HTTP',
    meaning: 'A whole request, upload body included, must arrive within this (900: 50 MB at about 0.5 Mbit/s).',
  },
  HTTP_IDLE_TIMEOUT_SECONDS: {
    group: 'Server and HTTP',
    meaning: 'A connection with nothing moving either way for this long is closed.',
  },
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: {
    group: 'Server and HTTP',
    meaning: "An idle keep-alive connection is closed after this; keep it longer than your proxy's idle timeout.",
  },
  LIVE_EVENTS_HEARTBEAT_SECONDS: {
    group: 'Server and HTTP',
    meaning: "Seconds between heartbeat comments on live event streams; keep it below your proxy's read timeout.",
  },
  DB_MAX_QUEUED_QUERIES: {
    group: 'Database and storage',
    meaning: 'More database queries than this waiting: API requests are answered 503 with Retry-After: 1 for a moment.',
  },
  DATA_DIR: {
    group: 'Database and storage',
    meaning: 'Where the embedded database, uploaded files and the session secret live.',
  },
  DATABASE_URL: {
    group: 'Database and storage',
    meaning: 'A PostgreSQL server (`postgres://` or `postgresql://`) instead of the embedded database.',
  },
  S3_BUCKET: {
    group: 'Database and storage',
    meaning: 'An S3-compatible bucket for uploads and videos; unset: local disk under `$DATA_DIR/objects`.',
  },
  S3_ENDPOINT: {
    group: 'Database and storage',
    meaning: 'The S3 endpoint for services other than AWS (MinIO, R2...).',
  },
  S3_REGION: { group: 'Database and storage', meaning: "The bucket's region." },
  S3_ACCESS_KEY_ID: { group: 'Database and storage', meaning: 'S3 access key id.' },
  S3_SECRET_ACCESS_KEY: { group: 'Database and storage', meaning: 'S3 secret access key.' },
  S3_FORCE_PATH_STYLE: {
    group: 'Database and storage',
    meaning: '`true` for services that need path-style addressing (MinIO, s3rver).',
  },
  WORKER_CONCURRENCY: { group: 'Workers and jobs', meaning: 'Jobs each process renders at once.' },
  WORKER_LEASE_SECONDS: {
    group: 'Workers and jobs',
    meaning: "A claimed job's lease, renewed by heartbeats; a job whose worker died is claimed again after it.",
  },
  WORKER_POLL_MS: { group: 'Workers and jobs', meaning: 'How often an idle worker looks for a job (milliseconds).' },
  WORKER_SHUTDOWN_GRACE_SECONDS: {
    group: 'Workers and jobs',
    meaning: 'On SIGTERM, running jobs may finish for this long (at most 25), then go back to the queue.',
  },
  WORKER_RETRY_DELAY_SECONDS: {
    group: 'Workers and jobs',
    meaning: 'A retried job waits this many seconds times the attempt number.',
  },
  WORKER_JOB_TIMEOUT_SECONDS: {
    group: 'Workers and jobs',
    meaning: "One attempt's budget on this server (a provider's own waiting comes on top); past it the job fails.",
  },
  GENERATION_RECORD_RETENTION_DAYS: {
    group: 'Operations and retention',
    meaning: "Days after it was made that a video's record (shown as Expired once its file is gone) is deleted.",
  },
  PATH: {
    group: 'Video providers',
    meaning: "The system's search path, where `ffmpeg` and `ffprobe` are looked for first.",
    defaultInWords: "the process's own",
    notInEnvExample: "the system's variable, not Reelsmith's",
  },
  FFMPEG_PATH: {
    group: 'Video providers',
    meaning: 'The ffmpeg binary; unset: `ffmpeg` on PATH, else the one from `@ffmpeg-installer/ffmpeg`.',
  },
  FFPROBE_PATH: {
    group: 'Video providers',
    meaning: 'The ffprobe binary; unset: `ffprobe` on PATH, else the one from `@ffprobe-installer/ffprobe`.',
  },
  GEMINI_API_KEY: {
    group: 'Video providers',
    meaning: 'Enables Google Veo 3 through the Gemini API, and Gemini for AI Enhance and image analysis.',
  },
  GEMINI_BASE_URL: { group: 'Video providers', meaning: "The Gemini API's address." },
  VEO_MODEL: { group: 'Video providers', meaning: 'The Veo model Gemini renders with.' },
  GEMINI_TEXT_MODEL: {
    group: 'AI assist',
    meaning: 'The Gemini model for AI Enhance and image analysis (unless `LLM_BASE_URL` is set).',
  },
  LLM_BASE_URL: {
    group: 'AI assist',
    meaning:
      'An OpenAI-compatible server for AI Enhance and image analysis, the part before /chat/completions (Ollama: `http://localhost:11434/v1`).',
  },
  LLM_MODEL: { group: 'AI assist', meaning: "The model's name on that server; required with `LLM_BASE_URL`." },
  LLM_API_KEY: {
    group: 'AI assist',
    meaning: 'Sent as `Authorization: Bearer` when set; most local servers need none.',
  },
  LLM_TIMEOUT_SECONDS: { group: 'AI assist', meaning: 'How long one try may take.' },
  KLING_ACCESS_KEY: {
    group: 'Video providers',
    meaning: "Kling's official API (with `KLING_SECRET_KEY`; both or neither).",
  },
  KLING_SECRET_KEY: { group: 'Video providers', meaning: "Kling's secret key." },
  KLING_BASE_URL: { group: 'Video providers', meaning: "Kling's API address." },
  KLING_MODEL: { group: 'Video providers', meaning: 'The Kling model version.' },
  KLING_VIDEO_EXTEND: {
    group: 'Video providers',
    meaning: "Extend through Kling's own video-extend call; only for `KLING_MODEL` versions Kling extends.",
  },
  PROVIDER_POLL_SECONDS: { group: 'Video providers', meaning: "Seconds between status polls of a provider's task." },
  PROVIDER_TIMEOUT_SECONDS: {
    group: 'Video providers',
    meaning: 'The longest a provider task may take before the job fails.',
  },
  PROVIDER_RETRY_DELAY_MS: {
    group: 'Video providers',
    meaning: 'First wait before a provider request answered 429 or 5xx is sent again (doubled each time, 4 tries).',
  },
  FAL_KEY: {
    group: 'Video providers',
    meaning: "fal.ai's queue: Veo 3, Kling 2.1, Wan 2.2, LTX-Video and Hailuo 02 (needs a reachable `PUBLIC_URL`).",
  },
  FAL_BASE_URL: { group: 'Video providers', meaning: "fal's queue API address." },
  FAL_API_URL: {
    group: 'Video providers',
    meaning: "fal's platform API address, where a key saved on the settings page is tried.",
  },
  REPLICATE_API_TOKEN: {
    group: 'Video providers',
    meaning: "Replicate's predictions: Veo 3 and Kling 2.1 (needs a reachable `PUBLIC_URL`).",
  },
  REPLICATE_BASE_URL: { group: 'Video providers', meaning: "Replicate's API address." },
  COMFYUI_URL: { group: 'Video providers', meaning: 'Your own ComfyUI, e.g. `http://127.0.0.1:8188`.' },
  COMFYUI_AUTH_HEADER: {
    group: 'Video providers',
    meaning: 'A header for an authenticating proxy in front of ComfyUI, as "Name: value".',
  },
  COMFYUI_TEMPLATES_DIR: {
    group: 'Video providers',
    meaning: 'A folder of your own workflow templates (`<name>.json` with `<name>.map.json`).',
  },
  MODELS_CONFIG: {
    group: 'Video providers',
    meaning:
      'A JSON file of per-model prices, switches, provider costs and narrowed options, and the finishing tools’ prices and switches (`finishing`), checked at start.',
  },
  STRIPE_SECRET_KEY: {
    group: 'Payments',
    meaning: 'Card payments through Stripe, with `STRIPE_PUBLISHABLE_KEY` (both or neither).',
  },
  STRIPE_PUBLISHABLE_KEY: {
    group: 'Payments',
    meaning: 'Sent to the browser at run time (`GET /api/payments/config`).',
  },
  STRIPE_WEBHOOK_SECRET: {
    group: 'Payments',
    meaning: 'Signing secret of `POST /api/stripe/webhook`; without it the webhook answers 503.',
  },
  STRIPE_API_URL: {
    group: 'Payments',
    meaning: 'Another Stripe API server for the SDK, as http(s)://host:port (stripe-mock, a test fake).',
  },
  OIDC_ISSUER_URL: {
    group: 'Accounts and sign-in',
    meaning: 'Any OpenID Connect provider at /api/login (https; with the client id and secret, all three or none).',
  },
  OIDC_CLIENT_ID: { group: 'Accounts and sign-in', meaning: 'The OpenID Connect client id.' },
  OIDC_CLIENT_SECRET: {
    group: 'Accounts and sign-in',
    meaning: 'The OpenID Connect client secret (sent with HTTP Basic).',
  },
  OIDC_SCOPES: { group: 'Accounts and sign-in', meaning: 'Scopes asked of the OpenID Connect provider.' },
  OIDC_BUTTON_LABEL: { group: 'Accounts and sign-in', meaning: "The sign-in button's words (at most 60 characters)." },
  GOOGLE_CLIENT_ID: {
    group: 'Accounts and sign-in',
    meaning: 'Google sign-in at /api/auth/google, with `GOOGLE_CLIENT_SECRET` (both or neither).',
  },
  GOOGLE_CLIENT_SECRET: { group: 'Accounts and sign-in', meaning: "Google's OAuth client secret." },
  GOOGLE_ISSUER_URL: {
    group: 'Accounts and sign-in',
    meaning: "For tests only: a local stand-in for Google's issuer. Leave it unset.",
  },
  SMTP_URL: {
    group: 'Accounts and sign-in',
    meaning: 'Mail (`smtp://` or `smtps://`): password resets, email verification and changes, notifications.',
  },
  MAIL_FROM: {
    group: 'Accounts and sign-in',
    meaning: "The mails' sender.",
    defaultInWords: 'Reelsmith <no-reply@(host of `PUBLIC_URL`)>',
  },
  UNVERIFIED_ACCOUNTS_CAN_SPEND: {
    group: 'Accounts and sign-in',
    meaning: 'Without `SMTP_URL`: whether accounts whose email was never verified may make videos.',
  },
  REGISTRATION_OPEN: {
    group: 'Accounts and sign-in',
    meaning:
      "Whether anyone may open an account, by password or a first external sign-in; `false` keeps the server to its accounts (the first, the administrator's, can always be made).",
  },
  SIGNUP_CREDITS: {
    group: 'Accounts and sign-in',
    meaning: 'Credits every new account receives (two decimals at most; 0 turns it off).',
  },
  METRICS_TOKEN: {
    group: 'Operations and retention',
    meaning: 'Bearer token of `GET /metrics` (16 printable characters or more); unset: /metrics is a 404.',
  },
  REFUND_FAILED_GENERATIONS: {
    group: 'Operations and retention',
    meaning: "Give back what paid for a job that failed for a reason that is not the user's.",
  },
  C2PA_CERTIFICATE_FILE: {
    group: 'Content Credentials',
    meaning:
      'Your signing certificate chain (PEM, the end entity first), with `C2PA_PRIVATE_KEY_FILE`; unset: the installation signs with its own pair, which verifiers show as an unknown signer.',
  },
  C2PA_PRIVATE_KEY_FILE: {
    group: 'Content Credentials',
    meaning: "The private key of the chain's first certificate (PEM, EC P-256 or Ed25519).",
  },
  C2PA_INCLUDE_PROMPT: {
    group: 'Content Credentials',
    meaning: "Write each video's description into its Content Credentials (off: descriptions can be private).",
  },
  MODERATION_TERMS_FILE: {
    group: 'Screening',
    meaning:
      'A JSON file of term lists (`block`, `review`, `allow`; `context` for minors) replacing the built-in lists of the categories it names; matched after disguises are taken off (docs/operating.md, Screening).',
  },
  MODERATION_SEXUAL: {
    group: 'Screening',
    meaning:
      'What a description with sexual content gets: `block` (refused before any charge), `review` (held for an administrator) or `allow`. Sexual content involving minors is always refused.',
  },
  MODERATION_VIOLENCE: {
    group: 'Screening',
    meaning: 'What a description with graphic violence gets: `block`, `review` or `allow`.',
  },
  MODERATION_IMAGE_BLOCK_SCORE: {
    group: 'Screening',
    meaning:
      "The local image classifier's score (0 to 1) of explicit content at which an uploaded picture is refused and a finished video is not delivered (its sampled frames).",
  },
  MODERATION_IMAGE_REVIEW_SCORE: {
    group: 'Screening',
    meaning:
      'The score (0 to 1) at which a picture or a finished video is flagged for review instead (its job is held for an administrator).',
  },
  MODERATION_API_URL: {
    group: 'Screening',
    meaning:
      "A moderation service that answers as OpenAI's Moderations API (`POST {url}/moderations`), e.g. `https://api.openai.com/v1`: every description is also sent there (5 s limit; if it cannot answer, the local lists decide alone). Unset: the local lists only.",
  },
  MODERATION_API_KEY: { group: 'Screening', meaning: "The moderation service's key (sent as a bearer token)." },
  MODERATION_API_MODEL: {
    group: 'Screening',
    meaning: 'The moderation model to ask for.',
    defaultInWords: '`omni-moderation-latest`',
  },
  MODERATION_API_BLOCK_SCORE: {
    group: 'Screening',
    meaning:
      "The service's score (0 to 1) at which a description is refused (sexual content and violence as `MODERATION_SEXUAL` and `MODERATION_VIOLENCE` say; sexual content involving minors always).",
  },
  MODERATION_API_REVIEW_SCORE: {
    group: 'Screening',
    meaning: "The service's score at which a description is flagged for review instead.",
  },
  REFUND_BLOCKED_GENERATIONS: {
    group: 'Screening',
    meaning:
      'Whether a video the content policy stops after it was rendered gives its charge back (`true`: the user never sees it, so they are not charged).',
  },
  SAFETY_REPORTS_PER_HOUR: {
    group: 'Screening',
    meaning: 'Reports of videos one address, and one account, may send per hour (`/report`, `POST /api/reports`).',
  },
  SAFETY_STRIKES_TO_SUSPEND: {
    group: 'Screening',
    meaning:
      "Warnings (from the safety queue) that suspend an owner's account: it can no longer sign in or make videos. `0`: warnings never suspend.",
  },
  SAFETY_MATCH_ACTION: {
    group: 'Screening',
    meaning:
      'What an upload or a finished video whose frames match a taken-down video (by perceptual hash) gets: `block` (refused) or `review` (held for an administrator).',
  },
  SAFETY_RECORDS_DAYS: {
    group: 'Screening',
    meaning:
      "Days a decided report (its reason, words, contact, decision and the removed video's description) is kept for the audit before it is deleted.",
  },
  VISIBLE_AI_LABEL: {
    group: 'Content Credentials',
    meaning:
      'Draw a small "AI" mark in the top right corner of every video a provider\'s model makes (the video is re-encoded once before it is signed); the local preview engine\'s videos are not AI and get none.',
  },
  DAILY_SPEND_CAP_CREDITS: {
    group: 'Operations and retention',
    meaning: 'The most credits a user may spend on generations per UTC day; 0: no cap.',
  },
  VIDEO_RETENTION_HOURS: {
    group: 'Operations and retention',
    meaning: 'Hours a finished video (and an upload) is kept before its files are deleted, 1 to 8760.',
  },
  KEEP_VIDEOS_FOR: {
    group: 'Operations and retention',
    meaning:
      'Who may keep a video past that: `everyone`, `admins`, `subscribers`, `active`, `trial`, `premium_unlimited`, comma-separated.',
  },
  REGISTRATION_CHALLENGE: {
    group: 'Accounts and sign-in',
    meaning: '`altcha`: every password registration first solves a small proof of work; `off`: none.',
  },
  REGISTRATION_CHALLENGE_COST: {
    group: 'Accounts and sign-in',
    meaning: 'The most candidates the browser may hash for the challenge (half on average), 1000 to 10000000.',
  },
  VAPID_PUBLIC_KEY: {
    group: 'Notifications and webhooks',
    meaning: 'The VAPID public key that signs Web Push requests (with the private key: both or neither).',
    defaultInWords: 'one pair for the installation, made on first start and kept in the database',
  },
  VAPID_PRIVATE_KEY: {
    group: 'Notifications and webhooks',
    meaning: 'The VAPID private key; when set, give every process (web and workers) the same pair.',
    defaultInWords: 'one pair for the installation, made on first start and kept in the database',
  },
  VAPID_SUBJECT: {
    group: 'Notifications and webhooks',
    meaning: 'Who push services may contact about this server: a mailto: or https: URL.',
    defaultInWords:
      '`OPERATOR_CONTACT` (an email as mailto:, or https), else `PUBLIC_URL` when https, else mailto:no-reply@ its host',
  },
  PUSH_ALLOWED_HOSTS: {
    group: 'Notifications and webhooks',
    meaning: "Push services besides the browsers' own, as comma-separated host:port (http allowed for these).",
  },
  WEBHOOK_ALLOWED_PRIVATE_HOSTS: {
    group: 'Notifications and webhooks',
    meaning: 'Intranet webhook receivers that may be private addresses and use http, as comma-separated host:port.',
  },
};
