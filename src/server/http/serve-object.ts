import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, notFound } from '../lib/app-error';
import type { ByteRange, ObjectStorage } from '../storage';

/** Parses a single-range `Range: bytes=…` header against a size; null means the whole object. */
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null; // malformed or multi-range: send it all
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/**
 * Sends a stored object with HTTP Range support so players can seek: 206 with exactly the
 * requested bytes, Accept-Ranges, exact Content-Length and Content-Type. On S3 it redirects to a
 * short-lived presigned GET instead.
 */
export async function serveObject(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: ObjectStorage,
  object: { key: string; contentType: string; cacheSeconds: number },
): Promise<FastifyReply> {
  const presigned = await storage.createDownloadUrl(object.key, {
    expiresInSeconds: 300,
    contentType: object.contentType,
  });
  if (presigned) return reply.header('cache-control', 'no-store').redirect(presigned, 302);

  const stat = await storage.stat(object.key);
  if (!stat) throw notFound('This file is no longer available.', 'file_gone');
  reply
    .header('accept-ranges', 'bytes')
    .header('content-type', object.contentType)
    .header('cache-control', `private, max-age=${object.cacheSeconds}`);
  const range = parseRange(request.headers.range, stat.size);
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${stat.size}`);
    throw new AppError(416, 'range_not_satisfiable', 'The requested range is outside the file.');
  }
  if (!range) {
    reply.header('content-length', stat.size);
    return reply.send(request.method === 'HEAD' ? '' : await storage.read(object.key));
  }
  reply
    .status(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`)
    .header('content-length', range.end - range.start + 1);
  return reply.send(request.method === 'HEAD' ? '' : await storage.read(object.key, range));
}
