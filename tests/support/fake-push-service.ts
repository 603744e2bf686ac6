/**
 * A Web Push service stand-in, and the browser's side of a subscription, written from the protocol's
 * public specifications (never from our sender):
 * - RFC 8030 (Generic Event Delivery Using HTTP Push), section 5: the application server POSTs the
 *   message to the subscription's push resource with a `TTL` header (required; 400 without it) and an
 *   optional `Urgency`; the push service answers 201 Created. A subscription that no longer exists
 *   answers 404 or 410 Gone (section 7.3 / 6.2).
 * - RFC 8292 (VAPID), section 2-3: `Authorization: vapid t=<JWT>, k=<base64url P-256 public key>`;
 *   the JWT is ES256-signed (JWS, RFC 7515, signature as the raw 64-byte r||s), its `aud` is the
 *   push resource's origin, `exp` at most 24 hours ahead, `sub` a mailto: or https: contact.
 *   A push service answers 403 when the JWT does not verify.
 * - RFC 8291 (Message Encryption for Web Push) with RFC 8188 (aes128gcm content coding): the body is
 *   salt(16) | rs(4) | idlen(1) | keyid (the sender's ephemeral P-256 key, 65 bytes) | records; the
 *   browser derives IKM = HKDF(auth_secret, ECDH(ua_private, as_public), "WebPush: info\0" | ua_public
 *   | as_public, 32), then CEK = HKDF(salt, IKM, "Content-Encoding: aes128gcm\0", 16) and NONCE =
 *   HKDF(salt, IKM, "Content-Encoding: nonce\0", 12), decrypts with AES-128-GCM and removes the
 *   padding (a 0x02 delimiter for the last record, then zeros).
 * The "browser" below decrypts each message exactly as a browser's push client would.
 */
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BrowserSubscription {
  /** PushSubscription.toJSON(), what the page posts to the server. */
  json: { endpoint: string; keys: { p256dh: string; auth: string } };
  /** The browser's private side, to decrypt what arrives. */
  privateKey: Buffer;
  publicKey: Buffer;
  authSecret: Buffer;
}

export interface ReceivedPush {
  subscriptionId: string;
  ttl: number;
  urgency: string | null;
  /** The VAPID public key the sender signed with (base64url), and its JWT claims. */
  vapidKey: string;
  claims: { aud: string; exp: number; sub: string };
  /** The decrypted message. */
  payload: string;
}

export interface FakePushService {
  /** host:port, for PUSH_ALLOWED_HOSTS. */
  host: string;
  received: ReceivedPush[];
  /** Problems with requests that were refused (missing TTL, bad JWT, undecryptable body). */
  refused: string[];
  /** A new browser subscription on this push service. */
  subscribe(): BrowserSubscription;
  /** The push resource answers this status from now on (410: the browser unsubscribed). */
  setStatus(subscriptionId: string, status: number): void;
  /** Waits for the n-th message (1-based) to arrive. */
  waitForMessages(n: number, timeoutMs?: number): Promise<ReceivedPush[]>;
  close(): Promise<void>;
}

const b64url = (buffer: Buffer) => buffer.toString('base64url');

export async function startFakePushService(): Promise<FakePushService> {
  const subscriptions = new Map<string, BrowserSubscription & { status: number }>();
  const received: ReceivedPush[] = [];
  const refused: string[] = [];
  const waiters: Array<() => void> = [];
  let origin = '';

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const refuse = (status: number, problem: string) => {
        refused.push(problem);
        res.writeHead(status).end(problem);
        for (const wake of waiters.splice(0)) wake();
      };
      const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1];
      const subscription = id ? subscriptions.get(id) : undefined;
      if (req.method !== 'POST' || !id || !subscription) return refuse(404, 'no such push resource');
      if (subscription.status !== 201) return res.writeHead(subscription.status).end();
      const ttl = req.headers.ttl;
      if (ttl === undefined || !/^\d+$/.test(String(ttl))) return refuse(400, 'TTL header missing');
      const auth = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(req.headers.authorization ?? '');
      if (!auth?.[1] || !auth[2]) return refuse(401, 'no VAPID authorization');
      const claims = verifyJwt(auth[1], Buffer.from(auth[2], 'base64url'));
      if (!claims) return refuse(403, 'VAPID signature does not verify');
      const now = Math.floor(Date.now() / 1000);
      if (claims.aud !== origin || claims.exp <= now || claims.exp > now + 24 * 3600 + 60) {
        return refuse(403, `VAPID claims refused: ${JSON.stringify(claims)}`);
      }
      if (!/^(mailto:|https:)/.test(claims.sub)) return refuse(403, 'VAPID sub must be mailto: or https:');
      if (req.headers['content-encoding'] !== 'aes128gcm') return refuse(415, 'content coding is not aes128gcm');
      let payload: string;
      try {
        payload = decrypt(Buffer.concat(chunks), subscription);
      } catch (error) {
        return refuse(400, `cannot decrypt: ${(error as Error).message}`);
      }
      received.push({
        subscriptionId: id,
        ttl: Number(ttl),
        urgency: typeof req.headers.urgency === 'string' ? req.headers.urgency : null,
        vapidKey: auth[2],
        claims,
        payload,
      });
      res.writeHead(201, { location: `${origin}/message/${received.length}` }).end();
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;

  return {
    host: `127.0.0.1:${port}`,
    received,
    refused,
    subscribe() {
      const ecdh = createECDH('prime256v1');
      const publicKey = ecdh.generateKeys();
      const authSecret = randomBytes(16);
      const id = randomBytes(8).toString('hex');
      const subscription = {
        json: { endpoint: `${origin}/push/${id}`, keys: { p256dh: b64url(publicKey), auth: b64url(authSecret) } },
        privateKey: ecdh.getPrivateKey(),
        publicKey,
        authSecret,
        status: 201,
      };
      subscriptions.set(id, subscription);
      return subscription;
    },
    setStatus(subscriptionId, status) {
      const subscription = subscriptions.get(subscriptionId);
      if (subscription) subscription.status = status;
    },
    async waitForMessages(n, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < n) {
        if (refused.length > 0) throw new Error(`the push service refused a message: ${refused.join('; ')}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`only ${received.length} of ${n} push messages arrived`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received.slice(0, n);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Verifies an ES256 JWS (RFC 7515/7518) with a raw P-256 public key; answers its claims, or null. */
function verifyJwt(jwt: string, rawPublicKey: Buffer): { aud: string; exp: number; sub: string } | null {
  const [header, claims, signature] = jwt.split('.');
  if (!header || !claims || !signature || rawPublicKey.length !== 65) return null;
  const { alg } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: string };
  if (alg !== 'ES256') return null;
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: b64url(rawPublicKey.subarray(1, 33)),
      y: b64url(rawPublicKey.subarray(33, 65)),
    },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  return ok
    ? (JSON.parse(Buffer.from(claims, 'base64url').toString()) as { aud: string; exp: number; sub: string })
    : null;
}

/** RFC 8291 + RFC 8188, as the browser does it (one record, as Web Push messages are). */
function decrypt(body: Buffer, browser: BrowserSubscription): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body.readUInt8(20);
  const senderKey = body.subarray(21, 21 + idLength);
  const records = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Error('keyid is not a P-256 public key');
  if (records.length > recordSize) throw new Error('more than one record');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(browser.privateKey);
  const sharedSecret = ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browser.publicKey, senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', sharedSecret, browser.authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('no last-record padding delimiter');
  return padded.subarray(0, end).toString('utf8');
}
