import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import type { GenerationRecord } from '../../../shared/generations';
import { creditLedger, generations, idempotencyKeys, uploads, users } from '../../db/schema';
import { sweepExpired } from '../../jobs/retention-sweeper';

let t: TestApp;
beforeAll(async () => {
  // No worker: generations stay pending.
  t = await createTestApp();
  // Opening the embedded database compiles PGlite first: slow on a busy machine.
}, 180_000);
afterAll(async () => {
  await t.close();
});

async function tokenUser(creditsHundredths = 1000) {
  const user = await createUser(t.db, { creditsHundredths });
  const cookie = await signIn(t.app, user);
  const created = await injectJson(t.app, 'POST', '/api/account/tokens', {
    cookie,
    body: { name: 'retrying client', scopes: ['videos:write', 'uploads:write'] },
  });
  return { user, cookie, token: created.json<{ token: string }>().token };
}

const generate = (token: string, key: string | undefined, body: object) =>
  injectJson(t.app, 'POST', '/api/video-generation', {
    headers: { authorization: `Bearer ${token}`, ...(key ? { 'idempotency-key': key } : {}) },
    body,
  });
const ledgerOf = (id: string) => t.db.select().from(creditLedger).where(eq(creditLedger.userId, id));
const jobsOf = (id: string) => t.db.select().from(generations).where(eq(generations.userId, id));
const balanceOf = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0]?.creditsHundredths;

describe('Idempotency-Key on POST /api/video-generation', () => {
  it('the same key and body twice answers the first result and charges once', async () => {
    const { user, token } = await tokenUser();
    const body = { prompt: 'A paper boat on a rainy street', duration: 5 };
    const first = await generate(token, 'order-1', body);
    expect(first.statusCode, first.body).toBe(201);
    // The same body, its keys in another order, is the same request.
    const again = await generate(token, 'order-1', { duration: 5, prompt: 'A paper boat on a rainy street' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json<GenerationRecord>()).toEqual(first.json<GenerationRecord>());
    expect(await jobsOf(user.id)).toHaveLength(1);
    const ledger = await ledgerOf(user.id);
    expect(ledger).toHaveLength(1);
    expect(await balanceOf(user.id)).toBe(1000 + (ledger[0]?.deltaHundredths ?? 0));
    // Without a key, or with another key, it is a new video.
    expect((await generate(token, 'order-2', body)).statusCode).toBe(201);
    expect((await generate(token, undefined, body)).statusCode).toBe(201);
    expect(await ledgerOf(user.id)).toHaveLength(3);
  });

  it('the same key with another body is 422 with a sentence, and charges nothing more', async () => {
    const { user, token } = await tokenUser();
    expect((await generate(token, 'k-422', { prompt: 'A red kite' })).statusCode).toBe(201);
    const other = await generate(token, 'k-422', { prompt: 'A blue kite' });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({
      code: 'idempotency_key_reused',
      message: 'This Idempotency-Key was already used with a different request. Use a new key for each new request.',
    });
    expect(await ledgerOf(user.id)).toHaveLength(1);
  });

  it('keys are per user: another user may use the same key', async () => {
    const a = await tokenUser();
    const b = await tokenUser();
    expect((await generate(a.token, 'shared-key', { prompt: 'A tram' })).statusCode).toBe(201);
    const other = await generate(b.token, 'shared-key', { prompt: 'A tram' });
    expect(other.statusCode).toBe(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(await ledgerOf(b.user.id)).toHaveLength(1);
  });

  it('two requests at once with one key: one is made and charged, the other is 409 or its replay', async () => {
    const { user, token } = await tokenUser();
    const body = { prompt: 'Two clicks on one button' };
    const answers = await Promise.all(Array.from({ length: 4 }, () => generate(token, 'double-click', body)));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    for (const conflict of answers.filter((a) => a.statusCode === 409)) {
      expect(conflict.json().code).toBe('idempotency_key_in_use');
      expect(conflict.headers['retry-after']).toBe('1');
    }
    expect(await jobsOf(user.id)).toHaveLength(1);
    expect(await ledgerOf(user.id)).toHaveLength(1);
    // Once it finished, the same request answers its result.
    const later = await generate(token, 'double-click', body);
    expect(later.statusCode).toBe(201);
    expect(later.headers['idempotent-replayed']).toBe('true');
  });

  it('a refusal is answered again as it was; a 400 before the request ran keeps nothing', async () => {
    const { user, token } = await tokenUser(0);
    const poor = await generate(token, 'no-money', { prompt: 'An expensive sunset' });
    expect(poor.statusCode).toBe(402);
    await t.db.update(users).set({ creditsHundredths: 1000 }).where(eq(users.id, user.id));
    const replay = await generate(token, 'no-money', { prompt: 'An expensive sunset' });
    expect(replay.statusCode).toBe(402);
    expect(replay.body).toBe(poor.body);
    // Its parameters were refused (400): the key is free for the corrected request.
    expect((await generate(token, 'typo', { prompt: '' })).statusCode).toBe(400);
    expect((await generate(token, 'typo', { prompt: 'Fixed' })).statusCode).toBe(201);
  });

  it('refuses a malformed key', async () => {
    const { token } = await tokenUser();
    for (const key of ['x'.repeat(256), 'has space', 'é']) {
      const response = await generate(token, key, { prompt: 'A key test' });
      expect(response.statusCode, key).toBe(400);
      expect(response.json().code).toBe('invalid_idempotency_key');
    }
  });

  it('works for a browser session too, and keys are forgotten after 24 hours', async () => {
    const { user, cookie } = await tokenUser();
    const post = () =>
      injectJson(t.app, 'POST', '/api/video-generation', {
        cookie,
        headers: { 'idempotency-key': 'day-old' },
        body: { prompt: 'A day later' },
      });
    expect((await post()).statusCode).toBe(201);
    expect((await post()).headers['idempotent-replayed']).toBe('true');
    await t.db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - 24 * 3600_000 - 1000) })
      .where(eq(idempotencyKeys.userId, user.id));
    // Past 24 hours the key counts as new (a second video, charged), even before the sweep.
    const after = await post();
    expect(after.statusCode).toBe(201);
    expect(after.headers['idempotent-replayed']).toBeUndefined();
    expect(await ledgerOf(user.id)).toHaveLength(2);
    await t.db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - 24 * 3600_000 - 1000) })
      .where(eq(idempotencyKeys.userId, user.id));
    const swept = await sweepExpired(t.ctx);
    expect(swept.idempotencyKeys).toBeGreaterThanOrEqual(1);
    expect(await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, user.id))).toEqual([]);
  });
});

describe('Idempotency-Key on upload creation (POST /api/objects/upload)', () => {
  it('answers the same upload link and reserves one upload', async () => {
    const { user, token } = await tokenUser();
    const create = () =>
      injectJson(t.app, 'POST', '/api/objects/upload', {
        headers: { authorization: `Bearer ${token}`, 'idempotency-key': 'upload-1' },
      });
    const first = await create();
    expect(first.statusCode).toBe(200);
    const second = await create();
    expect(second.json()).toEqual(first.json());
    expect(await t.db.select().from(uploads).where(eq(uploads.userId, user.id))).toHaveLength(1);
  });
});
