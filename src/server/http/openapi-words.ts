import { CONTENT_POLICY_CODE, promptRefusal } from '../../shared/moderation';
import {
  ACCOUNT_DELETED_MESSAGE,
  DELETE_CONFIRMATION_MESSAGE,
  EMAIL_CHANGE_UNAVAILABLE_MESSAGE,
  NO_PASSWORD_MESSAGE,
  PASSWORD_CHANGED_MESSAGE,
  WRONG_PASSWORD_MESSAGE,
} from '../../shared/accounts';
import { PAYMENTS_DISABLED, paymentsDisabledMessage } from '../../shared/money/payments';
import {
  REPORT_CONTACT_REQUIRED_MESSAGE,
  REPORT_RECEIVED_MESSAGE,
  REPORT_STATEMENT_REQUIRED_CODE,
  REPORT_STATEMENT_REQUIRED_MESSAGE,
  REPORTED_VIDEO_NOT_FOUND_MESSAGE,
} from '../../shared/safety';

/**
 * The API reference's words for every /api route (GET /api/openapi.json, /api/docs): its summary,
 * its own error answers and, for the routes programs use most, hand-written examples. The
 * document's shapes come from the routes' zod schemas; openapi.ts joins the two and adds the
 * answers every route of a kind has (400 for bad input, 401 and 403 by sign-in, 429 when limited,
 * 500). A route's words are in its own config (`doc: apiDoc(...)`, the Videos routes so far) or in
 * ROUTE_DOCS below; a route added with neither, nor in HIDDEN_ROUTES, fails src/server/http/openapi.test.ts.
 * ROUTE_DOCS's keys are `METHOD /path` as Fastify registers them (`:id` parameters).
 */

export interface ErrorAnswer {
  status: number;
  code: string;
  message: string;
}

export interface MediaDoc {
  schema: Record<string, unknown>;
  example?: unknown;
}

export interface RouteDoc {
  summary: string;
  description?: string;
  /** Needs no session and no token (sign-up, sign-in, signed links, provider callbacks). */
  public?: boolean;
  /** Accepts `Idempotency-Key` (a retry answers the first request's result). */
  idempotent?: boolean;
  /** This route's own error answers, beyond the common ones. */
  errors?: ErrorAnswer[];
  /** The success answer's example; without one the document shows one built from its schema. */
  example?: unknown;
  /** The JSON body's example; without one, built from its schema. */
  requestExample?: unknown;
  /** A request body that is not JSON (uploads), by content type. */
  requestContent?: Record<string, MediaDoc>;
  /** Answers that are not JSON (files, streams, redirects), by status. */
  responses?: Record<number, { description: string; content?: Record<string, MediaDoc> }>;
}

/** The document's sections, in order, with their descriptions. */
export const API_TAGS = {
  Videos: 'Make, list, extend and delete videos. Every request that makes a video spends credits.',
  Uploads: 'Images, videos and sounds a generation starts from: one request, or the signed two-step flow.',
  Media: 'Signed links to finished videos, posters and inputs.',
  Account: 'The signed-in user, their balance and generation allowance.',
  'Access tokens': 'Personal access tokens (`rs_...`), managed from a browser session only.',
  Webhooks: 'Signed event deliveries (Standard Webhooks) to your own endpoints, managed from a browser session only.',
  Prompts: 'Prompt help: a better prompt from a text or an image.',
  'Sign-in': 'Registration, sign-in and sign-out for the website (cookie session).',
  Credits: 'Estimates and credit purchases.',
  Payments: 'Subscriptions, extra generations and receipts (browser session only).',
  Notifications: 'Email and push notification settings.',
  'Live events': 'The Server-Sent Events stream the website listens to.',
  Admin: 'Operator routes: administrators only, browser session only.',
  'Provider callbacks': 'Calls from payment and video providers, checked by their signatures.',
  Diagnostics: 'Error reports from the website.',
  Provenance: 'Content Credentials (C2PA): what made a video, signed, checked by anyone.',
  Safety:
    "Reports of videos (anyone, or a token with `reports:write`), shared watch pages, takedowns and appeals, and the administrators' safety queue.",
} as const;

export type ApiTag = keyof typeof API_TAGS;

/** A documented route's words, with the section of the document it is listed under. */
export type ApiRouteDoc = RouteDoc & { tag: ApiTag };

/** A route under /api left out of the document on purpose (a page or redirect for browsers), and why. */
export interface HiddenRoute {
  hidden: true;
  reason: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's words in the API reference (openapi.ts joins them to the route's zod schemas), or
     * why it is left out. A /api route without either fails src/server/http/openapi.test.ts.
     */
    doc?: ApiRouteDoc | HiddenRoute;
  }
}

/** A route's words under its section of the document: `config: { doc: apiDoc('Videos', { summary }) }`. */
export function apiDoc(tag: ApiTag, words: RouteDoc): ApiRouteDoc {
  return { ...words, tag };
}

/** Leaves a browser page or redirect under /api out of the document, saying why. */
export function hiddenRoute(reason: string): HiddenRoute {
  return { hidden: true, reason };
}

export const NOT_FOUND_VIDEO: ErrorAnswer = {
  status: 404,
  code: 'generation_not_found',
  message: 'This video was not found. It may have been deleted already.',
};
/** Approve or Reject on a job that is not (or no longer) held for review. */
const JOB_NOT_HELD: ErrorAnswer = {
  status: 409,
  code: 'job_not_held',
  message: 'This job is not held for review (it was decided already, or never held).',
};

const REPORT_NOT_FOUND: ErrorAnswer = { status: 404, code: 'report_not_found', message: 'This report was not found.' };
const REPORT_DECIDED: ErrorAnswer = {
  status: 409,
  code: 'report_decided',
  message: 'This report was decided already.',
};

/** A description the content policy refuses (issue 43): the rule it breaks, before any charge. */
export const CONTENT_POLICY: ErrorAnswer = {
  status: 422,
  code: CONTENT_POLICY_CODE,
  message: promptRefusal('violence'),
};

const FILE_GONE: ErrorAnswer = { status: 404, code: 'file_gone', message: 'This file is no longer available.' };
const UPLOAD_REFUSED: ErrorAnswer[] = [
  { status: 400, code: 'empty_file', message: 'The file is empty.' },
  {
    status: 408,
    code: 'upload_too_slow',
    message: 'The upload was too slow, so it was stopped. Check your connection, then try again.',
  },
  { status: 413, code: 'file_too_large', message: 'This file is larger than the 50 MB limit.' },
  {
    status: 415,
    code: 'unsupported_file_type',
    message: 'Only images, videos and audio files can be uploaded.',
  },
  { status: 422, code: 'media_unplayable', message: 'This video file has no picture that can be played.' },
];
const SIGNED_LINK_REFUSED: ErrorAnswer[] = [
  { status: 403, code: 'upload_link_expired', message: 'This upload link has expired.' },
  { status: 403, code: 'upload_link_used', message: 'This upload link has already been used.' },
];
export const IDEMPOTENCY_ERRORS: ErrorAnswer[] = [
  {
    status: 409,
    code: 'idempotency_key_in_use',
    message: 'A request with this Idempotency-Key is still being processed. Try again once it has finished.',
  },
  {
    status: 422,
    code: 'idempotency_key_reused',
    message: 'This Idempotency-Key was already used with a different request. Use a new key for each new request.',
  },
];
const WEBHOOK_NOT_FOUND: ErrorAnswer = {
  status: 404,
  code: 'webhook_not_found',
  message: 'Webhook endpoint not found',
};
const NOT_ADMIN: ErrorAnswer = {
  status: 403,
  code: 'not_admin',
  message: 'You do not have administrator privileges to access this page',
};
const USER_NOT_FOUND: ErrorAnswer = { status: 404, code: 'user_not_found', message: 'User not found' };
const JOB_NOT_FOUND: ErrorAnswer = {
  status: 404,
  code: 'job_not_found',
  message: 'This job was not found. Its owner may have deleted it.',
};
const PAYMENTS_OFF: ErrorAnswer = { status: 503, code: PAYMENTS_DISABLED, message: paymentsDisabledMessage(undefined) };
const AI_DOWN: ErrorAnswer = {
  status: 502,
  code: 'ai_unavailable',
  message: 'The AI service could not be reached. Please try again.',
};

const BINARY = { type: 'string', format: 'binary' };
const FILE_BODY: Record<string, MediaDoc> = {
  'application/octet-stream': { schema: BINARY },
  'image/png': { schema: BINARY },
  'image/jpeg': { schema: BINARY },
  'video/mp4': { schema: BINARY },
  'audio/mpeg': { schema: BINARY },
};
const FORM_BODY: Record<string, MediaDoc> = {
  'multipart/form-data': {
    schema: {
      type: 'object',
      properties: { file: { ...BINARY, description: 'The file (the form’s only file part).' } },
      required: ['file'],
    },
  },
};
const FILE_ANSWER = {
  200: {
    description: 'The file (Range requests answer 206).',
    content: { 'application/octet-stream': { schema: BINARY } },
  },
};

export const VIDEO_ID = '6f1c0b7e-3a52-4d8e-9c1a-2b7f5d9e4a10';
export const UPLOAD_PATH = '/objects/uploads/0d9a4c1e-5b7f-4e2a-8c3d-1f6b9e2a7c54/c2e8f1a4-7d3b-4b6e-9a5c-8e1f2d4b6a90';
export const UPLOADED = { objectPath: UPLOAD_PATH, kind: 'image', contentType: 'image/png', size: 182_044 };
/** One day's figures for one model, as GET /api/admin/costs answers them. */
const COST_FIGURES = {
  videos: 3,
  completed: 2,
  paidWithCredits: 3,
  paidWithDaily: 0,
  paidWithPack: 0,
  free: 0,
  creditsCharged: 12,
  revenueUsd: 12,
  providerCostUsd: 6.4,
  completedWithoutCost: 0,
  marginUsd: 5.6,
};

export const VIDEO_RECORD = {
  id: VIDEO_ID,
  prompt: 'Slowly zoom in on the astronaut',
  status: 'pending',
  creditsUsed: 4,
  duration: 4,
  model: 'veo3',
  hasAudio: false,
  outputVideoUrl: null,
  posterUrl: null,
  createdAt: '2026-11-25T10:00:00.000Z',
  expiresAt: null,
  progress: 0,
  progressStage: null,
  errorMessage: null,
  queuePosition: 1,
};

/** Routes that are not part of the API: pages and redirects for browsers. */
export const HIDDEN_ROUTES: Record<string, string> = {
  'GET /api/logout': 'the sign-out page (HTML) of the website',
  'POST /api/logout': 'the sign-out page’s form',
  'GET /api/auth/verify-email': 'the page (HTML) a verification email links to',
  'POST /api/auth/verify-email/form': 'that page’s form',
  'GET /api/login': 'a browser redirect to the OpenID Connect provider',
  'GET /api/callback': 'the OpenID Connect provider’s redirect back',
  'GET /api/auth/google': 'a browser redirect to Google',
  'GET /api/auth/google/callback': 'Google’s redirect back',
};

export const ROUTE_DOCS: Partial<Record<ApiTag, Record<string, RouteDoc>>> = {
  Uploads: {
    'PUT /api/uploads': {
      summary: 'Upload a file in one request',
      description:
        'The file is the request body (JPEG, PNG, WebP, MP4, WebM, MP3 or WAV, at most 50 MB). The answer’s `objectPath` is what a generation takes as `imageFile`, `videoFile` or `audioFile`.',
      requestContent: FILE_BODY,
      example: UPLOADED,
      errors: UPLOAD_REFUSED,
    },
    'POST /api/uploads': {
      summary: 'Upload a file as a form',
      description: 'As PUT /api/uploads, with the file as the part of a multipart/form-data body.',
      requestContent: FORM_BODY,
      example: UPLOADED,
      errors: [{ status: 400, code: 'missing_file', message: 'The form has no file.' }, ...UPLOAD_REFUSED],
    },
    'POST /api/objects/upload': {
      summary: 'Get a signed upload link',
      description:
        'Step one of the two-step flow: send the file to `uploadURL` with `method`, `fields` and `headers` (no token needed there). Accepts `Idempotency-Key`.',
      idempotent: true,
      example: {
        uploadURL: `/api/uploads/c2e8f1a4-7d3b-4b6e-9a5c-8e1f2d4b6a90?exp=1764072000&sig=…`,
        objectPath: UPLOAD_PATH,
        method: 'PUT',
        fields: {},
        headers: {},
      },
      errors: [
        ...IDEMPOTENCY_ERRORS,
        {
          status: 429,
          code: 'too_many_pending_uploads',
          message:
            'You have 20 uploads waiting for their files. Send or cancel some, or wait a few minutes, then try again.',
        },
      ],
    },
    'PUT /api/uploads/:id': {
      summary: 'Send a file to a signed upload link',
      description: 'Step two: the signed link is its own permission (`exp` and `sig` in its query).',
      public: true,
      requestContent: FILE_BODY,
      example: UPLOADED,
      errors: [...SIGNED_LINK_REFUSED, ...UPLOAD_REFUSED],
    },
    'POST /api/uploads/:id': {
      summary: 'Send a file to a signed upload link as a form',
      public: true,
      requestContent: FORM_BODY,
      example: UPLOADED,
      errors: [...SIGNED_LINK_REFUSED, ...UPLOAD_REFUSED],
    },
    'GET /api/objects/uploads/:userId/:id': {
      summary: 'Download one of your uploads',
      responses: FILE_ANSWER,
      errors: [FILE_GONE],
    },
    'POST /api/files/cleanup': {
      summary: 'Delete your expired unfinished uploads',
      example: { deleted: 2 },
    },
  },
  Media: {
    'GET /api/media/:id': {
      summary: 'Download a video, poster or input by its signed link',
      description:
        'The links in `outputVideoUrl` and `posterUrl`. The signature (`exp`, `sig`) is the permission: a shared link works until it expires, with or without a token.',
      public: true,
      responses: FILE_ANSWER,
      errors: [
        { status: 403, code: 'media_link_invalid', message: 'This link is not valid.' },
        { status: 404, code: 'media_expired', message: 'This video has expired and was deleted.' },
      ],
    },
  },
  Account: {
    'GET /api/auth/user': {
      summary: 'Who is signed in',
    },
    'GET /api/user/status': { summary: 'Your plan, subscription and credits' },
    'GET /api/user/balance': {
      summary: 'Your balance',
      description:
        'Credits, plan, subscription and daily and extra generations: the same answer as the live `balance` event.',
    },
    'GET /api/user/generation-status': { summary: 'Your generation allowance today' },
    'GET /api/credits/balance': { summary: 'Your credits' },
    'GET /api/account/sign-ins': { summary: 'List the ways you sign in (password, linked providers)' },
    'GET /api/account/security-events': {
      summary: 'What ended ways into your account, and when',
      description:
        'The latest events that ended sessions, access tokens, webhook endpoints, linked sign-ins or emailed links: a verified sign-in taking the account over, a password reset or change, proving the email, an email change.',
    },
    'DELETE /api/account/identities/:id': {
      summary: 'Remove a linked sign-in',
      example: { message: 'The sign-in was removed from your account.' },
      errors: [{ status: 404, code: 'identity_not_found', message: 'This sign-in is not linked to your account.' }],
    },
    'PUT /api/account/tours/:tour': {
      summary: 'Mark an onboarding tour as done',
      description:
        'A finished or skipped tour (`first-time` or `generator`) is remembered for the account, so it does not start by itself again on any device. Answers the tours done so far; marking one twice changes nothing.',
      example: { completedTours: ['first-time'] },
    },
    'PATCH /api/account': {
      summary: 'Change your name',
      requestExample: { firstName: 'Ada', lastName: 'Lovelace' },
    },
    'GET /api/account/email': { summary: 'The email change waiting for its link to be followed, if any' },
    'POST /api/account/email': {
      summary: 'Change your email',
      description:
        'The new address is kept as pending and mailed a link (it works once, for 24 hours); the account keeps its email until the link is followed. Accounts with a password send `currentPassword`.',
      requestExample: { email: 'ada@example.org', currentPassword: 'correct horse battery staple' },
      errors: [
        { status: 403, code: 'wrong_password', message: WRONG_PASSWORD_MESSAGE },
        { status: 404, code: 'email_change_unavailable', message: EMAIL_CHANGE_UNAVAILABLE_MESSAGE },
        { status: 409, code: 'email_taken', message: 'An account with this email already exists' },
      ],
    },
    'DELETE /api/account/email': { summary: 'Cancel the pending email change' },
    'POST /api/account/password': {
      summary: 'Change your password',
      description: 'Every other session of the account ends; this one is kept.',
      requestExample: { currentPassword: 'correct horse battery staple', newPassword: 'a new long passphrase' },
      example: { message: PASSWORD_CHANGED_MESSAGE },
      errors: [
        { status: 403, code: 'wrong_password', message: WRONG_PASSWORD_MESSAGE },
        { status: 409, code: 'no_password', message: NO_PASSWORD_MESSAGE },
      ],
    },
    'DELETE /api/account': {
      summary: 'Delete your account and all its data',
      description:
        'Confirmed with `password`, or with `email` typed out for an account that has no password. Deletes every row and file of the account, as an administrator deletion does, and ends the session.',
      requestExample: { password: 'correct horse battery staple' },
      example: { message: ACCOUNT_DELETED_MESSAGE },
      errors: [
        { status: 403, code: 'wrong_password', message: WRONG_PASSWORD_MESSAGE },
        { status: 400, code: 'confirmation_mismatch', message: DELETE_CONFIRMATION_MESSAGE },
        {
          status: 409,
          code: 'last_admin',
          message: 'This is the last administrator: make another user an administrator first.',
        },
      ],
    },
  },
  'Access tokens': {
    'POST /api/account/tokens': {
      summary: 'Create a personal access token',
      description: 'The answer is the only time the token is shown. Session only: a token cannot create tokens.',
      requestExample: {
        name: 'render script',
        scopes: ['uploads:write', 'videos:write', 'videos:read'],
        expiresAt: null,
      },
      example: {
        id: 'a4e1c9d2-6b3f-4f8a-9e2d-7c5b1a3f8e60',
        token: 'rs_2Nf8kQ…',
        name: 'render script',
        scopes: ['uploads:write', 'videos:write', 'videos:read'],
        expiresAt: null,
        createdAt: '2026-11-25T10:00:00.000Z',
      },
      errors: [{ status: 400, code: 'invalid_expiry', message: 'The expiry date must be in the future.' }],
    },
    'GET /api/account/tokens': { summary: 'List your access tokens (never their secrets)' },
    'DELETE /api/account/tokens/:id': {
      summary: 'Revoke an access token',
      example: { message: 'The access token was revoked.' },
      errors: [
        {
          status: 404,
          code: 'token_not_found',
          message: 'This access token was not found. It may have been revoked already.',
        },
      ],
    },
  },
  Webhooks: {
    'POST /api/account/webhooks': {
      summary: 'Add a webhook endpoint',
      description:
        'Events (`video.completed`, `video.failed`, `video.progress`, `credits.low`) are POSTed to the URL, signed per Standard Webhooks with the `whsec_...` secret this answer shows once.',
      requestExample: { url: 'https://example.com/hooks/reelsmith', events: ['video.completed', 'video.failed'] },
      errors: [
        {
          status: 422,
          code: 'webhook_url_refused',
          message: 'The webhook URL must start with https://.',
        },
      ],
    },
    'GET /api/account/webhooks': { summary: 'List your webhook endpoints' },
    'DELETE /api/account/webhooks/:id': {
      summary: 'Delete a webhook endpoint',
      example: { message: 'The webhook endpoint was deleted.' },
      errors: [WEBHOOK_NOT_FOUND],
    },
    'POST /api/account/webhooks/:id/test': {
      summary: 'Send a test event to an endpoint',
      errors: [WEBHOOK_NOT_FOUND],
    },
    'GET /api/account/webhooks/:id/deliveries': {
      summary: 'An endpoint’s delivery log',
      errors: [WEBHOOK_NOT_FOUND],
    },
    'POST /api/account/webhooks/:id/deliveries/:deliveryId/redeliver': {
      summary: 'Send a delivery again',
      errors: [WEBHOOK_NOT_FOUND, { status: 404, code: 'webhook_delivery_not_found', message: 'Delivery not found' }],
    },
  },
  Prompts: {
    'POST /api/prompts/enhance-text': {
      summary: 'Improve a prompt',
      requestExample: { userPrompt: 'an astronaut on the moon' },
      errors: [CONTENT_POLICY, AI_DOWN],
    },
    'POST /api/prompts/analyze-image': {
      summary: 'Describe an uploaded image as a prompt',
      errors: [FILE_GONE, AI_DOWN],
    },
  },
  'Sign-in': {
    'POST /api/auth/register': {
      summary: 'Create an account',
      public: true,
      requestExample: {
        email: 'ada@example.com',
        password: 'correct horse battery staple',
        firstName: 'Ada',
        lastName: 'Lovelace',
      },
      errors: [{ status: 409, code: 'email_taken', message: 'An account with this email already exists' }],
    },
    'POST /api/auth/login': {
      summary: 'Sign in',
      public: true,
      requestExample: { email: 'ada@example.com', password: 'correct horse battery staple' },
      errors: [{ status: 401, code: 'invalid_credentials', message: 'Invalid email or password' }],
    },
    'POST /api/auth/logout': { summary: 'Sign out', public: true, example: { message: 'You have been signed out.' } },
    'POST /api/auth/logout-all': {
      summary: 'Sign out on every device',
      example: { message: 'You have been signed out on every device (2 sessions ended).' },
    },
    'GET /api/auth/providers': { summary: 'The sign-in options this server offers', public: true },
    'GET /api/auth/challenge': {
      summary: 'A registration proof-of-work challenge',
      public: true,
      errors: [{ status: 404, code: 'challenge_off', message: 'Registration asks for no challenge on this server.' }],
    },
    'POST /api/auth/password-reset': {
      summary: 'Ask for a password reset email',
      public: true,
      errors: [
        {
          status: 404,
          code: 'password_reset_unavailable',
          message: 'Password reset by email is not available on this server. Please ask the administrator.',
        },
      ],
    },
    'POST /api/auth/password-reset/confirm': {
      summary: 'Set a new password with a reset link’s token',
      public: true,
      errors: [
        {
          status: 400,
          code: 'reset_link_invalid',
          message: 'This reset link has expired or has already been used. Please ask for a new one.',
        },
      ],
    },
    'POST /api/auth/verify-email': {
      summary: 'Confirm an email address with its link’s token',
      public: true,
      errors: [
        {
          status: 400,
          code: 'verification_link_invalid',
          message: 'This verification link has expired or has already been used. Sign in and ask for a new one.',
        },
      ],
    },
    'POST /api/auth/verify-email/resend': { summary: 'Send the verification email again' },
  },
  Credits: {
    'POST /api/credits/estimate': {
      summary: 'What a video would cost',
      requestExample: { model: 'veo3', duration: 4, hasAudio: false, isEconomy: true },
      errors: [{ status: 400, code: 'unknown_model', message: 'This server has no model called "veo9".' }],
    },
    'POST /api/credits/checkout': { summary: 'Start buying credits (Stripe Checkout)', errors: [PAYMENTS_OFF] },
    'POST /api/credits/checkout-success': { summary: 'Confirm a finished Checkout', errors: [PAYMENTS_OFF] },
    'POST /api/credits/payment-intent': { summary: 'Start buying credits (payment form)', errors: [PAYMENTS_OFF] },
    'POST /api/credits/fulfill': { summary: 'Confirm a credit payment', errors: [PAYMENTS_OFF] },
  },
  Payments: {
    'GET /api/payments/config': { summary: 'The payment options this server offers', public: true },
    'POST /api/payments/start-subscription': { summary: 'Start a subscription', errors: [PAYMENTS_OFF] },
    'POST /api/payments/extra-generations': { summary: 'Buy extra generations', errors: [PAYMENTS_OFF] },
    'POST /api/payments/confirm': { summary: 'Confirm a payment', errors: [PAYMENTS_OFF] },
    'GET /api/payments/subscription': { summary: 'Your subscription' },
    'POST /api/payments/cancel-subscription': { summary: 'Cancel your subscription', errors: [PAYMENTS_OFF] },
    'POST /api/payments/billing-portal': { summary: 'Open the billing portal', errors: [PAYMENTS_OFF] },
    'GET /api/payments/receipts': { summary: 'Your receipts' },
  },
  Notifications: {
    'GET /api/notifications': { summary: 'Your notification settings' },
    'PUT /api/notifications/email': { summary: 'Turn email notifications on or off' },
    'POST /api/notifications/push-subscriptions': { summary: 'Add a browser push subscription' },
    'DELETE /api/notifications/push-subscriptions': { summary: 'Remove a browser push subscription' },
    'POST /api/notifications/presence': {
      summary: 'Tell the server a tab is visible',
      responses: { 204: { description: 'Noted.' } },
    },
  },
  'Live events': {
    'GET /api/events': {
      summary: 'Live updates (Server-Sent Events)',
      description: 'The website’s stream of changes to your videos and balance. Programs should use webhooks instead.',
      responses: {
        200: {
          description: 'An endless `text/event-stream`; `Last-Event-ID` resumes it.',
          content: {
            'text/event-stream': {
              schema: { type: 'string' },
              example: 'retry: 3000\n\nid: 42\nevent: generation\ndata: {"id":"6f1c0b7e-…","status":"processing"}\n\n',
            },
          },
        },
      },
      errors: [
        {
          status: 429,
          code: 'too_many_streams',
          message: 'At most 5 tabs get live updates at once; this one refreshes by itself instead.',
        },
      ],
    },
  },
  Admin: {
    'GET /api/admin/users': { summary: 'List users', errors: [NOT_ADMIN] },
    'PATCH /api/admin/users/:id': {
      summary: 'Change a user (credits, plan, role)',
      errors: [NOT_ADMIN, USER_NOT_FOUND],
    },
    'DELETE /api/admin/users/:id': { summary: 'Delete a user', errors: [NOT_ADMIN, USER_NOT_FOUND] },
    'GET /api/admin/stats': { summary: 'User statistics', errors: [NOT_ADMIN] },
    'GET /api/admin/jobs': { summary: 'The job queue', errors: [NOT_ADMIN] },
    'GET /api/admin/costs': {
      summary: 'Videos, credits charged, provider cost and margin per day and model',
      description:
        'Per UTC day and model over the last `days` days (1 to 90, default 14). Provider cost comes from MODELS_CONFIG `providerCost` as it was when each video was made; revenue values a credit, a daily and a pack generation as `valuation` says, so the margin is a floor.',
      example: {
        days: 1,
        from: '2026-11-25',
        to: '2026-11-25',
        rows: [{ day: '2026-11-25', model: 'veo3', modelName: 'Veo 3', ...COST_FIGURES }],
        dayTotals: [{ day: '2026-11-25', ...COST_FIGURES }],
        totals: COST_FIGURES,
        valuation: { creditUsd: 1, dailyGenerationUsd: 0.133333, packGenerationUsd: 0.285714 },
        defaultDailySpendCap: 50,
      },
      errors: [NOT_ADMIN],
    },
    'GET /api/admin/settings': {
      summary: 'The installation settings: which providers are connected, and how',
      description:
        'Each provider with where its settings come from (`environment` wins over `saved`), the end of the key in use (never the key) and the models it brings now.',
      errors: [NOT_ADMIN],
    },
    'PUT /api/admin/settings/providers': {
      summary: "Connect a video provider: its key is tried with the provider's harmless call, then saved encrypted",
      description:
        'Takes effect in every web and worker process at once, with no restart. A key the provider refuses, or a provider that cannot be reached, saves nothing.',
      requestExample: { provider: 'fal', apiKey: 'fal-0123…' },
      errors: [
        NOT_ADMIN,
        {
          status: 409,
          code: 'set_by_environment',
          message: "fal.ai is set in this server's environment (FAL_KEY), which wins over this page. Change it there.",
        },
        {
          status: 422,
          code: 'provider_key_refused',
          message: 'fal.ai refused this: Invalid API key. Nothing was saved.',
        },
        {
          status: 502,
          code: 'provider_unreachable',
          message:
            'Could not check this with fal.ai (no answer within 10 seconds). Nothing was saved: try again in a moment.',
        },
      ],
    },
    'PUT /api/admin/settings/payments': {
      summary: "Turn card payments on with Stripe's keys: tried with a balance read, then saved encrypted",
      description:
        'The secret and publishable keys of one mode (test or live), and the webhook signing secret of the endpoint the answer names (`payments.webhookUrl`). Payments work at once in every process. STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY, where set, win.',
      requestExample: { secretKey: 'sk_live_…', publishableKey: 'pk_live_…', webhookSecret: 'whsec_…' },
      errors: [
        NOT_ADMIN,
        {
          status: 409,
          code: 'set_by_environment',
          message:
            "Stripe is set in this server's environment (STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY), which wins over this page. Change it there.",
        },
        {
          status: 422,
          code: 'provider_key_refused',
          message: 'Stripe refused this: Invalid API Key provided: sk_live_****1234. Nothing was saved.',
        },
        {
          status: 502,
          code: 'provider_unreachable',
          message:
            'Could not check this with Stripe (the connection failed). Nothing was saved: try again in a moment.',
        },
      ],
    },
    'DELETE /api/admin/settings/payments': {
      summary: "Forget Stripe's saved keys (payments are off again)",
      errors: [
        NOT_ADMIN,
        { status: 404, code: 'setting_not_found', message: 'No Stripe keys are saved.' },
        {
          status: 409,
          code: 'set_by_environment',
          message:
            "Stripe is set in this server's environment (STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY), which wins over this page. Change it there.",
        },
      ],
    },
    'PUT /api/admin/settings/mail': {
      summary:
        'Set up mail: the SMTP server is asked whether it takes the login (nothing is sent), then saved encrypted',
      description:
        'Password resets, email verification and notifications go through it at once, in every process. SMTP_URL, where set, wins.',
      requestExample: {
        smtpUrl: 'smtps://user:password@mail.example.com:465',
        from: 'Reelsmith <no-reply@example.com>',
      },
      errors: [
        NOT_ADMIN,
        {
          status: 409,
          code: 'set_by_environment',
          message: "Mail is set in this server's environment (SMTP_URL), which wins over this page. Change it there.",
        },
        {
          status: 422,
          code: 'provider_key_refused',
          message:
            'The mail server refused this: 535 Invalid login: username and password not accepted. Nothing was saved.',
        },
        {
          status: 502,
          code: 'provider_unreachable',
          message:
            'Could not reach the mail server (connect ECONNREFUSED 127.0.0.1:9). Nothing was saved: check the address and try again.',
        },
      ],
    },
    'DELETE /api/admin/settings/mail': {
      summary: 'Forget the saved mail server (mail stops, as without SMTP_URL)',
      errors: [
        NOT_ADMIN,
        { status: 404, code: 'setting_not_found', message: 'No mail server is saved.' },
        {
          status: 409,
          code: 'set_by_environment',
          message: "Mail is set in this server's environment (SMTP_URL), which wins over this page. Change it there.",
        },
      ],
    },
    'PUT /api/admin/settings/contact': {
      summary: 'Say who runs this server (an email or web address; null forgets it)',
      description:
        'Shown where people need someone to ask: sign-in without mail, buying credits without payments. OPERATOR_CONTACT, where set, wins.',
      requestExample: { contact: 'owner@example.com' },
      errors: [
        NOT_ADMIN,
        {
          status: 409,
          code: 'set_by_environment',
          message:
            "The contact is set in this server's environment (OPERATOR_CONTACT), which wins over this page. Change it there.",
        },
      ],
    },
    'PUT /api/admin/settings/rules': {
      summary:
        'Set the installation rules: how long videos are kept, who may keep one, the sign-up grant, whether new accounts are taken, the registration challenge',
      description:
        'Replaces the saved rules: a rule left out goes back to its default. Takes effect in every process at once; a video already made keeps its expiry. A rule whose environment variable is set cannot be sent.',
      requestExample: {
        videoHours: 72,
        keepFor: ['subscribers'],
        signupCreditsHundredths: 100,
        registrationOpen: true,
        registrationChallenge: true,
      },
      errors: [
        NOT_ADMIN,
        {
          status: 409,
          code: 'set_by_environment',
          message:
            "This server's environment sets VIDEO_RETENTION_HOURS, which wins over this page. Change it there, or leave it out.",
        },
      ],
    },
    'DELETE /api/admin/settings/providers/:provider': {
      summary: "Forget a provider's saved key (its models stop being offered)",
      errors: [
        NOT_ADMIN,
        { status: 404, code: 'setting_not_found', message: 'No fal.ai keys are saved.' },
        {
          status: 409,
          code: 'set_by_environment',
          message: "fal.ai is set in this server's environment (FAL_KEY), which wins over this page. Change it there.",
        },
      ],
    },
    'POST /api/admin/jobs/:id/cancel': {
      summary: 'Cancel a job',
      errors: [
        NOT_ADMIN,
        JOB_NOT_FOUND,
        { status: 409, code: 'job_finished', message: 'This job already completed: there is nothing to cancel.' },
        {
          status: 409,
          code: 'job_held',
          message: 'This video is finished and held for review: approve or reject it instead.',
        },
      ],
    },
    'POST /api/admin/jobs/:id/rerun': {
      summary: 'Run a failed job again, free (once per failed job)',
      errors: [
        NOT_ADMIN,
        JOB_NOT_FOUND,
        { status: 409, code: 'already_rerun', message: 'This job was re-run already: the re-run is job 8b0c….' },
      ],
    },
    'POST /api/admin/jobs/:id/refund': { summary: 'Refund a job', errors: [NOT_ADMIN, JOB_NOT_FOUND] },
    'POST /api/admin/jobs/:id/approve': {
      summary: 'Approve a job held for review',
      description:
        'Screening flagged its description or an input (approved, it goes into the queue) or its finished video (approved, it is shown to its owner, kept from now, and `video.completed` is sent).',
      errors: [NOT_ADMIN, JOB_NOT_FOUND, JOB_NOT_HELD],
    },
    'POST /api/admin/jobs/:id/reject': {
      summary: 'Reject a job held for review',
      description:
        'It fails as "Blocked by the content policy." and is never shown (a held finished video is deleted); its charge comes back as REFUND_BLOCKED_GENERATIONS says.',
      errors: [NOT_ADMIN, JOB_NOT_FOUND, JOB_NOT_HELD],
    },
  },
  'Provider callbacks': {
    'POST /api/stripe/webhook': {
      summary: 'Stripe’s payment events',
      public: true,
      requestContent: {
        'application/json': { schema: { type: 'object' }, example: { type: 'checkout.session.completed' } },
      },
      errors: [{ status: 400, code: 'bad_signature', message: 'The webhook signature is not valid.' }],
    },
    'POST /api/webhooks/replicate': {
      summary: 'Replicate’s prediction updates',
      public: true,
      requestContent: {
        'application/json': { schema: { type: 'object' }, example: { id: 'p_123', status: 'succeeded' } },
      },
      errors: [{ status: 401, code: 'invalid_signature', message: 'This webhook is not signed by Replicate.' }],
    },
  },
  Diagnostics: {
    'POST /api/errors/report': {
      summary: 'Report an error seen in the browser',
      public: true,
      example: { received: true },
    },
  },
  Provenance: {
    'POST /api/provenance/verify': {
      summary: 'Check the Content Credentials of a file',
      description:
        'The file is the request body (MP4 or MOV video, JPEG, PNG or WebP picture, at most 50 MB); it is read and never kept. The answer says whether it carries Content Credentials, whether they are intact, who signed them and when, with which model and from which ingredients. No sign-in needed.',
      public: true,
      requestContent: FILE_BODY,
      example: {
        hasCredentials: true,
        intact: true,
        trusted: true,
        signedBy: 'Reelsmith reelsmith.example',
        issuer: 'Reelsmith',
        signedAt: '2026-11-28T10:15:00.000Z',
        madeWith: 'Reelsmith 0.1.0',
        sourceType: 'trainedAlgorithmicMedia',
        model: 'Veo 3 (fal.ai)',
        installation: 'https://reelsmith.example',
        ingredients: [
          {
            title: 'image upload',
            relationship: 'inputTo',
            format: 'image/png',
            sha256: 'a8127e2308d2c0266f13009a5edf52089ef9ac795bce75719e7eed8ffdc14918',
            hasCredentials: false,
          },
        ],
        problems: [],
      },
      errors: [
        { status: 413, code: 'file_too_large', message: 'This file is larger than the 50 MB limit.' },
        {
          status: 415,
          code: 'unsupported_file_type',
          message: 'Content Credentials can be checked on MP4 and MOV videos and on JPEG, PNG and WebP pictures.',
        },
        {
          status: 422,
          code: 'unreadable_file',
          message: 'This file could not be read: it may be damaged or cut short.',
        },
      ],
    },
  },
  Safety: {
    'POST /api/reports': {
      summary: 'Report a video',
      description:
        'Anyone may report a video (no sign-in; a signed-in user or a token with `reports:write` is named as the reporter). `video` is a shared watch link, a video or poster file link, or a video id. The administrators decide within 48 hours (`dueAt`). A report about a person shown (`intimate_image`, `likeness`) needs `statement: true`, the takedown statement. SAFETY_REPORTS_PER_HOUR per address and per account.',
      public: true,
      requestExample: {
        video: 'https://reelsmith.example/watch/6f1c2a9e-0d4b-4c7a-9e2f-3b5d8a1c4e70.1764410400.q2H3',
        reason: 'likeness',
        description: 'This is my face; I never agreed to it.',
        contact: 'person@example.com',
        statement: true,
      },
      example: {
        id: '2d7f0c1e-8a4b-4f3e-9c6d-5b1a0e9f8c7d',
        dueAt: '2026-11-30T10:00:00.000Z',
        message: REPORT_RECEIVED_MESSAGE,
      },
      errors: [
        { status: 400, code: 'contact_required', message: REPORT_CONTACT_REQUIRED_MESSAGE },
        { status: 404, code: 'video_not_found', message: REPORTED_VIDEO_NOT_FOUND_MESSAGE },
        { status: 422, code: REPORT_STATEMENT_REQUIRED_CODE, message: REPORT_STATEMENT_REQUIRED_MESSAGE },
        {
          status: 429,
          code: 'too_many_reports',
          message:
            'You have sent 5 reports in the last hour, the most this server takes. Please try again in 20 minutes.',
        },
      ],
    },
    'GET /api/watch/:token': {
      summary: "A shared video's watch page",
      description: 'What the watch page of a shared link shows, while the video lives. No sign-in needed.',
      public: true,
      example: {
        id: '6f1c2a9e-0d4b-4c7a-9e2f-3b5d8a1c4e70',
        videoUrl: '/api/media/b3V0cHV0cy8?type=video%2Fmp4&exp=1764410400&sig=abc',
        posterUrl: '/api/media/b3V0cHV0cy9w?type=image%2Fjpeg&exp=1764410400&sig=def',
        duration: 5,
        createdAt: '2026-11-28T10:00:00.000Z',
        expiresAt: '2026-11-29T10:00:00.000Z',
        signedBy: 'Reelsmith reelsmith.example',
      },
      errors: [
        {
          status: 404,
          code: 'watch_not_found',
          message: 'This video is no longer here: it expired, or was removed.',
        },
      ],
    },
    'GET /api/safety/takedowns': {
      summary: 'Your videos that were taken down',
      description: "Each with its reason, the administrator's note and its appeal (one per takedown).",
      example: [
        {
          reportId: '2d7f0c1e-8a4b-4f3e-9c6d-5b1a0e9f8c7d',
          reason: 'violence',
          prompt: 'A sword fight in the rain',
          takenDownAt: '2026-11-28T12:00:00.000Z',
          note: 'Graphic violence.',
          appeal: null,
        },
      ],
      errors: [{ status: 401, code: 'unauthorized', message: 'Please sign in to continue' }],
    },
    'POST /api/safety/takedowns/:reportId/appeal': {
      summary: 'Appeal a takedown, once',
      requestExample: { message: 'It was a film scene with fake blood.' },
      example: {
        message: 'Your appeal was sent. An administrator will look at it within 48 hours and write to you.',
      },
      errors: [
        { status: 404, code: 'takedown_not_found', message: 'There is no takedown of your videos with this id.' },
        {
          status: 409,
          code: 'already_appealed',
          message: 'You have appealed this takedown already: an administrator will decide.',
        },
      ],
    },
    'GET /api/admin/safety': {
      summary: 'The safety queue',
      description:
        "Open reports, appeals and jobs screening held, the nearest 48-hour deadline first, with the owner's history, and the figures (open items, reports per reason, median time to decision).",
      errors: [NOT_ADMIN],
    },
    'POST /api/admin/safety/reports/:id/take-down': {
      summary: 'Take a reported video down',
      description:
        'Removes the video and everything made from it (extends, remixes; variations beside it stay), deletes their files (every link answers 404), remembers their frames by perceptual hash, closes every open report about them, and sends the owner `video.taken_down`. Audited.',
      requestExample: { note: 'Graphic violence.' },
      example: { message: 'Taken down: the video and 1 made from it were removed.' },
      errors: [NOT_ADMIN, REPORT_NOT_FOUND, REPORT_DECIDED],
    },
    'POST /api/admin/safety/reports/:id/dismiss': {
      summary: 'Dismiss a report or an appeal',
      requestExample: { note: '' },
      example: { message: 'Dismissed.' },
      errors: [NOT_ADMIN, REPORT_NOT_FOUND, REPORT_DECIDED],
    },
    'POST /api/admin/safety/reports/:id/grant': {
      summary: 'Grant an appeal',
      description: "The takedown's strike is taken back and the account can sign in again; removed files stay removed.",
      requestExample: { note: '' },
      example: { message: 'Granted: the strike was taken back and the account can sign in.' },
      errors: [NOT_ADMIN, REPORT_NOT_FOUND, REPORT_DECIDED],
    },
    'POST /api/admin/safety/users/:id/warn': {
      summary: "Warn a video's owner (a strike)",
      description: 'At SAFETY_STRIKES_TO_SUSPEND strikes the account is suspended too.',
      example: { message: 'Warned: strike 1.' },
      errors: [NOT_ADMIN, USER_NOT_FOUND],
    },
    'POST /api/admin/safety/users/:id/suspend': {
      summary: 'Suspend an account',
      description: 'Its sessions end; it cannot sign in, use its tokens or make videos.',
      example: { message: 'Suspended: the account is signed out everywhere.' },
      errors: [NOT_ADMIN, USER_NOT_FOUND],
    },
    'POST /api/admin/safety/users/:id/unsuspend': {
      summary: 'Let a suspended account in again',
      example: { message: 'The account can sign in again.' },
      errors: [NOT_ADMIN, USER_NOT_FOUND],
    },
  },
};

/** Every documented route's words with its tag, by `METHOD /path`. */
export function routeDoc(key: string): (RouteDoc & { tag: ApiTag }) | undefined {
  for (const [tag, routes] of Object.entries(ROUTE_DOCS) as [ApiTag, Record<string, RouteDoc>][]) {
    const doc = routes[key];
    if (doc) return { ...doc, tag };
  }
  return undefined;
}
