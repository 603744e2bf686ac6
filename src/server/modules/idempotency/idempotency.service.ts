import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../../context';
import { AppError, badRequest } from '../../lib/app-error';
import * as repo from './idempotency.repository';

/** How long a key's answer is kept and replayed (Stripe's 24 hours). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * A key whose request has run this long without an answer is taken as abandoned (its process died
 * mid-request) and may be used again. Creating a generation or an upload takes well under a second.
 */
const ABANDONED_AFTER_MS = 5 * 60 * 1000;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key this request owns until its answer is saved. */
    idempotency?: { userId: string; key: string; requestHash: string; settled: boolean };
  }
}

/** JSON with object keys sorted, so the same body always hashes alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value ?? null);
}

function requestHash(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.routeOptions.url ?? request.url}\n${canonical(request.body)}`)
    .digest('base64url');
}

const keyReused = () =>
  new AppError(
    422,
    'idempotency_key_reused',
    'This Idempotency-Key was already used with a different request. Use a new key for each new request.',
  );
const keyInUse = () =>
  new AppError(
    409,
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still being processed. Try again once it has finished.',
    { 'retry-after': '1' },
  );

/**
 * Answers that are not kept for a replay: a 400 (the parameters were refused before anything was
 * done, as Stripe keeps no result for a request that failed validation), and 408, 429 and 5xx,
 * after which the same request may well succeed when tried again.
 */
const notKept = (status: number) => status === 400 || status === 408 || status === 429 || status >= 500;

/**
 * Route hooks for `Idempotency-Key`, as Stripe has it: per user, the same key and the same request
 * within 24 hours answer the first request's status and body again (so it is charged once); the
 * same key with another body is 422; while the first request still runs, 409. Requests without
 * the header are untouched. 400, 408, 429 and 5xx answers are not kept (see notKept).
 */
export function idempotentRoute(ctx: ServiceContext) {
  return {
    preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
      const header = request.headers['idempotency-key'];
      if (header === undefined || !request.user) return;
      if (typeof header !== 'string' || !KEY_SHAPE.test(header))
        throw badRequest(
          'The Idempotency-Key header must be 1 to 255 visible ASCII characters (a UUID is a good key).',
          'invalid_idempotency_key',
        );
      const userId = request.user.id;
      const hash = requestHash(request);
      const now = ctx.now();
      const claimed = await repo.claimIdempotencyKey(
        ctx.db,
        { userId, key: header, requestHash: hash, createdAt: now },
        new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS),
        new Date(now.getTime() - ABANDONED_AFTER_MS),
      );
      if (claimed) {
        request.idempotency = { userId, key: header, requestHash: hash, settled: false };
        return;
      }
      const first = await repo.findIdempotencyKey(ctx.db, userId, header);
      if (!first || first.responseStatus === null || first.responseBody === null) {
        if (first && first.requestHash !== hash) throw keyReused();
        throw keyInUse();
      }
      if (first.requestHash !== hash) throw keyReused();
      return reply
        .status(first.responseStatus)
        .header('content-type', 'application/json; charset=utf-8')
        .header('idempotent-replayed', 'true')
        .send(first.responseBody);
    },
    onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const owned = request.idempotency;
      if (!owned || owned.settled) return payload;
      owned.settled = true;
      if (typeof payload === 'string' && !notKept(reply.statusCode)) {
        await repo.saveIdempotentAnswer(ctx.db, owned.userId, owned.key, owned.requestHash, {
          status: reply.statusCode,
          body: payload,
        });
      } else {
        await repo.releaseIdempotencyKey(ctx.db, owned.userId, owned.key, owned.requestHash);
      }
      return payload;
    },
    // An answer that was never sent (the client went away first) frees its key.
    onResponse: async (request: FastifyRequest) => {
      const owned = request.idempotency;
      if (!owned || owned.settled) return;
      owned.settled = true;
      await repo.releaseIdempotencyKey(ctx.db, owned.userId, owned.key, owned.requestHash);
    },
  };
}

/** Deletes keys older than their 24 hours (the retention sweeper calls this); answers how many. */
export function sweepIdempotencyKeys(ctx: ServiceContext): Promise<number> {
  return repo.deleteIdempotencyKeysBefore(ctx.db, new Date(ctx.now().getTime() - IDEMPOTENCY_WINDOW_MS));
}
