import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, credentialsOf, signedInAdmin, signIn, uploadFile } from '../../../../tests/support/factories';
import { extendVideo, followJob, payingUser, startGeneration, startPipeline } from '../../../../tests/support/pipeline';
import type { GenerationRecord } from '../../../shared/generations';
import { CONTENT_POLICY_CODE, TAKEN_DOWN_MATCH_MESSAGE } from '../../../shared/moderation';
import {
  type OwnTakedown,
  REPORT_STATEMENT_REQUIRED_CODE,
  type ReportReceipt,
  type SafetyOverview,
  SUSPENDED_CODE,
  TAKEDOWN_STATEMENT,
  type WatchedVideo,
} from '../../../shared/safety';
import { startTestSmtpServer, type TestSmtpServer } from '../../../../tests/support/smtp';
import { adminAuditLog, blockedMediaHashes, generations, safetyReports } from '../../db/schema';

// Reports and takedown (issue 44), through the routes a visitor, an owner and an administrator use,
// on a real database with the worker rendering real videos (the local engine).

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, `../../../../tests/fixtures/${name}`));
const HOUR = 3_600_000;

const METRICS_TOKEN = 'metrics-token-safety-0123456789';

let t: TestApp;
let stop: () => Promise<void>;
let smtp: TestSmtpServer;
let adminCookie: string;
let adminEmail: string;
beforeAll(async () => {
  smtp = await startTestSmtpServer();
  ({ t, stop } = await startPipeline({
    SAFETY_REPORTS_PER_HOUR: '3',
    SAFETY_STRIKES_TO_SUSPEND: '2',
    SMTP_URL: smtp.url,
    METRICS_TOKEN,
  }));
  const signedIn = await signedInAdmin(t.app, t.db, 'safety');
  adminCookie = signedIn.cookie;
  adminEmail = signedIn.admin.email;
}, 120_000);
afterAll(async () => {
  await stop();
  await smtp?.close();
});

/** The mails to this address so far, by subject. */
const mailsTo = (address: string) =>
  smtp.messages
    .filter((mail) => [mail.to ?? []].flat().some((to) => to.text.includes(address)))
    .map((mail) => ({ subject: mail.subject, text: mail.text ?? '' }));

/** A finished local video of a new owner: its record (with its watch link) and the owner. */
async function finishedVideo(body: object = {}) {
  const owner = await payingUser(t, 5000);
  const made = await startGeneration(t, owner.cookie, { model: 'local', duration: 2, resolution: '480p', ...body });
  expect((await followJob(t, made.id, 120_000)).row?.status).toBe('completed');
  return { owner, record: await recordOf(owner.cookie, made.id) };
}

async function recordOf(cookie: string, id: string): Promise<GenerationRecord> {
  const list = await injectJson(t.app, 'GET', '/api/video-generation', { cookie });
  const found = list.json<GenerationRecord[]>().find((record) => record.id === id);
  if (!found) throw new Error(`no record ${id}`);
  return found;
}

const report = (body: object, options: { cookie?: string; remoteAddress?: string } = {}) =>
  injectJson(t.app, 'POST', '/api/reports', {
    body,
    ...(options.cookie ? { cookie: options.cookie } : {}),
    remoteAddress: options.remoteAddress ?? '198.51.100.7',
  });

const overview = async () =>
  (await injectJson(t.app, 'GET', '/api/admin/safety', { cookie: adminCookie })).json<SafetyOverview>();

const decide = (id: string, action: string, note = '') =>
  injectJson(t.app, 'POST', `/api/admin/safety/reports/${id}/${action}`, { cookie: adminCookie, body: { note } });

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

describe('taking a video down', () => {
  it('removes the video, its extend, their files and links, and refuses its picture again by perceptual hash', async () => {
    const owner = await payingUser(t, 5000);
    const imageFile = await uploadFile(t.app, owner.cookie, fixture('chelsea.png'));
    const made = await startGeneration(t, owner.cookie, { model: 'local', duration: 2, resolution: '480p', imageFile });
    expect((await followJob(t, made.id, 120_000)).row?.status).toBe('completed');
    const extension = await extendVideo(t, owner.cookie, made.id, { prompt: 'It goes on', duration: 2 });
    expect((await followJob(t, extension.id, 120_000)).row?.status).toBe('completed');
    const original = await recordOf(owner.cookie, made.id);
    const extended = await recordOf(owner.cookie, extension.id);
    const links = [original.outputVideoUrl, original.posterUrl, extended.outputVideoUrl].map((link) => link ?? '');

    const sent = await report(
      { video: original.outputVideoUrl, reason: 'violence', contact: 'witness@example.com' },
      { remoteAddress: '198.51.100.30' },
    );
    expect(sent.statusCode, sent.body).toBe(201);
    // A second report of the same video: one takedown answers both.
    const second = await report(
      { video: extended.watchPath, reason: 'other', contact: 'second@example.com' },
      { remoteAddress: '198.51.100.31' },
    );
    expect(second.statusCode, second.body).toBe(201);
    const taken = await decide(sent.json<ReportReceipt>().id, 'take-down', 'Graphic violence.');
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json<{ message: string }>().message).toBe('Taken down: the video and 1 made from it were removed.');

    expect(await t.db.select().from(generations).where(eq(generations.userId, owner.user.id))).toEqual([]);
    for (const link of links) expect((await t.app.inject({ method: 'GET', url: link })).statusCode, link).toBe(404);
    const watch = original.watchPath?.split('/').pop() ?? '';
    expect((await injectJson(t.app, 'GET', `/api/watch/${watch}`)).statusCode).toBe(404);
    expect((await t.db.select().from(blockedMediaHashes)).length).toBeGreaterThan(0);
    const audits = await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, 'report_take_down'));
    expect(audits.some((row) => row.targetUserId === owner.user.id)).toBe(true);
    expect((await decide(sent.json<ReportReceipt>().id, 'dismiss')).statusCode).toBe(409);
    expect((await decide(second.json<ReportReceipt>().id, 'dismiss')).statusCode).toBe(409);
    // Both reporters and the owner heard of it (the mail is sent before the answer).
    for (const reporter of ['witness@example.com', 'second@example.com'])
      expect(mailsTo(reporter).map((mail) => mail.subject)).toEqual(['The video you reported was taken down']);
    expect(mailsTo(owner.user.email)).toEqual([
      expect.objectContaining({
        subject: 'A video of yours was taken down',
        text: expect.stringContaining('Graphic violence.'),
      }),
    ]);

    // Its picture cannot come back (re-encoded or not); a different photograph can.
    const again = await putUpload(owner.cookie, fixture('chelsea.png'));
    expect(again.statusCode).toBe(422);
    expect(again.json<{ code: string; message: string }>()).toMatchObject({
      code: CONTENT_POLICY_CODE,
      message: TAKEN_DOWN_MATCH_MESSAGE,
    });
    expect((await putUpload(owner.cookie, fixture('coffee.png'))).statusCode).toBe(200);

    // The owner sees the takedown and appeals it once; the appeal reaches the queue.
    const takedowns = await injectJson(t.app, 'GET', '/api/safety/takedowns', { cookie: owner.cookie });
    expect(takedowns.json<OwnTakedown[]>()).toHaveLength(1);
    const [takedown] = takedowns.json<OwnTakedown[]>();
    expect(takedown).toMatchObject({ reason: 'violence', note: 'Graphic violence.', appeal: null });
    const appealUrl = `/api/safety/takedowns/${takedown?.reportId}/appeal`;
    const appealed = await injectJson(t.app, 'POST', appealUrl, {
      cookie: owner.cookie,
      body: { message: 'It was a film scene with fake blood.' },
    });
    expect(appealed.statusCode, appealed.body).toBe(201);
    const twice = await injectJson(t.app, 'POST', appealUrl, { cookie: owner.cookie, body: { message: 'Again' } });
    expect(twice.statusCode).toBe(409);
    expect(twice.json<{ code: string }>().code).toBe('already_appealed');
    const appeals = (await overview()).items.filter(
      (item) => item.kind === 'appeal' && item.owner?.id === owner.user.id,
    );
    expect(appeals).toHaveLength(1);
    expect(appeals[0]?.description).toBe('It was a film scene with fake blood.');
    // Another user cannot appeal it.
    const stranger = await payingUser(t);
    expect(
      (await injectJson(t.app, 'POST', appealUrl, { cookie: stranger.cookie, body: { message: 'x' } })).statusCode,
    ).toBe(404);
  }, 300_000);

  it('keeps variations made beside the video from the same request', async () => {
    const owner = await payingUser(t, 5000);
    const made = await startGeneration(t, owner.cookie, {
      model: 'local',
      duration: 2,
      resolution: '480p',
      variations: 2,
    });
    const group = (await t.db.select().from(generations).where(eq(generations.userId, owner.user.id))).map(
      (row) => row.id,
    );
    expect(group).toHaveLength(2);
    for (const id of group) expect((await followJob(t, id, 120_000)).row?.status).toBe('completed');
    const sent = await report(
      { video: made.id, reason: 'copyright', contact: 'rights@example.com' },
      { remoteAddress: '198.51.100.40' },
    );
    expect((await decide(sent.json<ReportReceipt>().id, 'take-down')).statusCode).toBe(200);
    const left = await t.db.select().from(generations).where(eq(generations.userId, owner.user.id));
    expect(left.map((row) => row.id)).toEqual(group.filter((id) => id !== made.id));
    // A preview made from a description alone looks like every other one: taking one down must not
    // stop every later preview (its frames are not remembered; a video from a picture's are).
    const next = await startGeneration(t, owner.cookie, { model: 'local', duration: 2, resolution: '480p' });
    expect((await followJob(t, next.id, 120_000)).row?.status).toBe('completed');
  }, 240_000);
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

async function putUpload(cookie: string, body: Buffer) {
  const target = await injectJson(t.app, 'POST', '/api/objects/upload', { cookie });
  return t.app.inject({
    method: 'PUT',
    url: target.json<{ uploadURL: string }>().uploadURL,
    payload: body,
    headers: { 'content-type': 'application/octet-stream' },
  });
}
