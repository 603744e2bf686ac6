import type { FastifyReply, FastifyRequest } from 'fastify';

/** Lists carry signed links that die with their video: their ETags also change once a minute. */
const minuteBucket = (now: Date) => Math.floor(now.getTime() / 60_000);

/**
 * The tag of an answer made of one user's state (decision 011): their live version moves with every
 * change of theirs, queue places included, and the minute with what time alone changes (links that
 * die with their video, the 3am reset, a pack's expiry within a minute). The session lookup already
 * loaded the row, so an unchanged answer is a 304 without a query.
 */
export const liveStateTag = (kind: string, user: { id: string; liveVersion: number }, now: Date) =>
  `"${kind}-${user.id}-${user.liveVersion}-${minuteBucket(now)}"`;

/** True when the request's If-None-Match names this entity tag (weak comparison, RFC 9110 13.1.2). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Sets a strong ETag and answers 304 (no body) when the client already has it: call before
 * building the body, and return `reply` when it answers true.
 */
export function answerNotModified(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  reply.header('etag', etag);
  if (!matches(request.headers['if-none-match'], etag)) return false;
  void reply.code(304).send();
  return true;
}

/** A serializer that trusts the route's own typed presenter: no validation pass over large arrays. */
export const trustedSerializer = () => (data: unknown) => JSON.stringify(data);
