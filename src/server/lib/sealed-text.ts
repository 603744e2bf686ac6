import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets kept in the database (the providers' keys an administrator saves in the browser), sealed
 * with AES-256-GCM under a key derived (HKDF-SHA256) from the installation's secret, so a database
 * dump or backup holds no usable key. Every process of one installation shares SESSION_SECRET (or
 * the data folder's secret), so each can open what another sealed. Format:
 * `v1.<iv>.<tag>.<ciphertext>`, each base64url.
 */
const VERSION = 'v1';

function keyOf(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'reelsmith sealed text', purpose, 32));
}

export function sealText(secret: string, purpose: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret, purpose), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    VERSION,
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    body.toString('base64url'),
  ].join('.');
}

/** The plain text, or null when it was sealed under another secret or purpose, or altered. */
export function openText(secret: string, purpose: string, sealed: string): string | null {
  const [version, iv, tag, body, ...rest] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined || rest.length > 0) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret, purpose), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
