import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, listenLocally, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import { openSse, type SseStream } from '../../../../tests/support/sse-client';
import type { GenerationRecord } from '../../../shared/generations';
import type { LiveBalance, LiveSnapshot } from '../../../shared/live-events';
import { LIVE_EVENTS_URL, MAX_STREAMS_PER_USER } from '../../../shared/live-events';
import { claimNext } from '../../jobs/queue.repository';
import { saveProgress } from '../generations/lifecycle.repository';
import { sweepExpired } from '../../jobs/retention-sweeper';
import { eq } from 'drizzle-orm';
import { creditLedger, generations, liveEvents } from '../../db/schema';
import { CLI_ACTOR, setSubscriptionStatus } from '../admin/admin.service';
import { publishGenerationChange } from '../../bus/publish';

describe('GET /api/events', () => {
  let t: TestApp;
  let base: string;
  const open: SseStream[] = [];

  beforeAll(async () => {
    // With a metrics token, so that answered requests go into the request-duration histogram.
    t = await createTestApp({ LIVE_EVENTS_HEARTBEAT_SECONDS: '0.2', METRICS_TOKEN: 'live-stream-metrics-0123456789' });
    base = await listenLocally(t);
  });
  afterAll(async () => {
    for (const stream of open) stream.close();
    await t?.close();
  });

  async function stream(cookie: string, lastEventId?: string) {
    const opened = await openSse(base, cookie, lastEventId);
    open.push(opened);
    return opened;
  }

  async function signedInUser(credits = 1000) {
    const user = await createUser(t.db, { creditsHundredths: credits });
    return { user, cookie: await signIn(t.app, user) };
  }

  const generate = async (cookie: string, prompt: string) => {
    const response = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie,
      body: { prompt, model: 'local', duration: 4 },
    });
    expect(response.statusCode).toBe(201);
    return response.json<GenerationRecord>();
  };

  it('refuses a signed-out client', async () => {
    const response = await injectJson(t.app, 'GET', '/api/events');
    expect(response.statusCode).toBe(401);
  });

  it('opens with a snapshot, sends heartbeats and pushes its own generations and balance', async () => {
    const { cookie } = await signedInUser();
    const events = await stream(cookie);
    expect(events.status).toBe(200);
    expect(events.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(events.headers.get('x-accel-buffering')).toBe('no');
    expect(events.headers.get('content-encoding')).toBeNull();
    const snapshot = (await events.next((e) => e.event === 'snapshot')).data as LiveSnapshot;
    expect(snapshot.generations).toEqual([]);
    expect(snapshot.balance.status.availableCredits).toBe(10);

    const created = await generate(cookie, 'A lighthouse in a storm');
    const pushed = (await events.next((e) => e.event === 'generation')).data as GenerationRecord;
    expect(pushed).toMatchObject({ id: created.id, status: 'pending', queuePosition: expect.any(Number) as number });
    const balance = (await events.next((e) => e.event === 'balance')).data as LiveBalance;
    expect(balance.status.availableCredits).toBe(9);
    await expect.poll(() => events.comments, { timeout: 3000 }).toBeGreaterThan(0);
  });

  it('answers a create once, with one ledger row and one live event that brings both the record and the balance', async () => {
    const { user, cookie } = await signedInUser();
    const events = await stream(cookie);
    await events.next((e) => e.event === 'snapshot');
    const created = await generate(cookie, 'A single paper lantern');
    expect(created).toMatchObject({ status: 'pending', creditsUsed: 1, queuePosition: expect.any(Number) as number });
    const [generationEvent, balanceEvent] = await Promise.all([
      events.next((e) => e.event === 'generation' && (e.data as GenerationRecord).id === created.id),
      events.next((e) => e.event === 'balance'),
    ]);
    expect((balanceEvent.data as LiveBalance).status.availableCredits).toBe(9);
    // Both come from one event row, under its one id.
    expect(generationEvent.id).toBe(balanceEvent.id);
    const rows = await t.db.select().from(liveEvents).where(eq(liveEvents.userId, user.id));
    expect(rows).toEqual([expect.objectContaining({ kind: 'balance', generationId: created.id })]);
    const ledger = await t.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(ledger).toEqual([
      expect.objectContaining({
        kind: 'charge',
        deltaHundredths: -100,
        balanceAfterHundredths: 900,
        reference: `generation:${created.id}`,
      }),
    ]);
    // A heartbeat after both: nothing else about this create reached the stream.
    const comments = events.comments;
    await expect.poll(() => events.comments, { timeout: 3000 }).toBeGreaterThan(comments);
    expect(events.events.filter((e) => e.event !== 'snapshot').map((e) => e.event)).toEqual(['generation', 'balance']);
  });

  it("tells a subscriber's stream of the daily generation a create used, in the same one event", async () => {
    const user = await createUser(t.db, { subscriptionStatus: 'active', creditsHundredths: 0 });
    const cookie = await signIn(t.app, user);
    const events = await stream(cookie);
    await events.next((e) => e.event === 'snapshot');
    const created = await generate(cookie, 'A lantern paid by the day');
    const balance = (await events.next((e) => e.event === 'balance')).data as LiveBalance;
    expect(balance.generationStatus.dailyUsed).toBe(1);
    await events.next((e) => e.event === 'generation' && (e.data as GenerationRecord).id === created.id);
    const rows = await t.db.select().from(liveEvents).where(eq(liveEvents.userId, user.id));
    expect(rows).toEqual([expect.objectContaining({ kind: 'balance', generationId: created.id })]);
    expect(await t.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id))).toEqual([]);
  });

  it("never delivers another user's events to a stream", async () => {
    const alice = await signedInUser();
    const bob = await signedInUser();
    const aliceEvents = await stream(alice.cookie);
    await aliceEvents.next((e) => e.event === 'snapshot');
    const bobs = await generate(bob.cookie, 'A secret garden at night');
    const alices = await generate(alice.cookie, 'A red kite over hills');
    await aliceEvents.next((e) => e.event === 'generation' && (e.data as GenerationRecord).id === alices.id);
    await aliceEvents.next((e) => e.event === 'balance');
    const seen = JSON.stringify(aliceEvents.events);
    expect(seen).not.toContain(bobs.id);
    expect(seen).not.toContain('A secret garden');
    // A snapshot or resume asked with someone else's event id is a snapshot of one's own data only.
    const bobEvents = await stream(bob.cookie);
    const bobSnapshot = await bobEvents.next((e) => e.event === 'snapshot');
    const stolen = await stream(alice.cookie, bobSnapshot.id ?? undefined);
    const answer = await stolen.next(() => true);
    expect(answer.event).toBe('snapshot');
    expect(JSON.stringify(answer.data)).not.toContain(bobs.id);
  });

  it('resumes with Last-Event-ID and misses nothing that changed while it was away', async () => {
    const { user, cookie } = await signedInUser();
    const first = await stream(cookie);
    await first.next((e) => e.event === 'snapshot');
    const before = await generate(cookie, 'A train crossing a bridge');
    await first.next((e) => e.event === 'generation' && (e.data as GenerationRecord).id === before.id);
    await first.next((e) => e.event === 'balance');
    const lastId = first.lastEventId();
    first.close();

    // While away: a new video, progress on the first one, and a deletion.
    const during = await generate(cookie, 'A paper boat on a river');
    const deleted = await generate(cookie, 'A video that will be deleted');
    expect((await injectJson(t.app, 'DELETE', `/api/video-generation/${deleted.id}`, { cookie })).statusCode).toBe(200);
    const claimed = await claimUntil(before.id);
    await saveProgress(t.db, claimed, 'test-worker', { progress: 42, stage: 'Rendering scenes', leaseSeconds: 60 });
    await publishGenerationChange(t.db, user.id, before.id);

    const resumed = await stream(cookie, lastId ?? undefined);
    const progressed = await resumed.next(
      (e) => e.event === 'generation' && (e.data as GenerationRecord).id === before.id,
    );
    expect(progressed.data).toMatchObject({ status: 'processing', progress: 42, progressStage: 'Rendering scenes' });
    await resumed.next((e) => e.event === 'generation' && (e.data as GenerationRecord).id === during.id);
    await resumed.next((e) => e.event === 'generation-deleted' && (e.data as { id: string }).id === deleted.id);
    const balance = await resumed.next((e) => e.event === 'balance');
    expect((balance.data as LiveBalance).status.availableCredits).toBe(7);
    expect(resumed.events.some((e) => e.event === 'snapshot')).toBe(false);

    // An id from before the retention window (or made up) gets a fresh snapshot instead.
    const stale = await stream(cookie, '1');
    expect((await stale.next(() => true)).event).toBe('snapshot');
  });

  /** Claims jobs (as a worker would) until the wanted one is running; others go back to the queue. */
  async function claimUntil(id: string): Promise<string> {
    for (let i = 0; i < 50; i += 1) {
      const row = await claimNext(t.db, 'test-worker', 60);
      if (!row) break;
      if (row.id === id) return row.id;
    }
    throw new Error('job not claimed');
  }

  it("tells a user's stream when an administrator changes their subscription status", async () => {
    const { user, cookie } = await signedInUser();
    const admin = await createUser(t.db, { isAdmin: true });
    const events = await stream(cookie);
    await events.next((e) => e.event === 'snapshot');
    const edit = {
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      availableCredits: 10,
      totalCreditsUsed: 0,
    };
    const patched = await injectJson(t.app, 'PATCH', `/api/admin/users/${user.id}`, {
      cookie: await signIn(t.app, admin),
      body: { ...edit, subscriptionStatus: 'premium_unlimited' },
    });
    expect(patched.statusCode).toBe(200);
    const unlimited = (await events.next((e) => e.event === 'balance')).data as LiveBalance;
    expect(unlimited).toMatchObject({
      status: { isUnlimited: true, availableCredits: 10 },
      generationStatus: { subscriptionStatus: 'premium_unlimited' },
    });

    // The operator command line's status change is announced the same way.
    await setSubscriptionStatus(t.ctx, CLI_ACTOR, user.email, 'trial');
    const trial = await events.next(
      (e) => e.event === 'balance' && (e.data as LiveBalance).generationStatus.subscriptionStatus === 'trial',
    );
    expect((trial.data as LiveBalance).status.isUnlimited).toBe(false);
  });

  it('tells a stream about a record the retention sweeper deleted', async () => {
    const { user, cookie } = await signedInUser();
    const old = new Date(Date.now() - (t.config.generationRecordRetentionDays + 1) * 86_400_000);
    const [row] = await t.db
      .insert(generations)
      .values({
        userId: user.id,
        prompt: 'An old harbour',
        model: 'local',
        requestedDuration: 4,
        hasAudio: false,
        status: 'failed',
        createdAt: old,
      })
      .returning();
    const events = await stream(cookie);
    const snapshot = (await events.next((e) => e.event === 'snapshot')).data as LiveSnapshot;
    expect(snapshot.generations.map((g) => g.id)).toEqual([row?.id]);
    await sweepExpired(t.ctx);
    await events.next((e) => e.event === 'generation-deleted' && (e.data as { id: string }).id === row?.id);
  });

  it(`refuses more than ${MAX_STREAMS_PER_USER} streams per user`, async () => {
    const { cookie } = await signedInUser();
    for (let i = 0; i < MAX_STREAMS_PER_USER; i += 1) expect((await stream(cookie)).status).toBe(200);
    const refused = await stream(cookie);
    expect(refused.status).toBe(429);
  });

  it('ends the stream of a session that signed out, and counts no stream as a request', async () => {
    const { cookie } = await signedInUser();
    const events = await stream(cookie);
    await events.next((e) => e.event === 'snapshot');
    expect((await injectJson(t.app, 'POST', '/api/auth/logout', { cookie })).statusCode).toBe(200);
    // Ended by the server (a session check every few heartbeats), so its response finished: a
    // request would now be in the request-duration histogram; a stream never is (refusals, 4xx, are).
    await events.ended;
    const series = (await t.ctx.metrics.httpDuration.get()).values.filter(
      (value) => value.labels.route === LIVE_EVENTS_URL && value.labels.status === '2xx',
    );
    expect(series).toEqual([]);
    const logout = (await t.ctx.metrics.httpDuration.get()).values.filter(
      (value) => value.labels.route === '/api/auth/logout',
    );
    expect(logout.length).toBeGreaterThan(0);
  });

  it('sends as the balance exactly what GET /api/user/balance answers, in the snapshot and after a change', async () => {
    const { cookie } = await signedInUser();
    const balanceNow = async () =>
      (await injectJson(t.app, 'GET', '/api/user/balance', { cookie })).json<LiveBalance>();
    const events = await stream(cookie);
    const snapshot = (await events.next((e) => e.event === 'snapshot')).data as LiveSnapshot;
    expect(snapshot.balance).toEqual(await balanceNow());
    await generate(cookie, 'A paper boat');
    const pushed = (await events.next((e) => e.event === 'balance')).data as LiveBalance;
    expect(pushed.status.availableCredits).toBe(9);
    expect(pushed).toEqual(await balanceNow());
  });
});

describe('live streams and shutdown', () => {
  it('closes open streams when the server closes, without waiting for them', async () => {
    const t = await createTestApp();
    const base = await listenLocally(t);
    const user = await createUser(t.db);
    const cookie = await signIn(t.app, user);
    const events = await openSse(base, cookie);
    await events.next((e) => e.event === 'snapshot');
    const started = Date.now();
    const closing = t.close();
    await events.ended;
    // Ended by the close itself: a close that waited for the stream would never end it.
    expect(Date.now() - started).toBeLessThan(10_000);
    await closing;
  }, 120_000);
});

describe('ETags of lists and status', () => {
  let t: TestApp;
  /** The server's clock when a test moves it; the real time otherwise. */
  let clock: Date | null = null;
  beforeAll(async () => {
    t = await createTestApp({}, undefined, { now: () => clock ?? new Date() });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 304 for an unchanged list and 200 after any change', async () => {
    const user = await createUser(t.db, { creditsHundredths: 1000 });
    const cookie = await signIn(t.app, user);
    for (const url of ['/api/video-generation', '/api/video-generation-jobs', '/api/video-generation-jobs/recent']) {
      const first = await injectJson(t.app, 'GET', url, { cookie });
      expect(first.statusCode).toBe(200);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[^"]+"$/);
      const again = await injectJson(t.app, 'GET', url, { cookie, headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
    }
    const list = await injectJson(t.app, 'GET', '/api/video-generation', { cookie });
    const etag = list.headers.etag as string;
    const created = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie,
      body: { prompt: 'A fox in snow', model: 'local' },
    });
    expect(created.statusCode).toBe(201);
    const changed = await injectJson(t.app, 'GET', '/api/video-generation', {
      cookie,
      headers: { 'if-none-match': etag },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json<GenerationRecord[]>()).toHaveLength(1);

    // A progress write of a worker is a change too.
    const now = changed.headers.etag as string;
    await claimNext(t.db, 'w', 60);
    await saveProgress(t.db, created.json<GenerationRecord>().id, 'w', {
      progress: 10,
      stage: 'Rendering',
      leaseSeconds: 60,
    });
    await publishGenerationChange(t.db, user.id, created.json<GenerationRecord>().id);
    const progressed = await injectJson(t.app, 'GET', '/api/video-generation', {
      cookie,
      headers: { 'if-none-match': now },
    });
    expect(progressed.statusCode).toBe(200);
    expect(progressed.json<GenerationRecord[]>()[0]).toMatchObject({ progress: 10, progressStage: 'Rendering' });
  });

  it('answers 304 for an unchanged user status and 200 once the balance moved', async () => {
    const user = await createUser(t.db, { creditsHundredths: 500 });
    const cookie = await signIn(t.app, user);
    const first = await injectJson(t.app, 'GET', '/api/user/status', { cookie });
    const etag = first.headers.etag as string;
    expect(
      (await injectJson(t.app, 'GET', '/api/user/status', { cookie, headers: { 'if-none-match': etag } })).statusCode,
    ).toBe(304);
    await injectJson(t.app, 'POST', '/api/video-generation', { cookie, body: { prompt: 'A comet', model: 'local' } });
    const after = await injectJson(t.app, 'GET', '/api/user/status', { cookie, headers: { 'if-none-match': etag } });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toMatchObject({ availableCredits: 4 });
  });

  it('answers 304 for an unchanged generation status and 200 after a generation or a new generation day', async () => {
    const url = '/api/user/generation-status';
    // 2:58:30am New York time (EDT): today's daily generations reset at 3am.
    clock = new Date('2026-06-10T06:58:30Z');
    try {
      const user = await createUser(t.db, { subscriptionStatus: 'active', creditsHundredths: 500 });
      const cookie = await signIn(t.app, user);
      const first = await injectJson(t.app, 'GET', url, { cookie });
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[^"]+"$/);
      const again = await injectJson(t.app, 'GET', url, { cookie, headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');

      // A generation paid with one of today's daily generations.
      expect(
        (
          await injectJson(t.app, 'POST', '/api/video-generation', {
            cookie,
            body: { prompt: 'A kite', model: 'local' },
          })
        ).statusCode,
      ).toBe(201);
      const used = await injectJson(t.app, 'GET', url, { cookie, headers: { 'if-none-match': etag } });
      expect(used.statusCode).toBe(200);
      expect(used.json()).toMatchObject({ dailyUsed: 1 });
      const usedTag = used.headers.etag as string;
      expect((await injectJson(t.app, 'GET', url, { cookie, headers: { 'if-none-match': usedTag } })).statusCode).toBe(
        304,
      );

      // 3am: a new generation day, with no change of the user's.
      clock = new Date('2026-06-10T07:00:00Z');
      const reset = await injectJson(t.app, 'GET', url, { cookie, headers: { 'if-none-match': usedTag } });
      expect(reset.statusCode).toBe(200);
      expect(reset.json()).toMatchObject({ dailyUsed: 0 });
    } finally {
      clock = null;
    }
  });
});
