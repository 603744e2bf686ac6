import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../tests/support/app';
import { injectJson } from '../../../tests/support/app';
import { uploadFile } from '../../../tests/support/factories';
import { extendVideo, followJob, payingUser, startGeneration } from '../../../tests/support/pipeline';
import * as safety from '../../../tests/support/safety';
import { CONTENT_POLICY_CODE, TAKEN_DOWN_MATCH_MESSAGE } from '../../shared/moderation';
import type { OwnTakedown, ReportReceipt } from '../../shared/safety';
import { adminAuditLog, blockedMediaHashes, generations } from '../db/schema';

// Taking a reported video down (take-down.ts), as an administrator does it from the safety queue:
// through the routes, on a real database with the worker rendering real videos (the local engine)
// and a mail server. Reporting itself: src/server/modules/safety/reports-takedown.test.ts.

const app = safety.useSafetyApp();
let t: TestApp;
beforeAll(() => {
  ({ t } = app);
});

const { fixture } = safety;
const { mailsTo, recordOf, report, overview, decide, putUpload } = app;

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
