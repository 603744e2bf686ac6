import { createHmac, timingSafeEqual } from 'node:crypto';
import { forbidden } from '../../lib/app-error';

/** Our own upload URLs are valid this long. */
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;

function sign(secret: string, id: string, expires: number): string {
  return createHmac('sha256', secret).update(`upload:${id}:${expires}`).digest('base64url');
}

export function signedUploadPath(secret: string, id: string, now: Date): string {
  const expires = Math.floor(now.getTime() / 1000) + UPLOAD_URL_TTL_SECONDS;
  return `/api/uploads/${id}?exp=${expires}&sig=${sign(secret, id, expires)}`;
}

/** Refuses (403) a signature that does not match or has expired. */
export function requireValidSignature(
  secret: string,
  id: string,
  exp: string | undefined,
  sig: string | undefined,
  now: Date,
): void {
  const expires = Number(exp);
  const expected = Buffer.from(sign(secret, id, expires));
  const given = Buffer.from(sig ?? '');
  if (!Number.isInteger(expires) || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw forbidden('This upload link is not valid.', 'upload_link_invalid');
  }
  if (expires * 1000 < now.getTime()) throw forbidden('This upload link has expired.', 'upload_link_expired');
}
