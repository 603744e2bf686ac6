import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../tests/support/app';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createUser, signIn, uploadFile } from '../../../tests/support/factories';
import type { GenerationJob } from '../../shared/generations';
import { type GenerationInput, generations, uploads } from '../db/schema';
import { sweepExpired } from './retention-sweeper';

const DAY = 86_400_000;
let t: TestApp;
/** A still clock: two reads of a list fall in the same minute of its ETag. */
const clock = new Date();
beforeAll(async () => {
  t = await createTestApp({ GENERATION_RECORD_RETENTION_DAYS: '7' }, undefined, { now: () => clock });
});
afterAll(async () => {
  await t.close();
});

describe('expired videos and old records', () => {
  it('tells an expired video by its expiry, and sweeps records older than GENERATION_RECORD_RETENTION_DAYS', async () => {
    const user = await createUser(t.db);
    const cookie = await signIn(t.app, user);
    const made = (daysAgo: number, status: 'completed' | 'failed' | 'processing') => ({
      userId: user.id,
      prompt: `made ${daysAgo} days ago (${status})`,
      model: 'local' as const,
      requestedDuration: 8,
      hasAudio: false,
      status,
      createdAt: new Date(Date.now() - daysAgo * DAY),
      expiresAt: status === 'completed' ? new Date(Date.now() - daysAgo * DAY + DAY) : null,
    });
    await t.db
      .insert(generations)
      .values([made(2, 'completed'), made(8, 'completed'), made(9, 'failed'), made(10, 'processing')]);

    const jobs = (await injectJson(t.app, 'GET', '/api/video-generation-jobs', { cookie })).json<GenerationJob[]>();
    const expired = jobs.find((j) => j.textPrompt.startsWith('made 2 '));
    expect(expired).toMatchObject({ status: 'completed', outputVideoUrl: null });
    expect(new Date(expired?.expiresAt ?? 0).getTime()).toBeLessThan(Date.now());

    const swept = await sweepExpired(t.ctx);
    expect(swept.records).toBe(2);
    const left = await t.db
      .select({ prompt: generations.prompt })
      .from(generations)
      .where(eq(generations.userId, user.id));
    // The 2-day-old record stays (shown as Expired); a job still running is never swept.
    expect(left.map((r) => r.prompt).sort()).toEqual(['made 10 days ago (processing)', 'made 2 days ago (completed)']);

    // An expired video can be removed from the list.
    const removable = (await injectJson(t.app, 'GET', '/api/video-generation', { cookie })).json<
      Array<{ id: string; prompt: string }>
    >();
    const id = removable.find((r) => r.prompt.startsWith('made 2 '))?.id ?? '';
    expect((await injectJson(t.app, 'DELETE', `/api/video-generation/${id}`, { cookie })).statusCode).toBe(200);
  });
});

describe('the list after a sweep', () => {
  it("answers the new list, not 304, to the ETag it had before the sweep deleted one of the user's records", async () => {
    const user = await createUser(t.db);
    const cookie = await signIn(t.app, user);
    const made = (daysAgo: number) => ({
      userId: user.id,
      prompt: `kept for ${daysAgo} days`,
      model: 'local' as const,
      requestedDuration: 8,
      hasAudio: false,
      status: 'failed' as const,
      createdAt: new Date(clock.getTime() - daysAgo * DAY),
    });
    await t.db.insert(generations).values([made(1), made(8)]);
    const before = await injectJson(t.app, 'GET', '/api/video-generation', { cookie });
    expect(before.json<Array<{ prompt: string }>>()).toHaveLength(2);
    const etag = before.headers.etag as string;

    await sweepExpired(t.ctx);
    const after = await injectJson(t.app, 'GET', '/api/video-generation', {
      cookie,
      headers: { 'if-none-match': etag },
    });
    expect(after.statusCode).toBe(200);
    expect(after.json<Array<{ prompt: string }>>().map((r) => r.prompt)).toEqual(['kept for 1 days']);
  });

  it('discards every upload an old record names with it: inputs, end frame and reference images', async () => {
    const user = await createUser(t.db);
    const cookie = await signIn(t.app, user);
    const png = readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures/chelsea.png'));
    const named: GenerationInput[] = [];
    for (let i = 0; i < 4; i++) {
      const id = (await uploadFile(t.app, cookie, png)).split('/').at(-1) ?? '';
      const [row] = await t.db.select().from(uploads).where(eq(uploads.id, id));
      if (!row?.contentType) throw new Error('upload not stored');
      named.push({
        uploadId: row.id,
        objectKey: row.objectKey,
        contentType: row.contentType,
        expiresAt: row.expiresAt.toISOString(),
      });
    }
    const [start, end, ...references] = named;
    await t.db.insert(generations).values({
      userId: user.id,
      prompt: 'an old keyframed video',
      model: 'local',
      requestedDuration: 4,
      hasAudio: false,
      status: 'completed',
      inputs: start ? { image: start } : {},
      endImage: end,
      referenceImages: references,
      createdAt: new Date(Date.now() - 8 * DAY),
      expiresAt: new Date(Date.now() - 7 * DAY),
    });

    expect((await sweepExpired(t.ctx)).records).toBe(1);
    expect(await t.db.select().from(uploads).where(eq(uploads.userId, user.id))).toEqual([]);
    for (const input of named) expect(await t.ctx.storage.stat(input.objectKey)).toBeNull();
  });
});
