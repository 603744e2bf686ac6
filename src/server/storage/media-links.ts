import { createHmac, timingSafeEqual } from 'node:crypto';
import { forbidden, notFound } from '../lib/app-error';

/**
 * Capability URLs for stored media: unguessable (HMAC of key, type and expiry with the
 * installation secret) and valid until the media expires, so a shared link works for anyone
 * who has it, and for no one after the 24 hours.
 */
function sign(secret: string, key: string, contentType: string, expires: number): string {
  return createHmac('sha256', secret).update(`media:${key}:${contentType}:${expires}`).digest('base64url');
}

export function mediaUrl(secret: string, object: { key: string; contentType: string; expiresAt: Date }): string {
  const expires = Math.floor(object.expiresAt.getTime() / 1000);
  const id = Buffer.from(object.key).toString('base64url');
  const type = encodeURIComponent(object.contentType);
  return `/api/media/${id}?type=${type}&exp=${expires}&sig=${sign(secret, object.key, object.contentType, expires)}`;
}

/** The object a media URL names, or 403 (forged) / 404 (expired). */
export function verifyMediaUrl(
  secret: string,
  parts: { id: string; type?: string; exp?: string; sig?: string },
  now: Date,
): { key: string; contentType: string } {
  const key = Buffer.from(parts.id, 'base64url').toString('utf8');
  const contentType = parts.type ?? '';
  const expires = Number(parts.exp);
  const expected = Buffer.from(sign(secret, key, contentType, expires));
  const given = Buffer.from(parts.sig ?? '');
  if (!Number.isInteger(expires) || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw forbidden('This link is not valid.', 'media_link_invalid');
  }
  if (expires * 1000 < now.getTime()) throw notFound('This video has expired and was deleted.', 'media_expired');
  return { key, contentType };
}

/**
 * A watch page's token (issue 44): the video's id, the link's expiry and an HMAC of both with the
 * installation secret, so a shared watch link works for anyone who has it until the video expires.
 */
export function watchToken(secret: string, generationId: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  const sig = createHmac('sha256', secret).update(`watch:${generationId}:${expires}`).digest('base64url');
  return `${generationId}.${expires}.${sig.slice(0, 32)}`;
}

/** The video a watch token names, or null (forged, malformed or expired). */
export function verifyWatchToken(secret: string, token: string, now: Date): string | null {
  const [id, exp, sig] = token.split('.');
  const expires = Number(exp);
  if (!id || !sig || !Number.isInteger(expires) || !/^[0-9a-f-]{36}$/.test(id)) return null;
  const expected = Buffer.from(watchToken(secret, id, new Date(expires * 1000)));
  const given = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return expires * 1000 < now.getTime() ? null : id;
}
