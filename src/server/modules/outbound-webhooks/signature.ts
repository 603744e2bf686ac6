import { createHmac, randomBytes, randomUUID } from 'node:crypto';

// Standard Webhooks signing (https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md):
// the secret is `whsec_` + base64 of random bytes (at least 24; we use 32), the signed content is
// `{webhook-id}.{webhook-timestamp}.{body}`, and the signature header is `v1,` + base64 HMAC-SHA256
// keyed with the secret's decoded bytes.

const SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** A webhook-id: unique per event and endpoint, the same on every retry; no `.` (it is part of the signed content). */
export function newMessageId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}

/** The three Standard Webhooks headers for one attempt (the timestamp is the attempt's, in seconds). */
export function signatureHeaders(
  secret: string,
  messageId: string,
  body: string,
  now: Date,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const timestamp = Math.floor(now.getTime() / 1000).toString();
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const signature = createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': messageId, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}
