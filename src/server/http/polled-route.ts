import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Route options of answers that clients poll (lists, status) and of the event stream: JSON or an
 * event stream, never a document, so a document's security headers (a 400-byte content security
 * policy and ten more, about half of a small answer's bytes) are replaced by the two that matter
 * for data: no type sniffing, and no reading by other sites' pages.
 */
export const polledRoute = {
  helmet: false as const,
  onRequest: async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('cross-origin-resource-policy', 'same-origin');
  },
};
