import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, credentialsOf, signIn } from '../../../../tests/support/factories';
import { followJob, payingUser, startGeneration } from '../../../../tests/support/pipeline';
import * as safety from '../../../../tests/support/safety';
import {
  REPORT_STATEMENT_REQUIRED_CODE,
  type ReportReceipt,
  SUSPENDED_CODE,
  TAKEDOWN_STATEMENT,
  type WatchedVideo,
} from '../../../shared/safety';
import { adminAuditLog, safetyReports } from '../../db/schema';

// Reports (issue 44), through the routes a visitor, an owner and an administrator use, on a real
// database with the worker rendering real videos (the local engine). Taking a video down is its
// workflow's test (src/server/workflows/take-down.test.ts).

const HOUR = 3_600_000;

const METRICS_TOKEN = 'metrics-token-safety-0123456789';

const app = safety.useSafetyApp({ SAFETY_REPORTS_PER_HOUR: '3', SAFETY_STRIKES_TO_SUSPEND: '2', METRICS_TOKEN });
let t: TestApp;
let adminCookie: string;
let adminEmail: string;
beforeAll(() => {
  ({ t, adminCookie, adminEmail } = app);
});

const { mailsTo, recordOf, report, overview, decide } = app;

/** A finished local video of a new owner: its record (with its watch link) and the owner. */
async function finishedVideo(body: object = {}) {
  const owner = await payingUser(t, 5000);
  const made = await startGeneration(t, owner.cookie, { model: 'local', duration: 2, resolution: '480p', ...body });
  expect((await followJob(t, made.id, 120_000)).row?.status).toBe('completed');
  return { owner, record: await recordOf(owner.cookie, made.id) };
}

/**
 * A finished video for the tests that only send reports about it (refused ones, a flood), made on
 * first use: each counts what it adds, so one render does for both.
 */
let reportedVideo: ReturnType<typeof finishedVideo> | undefined;
const sharedVideo = () => (reportedVideo ??= finishedVideo());

const reportsOf = (id: string) => t.db.select().from(safetyReports).where(eq(safetyReports.generationId, id));

describe('reporting a video', () => {
  it("takes a signed-out visitor's report through the watch page into the queue, with its 48-hour clock", async () => {
    const { record } = await finishedVideo();
    expect(record.watchPath).toMatch(/^\/watch\/[0-9a-f-]{36}\.\d+\.[\w-]+$/);
    // The watch page anyone with the link opens.
    const token = record.watchPath?.split('/').pop() ?? '';
    const watched = await injectJson(t.app, 'GET', `/api/watch/${token}`);
    expect(watched.statusCode, watched.body).toBe(200);
    const page = watched.json<WatchedVideo>();
    expect(page.id).toBe(record.id);
    expect((await t.app.inject({ method: 'GET', url: page.videoUrl })).statusCode).toBe(200);
    // A forged link opens nothing.
    expect((await injectJson(t.app, 'GET', `/api/watch/${token.slice(0, -2)}xx`)).statusCode).toBe(404);

    const before = Date.now();
    const sent = await report({
      video: `http://localhost:3000${record.watchPath}`,
      reason: 'likeness',
      description: 'This is my face; I never agreed to it.',
      contact: 'person@example.com',
      statement: true,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const receipt = sent.json<ReportReceipt>();
    const due = new Date(receipt.dueAt).getTime();
    expect(due).toBeGreaterThanOrEqual(before + 48 * HOUR - 1000);
    expect(due).toBeLessThanOrEqual(Date.now() + 48 * HOUR + 1000);

    const item = (await overview()).items.find((entry) => entry.id === receipt.id);
    expect(item).toMatchObject({
      kind: 'report',
      reason: 'likeness',
      description: 'This is my face; I never agreed to it.',
      reporterContact: 'person@example.com',
      video: { id: record.id, prompt: record.prompt },
      owner: { strikes: 0, suspended: false, videos: 1, reports: 1 },
    });
    expect((await t.app.inject({ method: 'GET', url: item?.video?.videoUrl ?? '/missing' })).statusCode).toBe(200);

    // The administrators heard of it by mail (sent before the answer), with its deadline and where to decide it.
    const told = mailsTo(adminEmail).filter(
      (mail) => mail.text.includes(receipt.id) || mail.text.includes('This is my face'),
    );
    expect(told).toHaveLength(1);
    expect(told[0]?.subject).toBe(`A video was reported: decide by ${new Date(receipt.dueAt).toUTCString()}`);
    expect(told[0]?.text).toContain('/admin/safety');
    expect(told[0]?.text).toContain("A real person's likeness used without consent");
    // A second report of the same open case adds no mail.
    const again = await report(
      { video: record.id, reason: 'other', contact: 'second@example.org', description: 'Also this one.' },
      { remoteAddress: '198.51.100.8' },
    );
    expect(again.statusCode, again.body).toBe(201);
    expect(mailsTo(adminEmail).filter((mail) => mail.text.includes('Also this one.'))).toEqual([]);
  }, 180_000);

  it('asks for the statement about a person shown, an email from a visitor, and a video that exists', async () => {
    const { record } = await sharedVideo();
    const before = await reportsOf(record.id);
    const base = { video: record.id, reason: 'intimate_image', contact: 'a@example.com' };
    const unstated = await report(base, { remoteAddress: '198.51.100.20' });
    expect(unstated.statusCode).toBe(422);
    expect(unstated.json<{ code: string }>().code).toBe(REPORT_STATEMENT_REQUIRED_CODE);
    const anonymous = await report({ ...base, contact: '', statement: true }, { remoteAddress: '198.51.100.20' });
    expect(anonymous.statusCode).toBe(400);
    expect(anonymous.json<{ code: string }>().code).toBe('contact_required');
    const missing = await report(
      { ...base, video: '00000000-0000-4000-8000-000000000000', statement: true },
      { remoteAddress: '198.51.100.20' },
    );
    expect(missing.statusCode).toBe(404);
    const badReason = await report({ ...base, reason: 'boring' }, { remoteAddress: '198.51.100.20' });
    expect(badReason.statusCode).toBe(400);
    // None of those was stored.
    expect(await reportsOf(record.id)).toEqual(before);
    expect(TAKEDOWN_STATEMENT).toContain('good faith');
  }, 180_000);

  it('limits report flooding from one address, and from one account', async () => {
    const { record } = await sharedVideo();
    const body = { video: record.id, reason: 'other', contact: 'flood@example.com', description: 'spam' };
    for (let i = 0; i < 3; i += 1) expect((await report(body, { remoteAddress: '203.0.113.9' })).statusCode).toBe(201);
    const limited = await report(body, { remoteAddress: '203.0.113.9' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json<{ code: string }>().code).toBe('too_many_reports');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not limited by it; one account across addresses is.
    expect((await report(body, { remoteAddress: '203.0.113.10' })).statusCode).toBe(201);
    const reporter = await createUser(t.db);
    const cookie = await signIn(t.app, reporter);
    for (let i = 0; i < 3; i += 1)
      expect((await report(body, { cookie, remoteAddress: `192.0.2.${i + 1}` })).statusCode).toBe(201);
    expect((await report(body, { cookie, remoteAddress: '192.0.2.99' })).statusCode).toBe(429);
  }, 180_000);
});

describe("an owner's strikes", () => {
  it('suspends on the second warning: no generating, no sign-in, no tokens; an administrator lets them in again', async () => {
    const owner = await createUser(t.db, { creditsHundredths: 1000 });
    const cookie = await signIn(t.app, owner);
    const token = (
      await injectJson(t.app, 'POST', '/api/account/tokens', {
        cookie,
        body: { name: 'bot', scopes: ['videos:write'] },
      })
    ).json<{ token: string }>().token;
    const act = (action: string) =>
      injectJson(t.app, 'POST', `/api/admin/safety/users/${owner.id}/${action}`, { cookie: adminCookie });

    expect((await act('warn')).json<{ message: string }>().message).toBe('Warned: strike 1.');
    expect((await injectJson(t.app, 'GET', '/api/auth/user', { cookie })).statusCode).toBe(200);
    expect((await act('warn')).json<{ message: string }>().message).toBe(
      'Warned: strike 2, so the account is suspended.',
    );
    // Signed out everywhere, and kept out.
    expect((await injectJson(t.app, 'GET', '/api/auth/user', { cookie })).statusCode).toBe(401);
    const generate = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie,
      body: { prompt: 'A lighthouse', model: 'local', duration: 2 },
    });
    expect(generate.statusCode).toBe(401);
    const login = await injectJson(t.app, 'POST', '/api/auth/login', {
      body: credentialsOf(owner),
    });
    expect(login.statusCode).toBe(403);
    expect(login.json<{ code: string }>().code).toBe(SUSPENDED_CODE);
    const byToken = await injectJson(t.app, 'POST', '/api/video-generation', {
      headers: { authorization: `Bearer ${token}` },
      body: { prompt: 'A lighthouse', model: 'local', duration: 2 },
    });
    expect(byToken.statusCode).toBe(403);
    expect(byToken.json<{ code: string }>().code).toBe(SUSPENDED_CODE);

    expect((await act('unsuspend')).statusCode).toBe(200);
    expect((await signIn(t.app, owner)).length).toBeGreaterThan(0);
    const audits = await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetUserId, owner.id));
    expect(audits.map((row) => row.action).sort()).toEqual(['owner_unsuspend', 'owner_warn', 'owner_warn']);
  }, 120_000);

  it('refuses the safety routes to anyone but an administrator', async () => {
    const user = await payingUser(t);
    expect((await injectJson(t.app, 'GET', '/api/admin/safety', { cookie: user.cookie })).statusCode).toBe(403);
    expect((await injectJson(t.app, 'GET', '/api/admin/safety')).statusCode).toBe(401);
    expect((await injectJson(t.app, 'GET', '/api/safety/takedowns')).statusCode).toBe(401);
  });
});

describe('the queue', () => {
  it('lists open items nearest deadline first, with the figures', async () => {
    // Two decided reports for the figures, dismissed as an administrator dismisses a mistaken one.
    const { record } = await sharedVideo();
    for (const [remoteAddress, contact] of [
      ['198.51.100.50', 'first-figure@example.com'],
      ['198.51.100.51', 'second-figure@example.com'],
    ] as const) {
      const sent = await report({ video: record.watchPath, reason: 'other', contact }, { remoteAddress });
      expect(sent.statusCode, sent.body).toBe(201);
      const dismissed = await decide(sent.json<ReportReceipt>().id, 'dismiss');
      expect(dismissed.statusCode, dismissed.body).toBe(200);
    }
    const { items, stats } = await overview();
    const dues = items.map((item) => item.dueAt);
    expect(dues).toEqual([...dues].sort());
    expect(stats.open).toBeGreaterThan(0);
    expect(stats.byReason.find((row) => row.reason === 'other')?.count).toBeGreaterThanOrEqual(4);
    expect(stats.decided).toBeGreaterThanOrEqual(2);
    expect(stats.medianDecisionHours).not.toBeNull();
    // The same figures for Prometheus.
    const metrics = await injectJson(t.app, 'GET', '/metrics', {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(metrics.statusCode).toBe(200);
    const other = stats.byReason.find((row) => row.reason === 'other')?.count;
    expect(metrics.body).toContain(`reelsmith_safety_reports_total{reason="other"} ${other}`);
    expect(metrics.body).toContain(`reelsmith_safety_open_items ${stats.open}`);
    expect(metrics.body).toMatch(/reelsmith_safety_decision_median_seconds \d/);
  });
});
