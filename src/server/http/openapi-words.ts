import { CONTENT_POLICY_CODE, promptRefusal } from '../../shared/moderation';
import { MAX_UNFINISHED_JOBS } from '../../shared/generations';

/**
 * What the API reference (GET /api/openapi.json, /api/docs) says about the routes, beyond their zod
 * schemas. Each route's own words sit beside it, in its config: `doc: apiDoc('Videos', { summary,
 * ... })` with its summary, its own error answers and, for the routes programs use most, hand-written
 * examples; a browser page under /api says why it is left out (`doc: hiddenRoute('...')`). Here are
 * the types, the document's sections and what several routes files share. openapi.ts joins the words
 * to the schemas and adds the answers every route of a kind has (400 for bad input, 401 and 403 by
 * sign-in, 429 when limited, 500). A /api route without `doc` fails src/server/http/openapi.test.ts.
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

/** A response header a client may read (OpenAPI's Header Object). */
export interface HeaderDoc {
  description: string;
  /** Sent on every answer of its status (the contract test checks it is there). */
  required?: boolean;
  schema?: Record<string, unknown>;
}

export interface RouteDoc {
  summary: string;
  description?: string;
  /**
   * The operation's name for generated clients (`createVideo`), camelCase and unique. Routes a token
   * can call name theirs; any other gets one made from its method and path (openapi.ts: operationIdOf).
   */
  operationId?: string;
  /** Needs no session and no token (sign-up, sign-in, signed links, provider callbacks). */
  public?: boolean;
  /** Accepts `Idempotency-Key` (a retry answers the first request's result). */
  idempotent?: boolean;
  /**
   * Sends an `ETag`, and answers 304 with no body to a request whose `If-None-Match` names it
   * (http/etag.ts: answerNotModified).
   */
  etag?: boolean;
  /** Answers a stored file as http/serve-object.ts sends it: Range requests (206, 416), or S3's redirect (302). */
  servesFile?: boolean;
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
  /** Headers this route alone sends (a session cookie, a cursor), by status. */
  headers?: Record<number, Record<string, HeaderDoc>>;
}

/** The document's sections, in order, with their descriptions. */
export const API_TAGS = {
  Videos: 'Make, list, extend and delete videos. Every request that makes a video spends credits.',
  Storyboards:
    'Boards of shots: each shot rendered as a video (its takes, charged as any video), the board exported into one film (free).',
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

// Answers, bodies and examples that more than one routes file shows; what one file alone uses sits in it.

export const NOT_FOUND_VIDEO: ErrorAnswer = {
  status: 404,
  code: 'generation_not_found',
  message: 'This video was not found. It may have been deleted already.',
};

/** A description the content policy refuses (issue 43): the rule it breaks, before any charge. */
/** A new account that must verify its email before it makes videos (where mail is off and UNVERIFIED_ACCOUNTS_CAN_SPEND is false). */
export const EMAIL_UNVERIFIED: ErrorAnswer = {
  status: 403,
  code: 'email_unverified',
  message: 'Please verify your email address before making videos. Ask the administrator of this server for help.',
};

/** A new job while the user has MAX_UNFINISHED_JOBS unfinished ones. */
export const TOO_MANY_UNFINISHED: ErrorAnswer = {
  status: 429,
  code: 'too_many_unfinished_jobs',
  message: `You already have ${MAX_UNFINISHED_JOBS} videos in progress. Wait for one to finish, then try again.`,
};

export const CONTENT_POLICY: ErrorAnswer = {
  status: 422,
  code: CONTENT_POLICY_CODE,
  message: promptRefusal('violence'),
};

export const FILE_GONE: ErrorAnswer = { status: 404, code: 'file_gone', message: 'This file is no longer available.' };
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
export const NOT_ADMIN: ErrorAnswer = {
  status: 403,
  code: 'not_admin',
  message: 'You do not have administrator privileges to access this page',
};
export const USER_NOT_FOUND: ErrorAnswer = { status: 404, code: 'user_not_found', message: 'User not found' };

export const BINARY = { type: 'string', format: 'binary' };
export const FILE_BODY: Record<string, MediaDoc> = {
  'application/octet-stream': { schema: BINARY },
  'image/png': { schema: BINARY },
  'image/jpeg': { schema: BINARY },
  'video/mp4': { schema: BINARY },
  'audio/mpeg': { schema: BINARY },
};
/** The session cookie a sign-in sets (HttpOnly: the browser sends it back; a program keeps it). */
export const SETS_SESSION: Record<string, HeaderDoc> = {
  'Set-Cookie': {
    description:
      'The session cookie: `rs_session=...; Path=/; Expires=...; HttpOnly; SameSite=Lax` (and `Secure` over https).',
    required: true,
    schema: { type: 'string' },
  },
};
/** The session cookie cleared (sign-out, a deleted account). */
export const CLEARS_SESSION: Record<string, HeaderDoc> = {
  'Set-Cookie': {
    description: 'Clears the session cookie: `rs_session=` with an `Expires` in the past.',
    required: true,
    schema: { type: 'string' },
  },
};

export const VIDEO_ID = '6f1c0b7e-3a52-4d8e-9c1a-2b7f5d9e4a10';
export const UPLOAD_PATH = '/objects/uploads/0d9a4c1e-5b7f-4e2a-8c3d-1f6b9e2a7c54/c2e8f1a4-7d3b-4b6e-9a5c-8e1f2d4b6a90';
export const UPLOADED = { objectPath: UPLOAD_PATH, kind: 'image', contentType: 'image/png', size: 182_044 };

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
  watchPath: null,
  createdAt: '2026-11-25T10:00:00.000Z',
  expiresAt: null,
  progress: 0,
  progressStage: null,
  errorMessage: null,
  queuePosition: 1,
};
