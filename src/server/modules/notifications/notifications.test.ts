import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectJson } from '../../../../tests/support/app';
import { type FakePushService, startFakePushService } from '../../../../tests/support/fake-push-service';
import { followJob, payingUser, startGeneration, startPipeline } from '../../../../tests/support/pipeline';
import { startTestSmtpServer, type TestSmtpServer } from '../../../../tests/support/smtp';
import type { NotificationSettings } from '../../../shared/notifications';
import { findPushKeys, keepPushKeys } from './notifications.repository';
import { settleNotifications } from './notifications.service';

let push: FakePushService;
let smtp: TestSmtpServer;
let pipeline: Awaited<ReturnType<typeof startPipeline>>;

beforeAll(async () => {
  [push, smtp] = await Promise.all([startFakePushService(), startTestSmtpServer()]);
  pipeline = await startPipeline({ PUSH_ALLOWED_HOSTS: push.host, SMTP_URL: smtp.url });
}, 300_000);
afterAll(async () => {
  await pipeline.stop();
  await Promise.all([push.close(), smtp.close()]);
});

/** A finished local-engine video of this user's, with every notification about it sent. */
async function finishVideo(cookie: string, prompt: string) {
  const { t } = pipeline;
  // The smallest video the local engine makes: what is tested is the notice, not the picture.
  const record = await startGeneration(t, cookie, { prompt, duration: 2, resolution: '480p' });
  const { row } = await followJob(t, record.id, 240_000);
  expect(row?.status).toBe('completed');
  await settleNotifications(t.ctx);
  return record.id;
}

// Each test renders short local videos: generous limits, so a busy machine slows them without failing them.
describe('notifications when a video is ready', { timeout: 240_000 }, () => {
  it('pushes an encrypted, VAPID-signed message to each subscribed browser, which decrypts it', async () => {
    const { t } = pipeline;
    const { cookie } = await payingUser(t);
    const browser = push.subscribe();
    const subscribed = await injectJson(t.app, 'POST', '/api/notifications/push-subscriptions', {
      cookie,
      body: browser.json,
    });
    expect(subscribed.statusCode, subscribed.body).toBe(201);
    const settings = subscribed.json<NotificationSettings>();
    expect(settings.push.subscriptions).toBe(1);

    const id = await finishVideo(cookie, 'A red fox walking through fresh snow at dawn');
    const [message] = await push.waitForMessages(1);
    expect(message?.vapidKey).toBe(settings.push.publicKey);
    expect(message?.claims.aud).toBe(`http://${push.host}`);
    expect(message?.claims.sub).toBe('mailto:no-reply@localhost');
    expect(message?.ttl).toBe(86_400);
    expect(JSON.parse(message?.payload ?? '')).toEqual({
      title: 'Your video is ready',
      body: '“A red fox walking through fresh snow at dawn” is ready to watch.',
      url: `/media?video=${id}`,
      tag: `video-${id}`,
    });
  });

  it('e-mails a user who chose it, and nobody who did not', async () => {
    const { t } = pipeline;
    const quiet = await payingUser(t);
    await finishVideo(quiet.cookie, 'No mail for this one');
    const { user, cookie } = await payingUser(t);
    const chosen = await injectJson(t.app, 'PUT', '/api/notifications/email', { cookie, body: { enabled: true } });
    expect(chosen.json<NotificationSettings>().email).toEqual({ available: true, enabled: true });

    const id = await finishVideo(cookie, 'A lighthouse in a storm');
    const mail = await smtp.nextMessage();
    expect(mail.to).toMatchObject({ text: user.email });
    expect(mail.subject).toBe('Your video is ready');
    expect(mail.text).toContain('“A lighthouse in a storm” is ready to watch.');
    expect(mail.text).toContain(`http://localhost:3000/media?video=${id}`);
    expect(mail.text).toContain('It is kept for 24 hours.');
    expect(smtp.messages.filter((m) => m.subject === 'Your video is ready')).toHaveLength(1);
  });

  it('sends nothing while a tab of the user is in front of them, and again once it is not', async () => {
    const { t } = pipeline;
    const { cookie } = await payingUser(t);
    const browser = push.subscribe();
    await injectJson(t.app, 'POST', '/api/notifications/push-subscriptions', { cookie, body: browser.json });
    const before = push.received.length;

    const present = await injectJson(t.app, 'POST', '/api/notifications/presence', { cookie, body: { visible: true } });
    expect(present.statusCode).toBe(204);
    await finishVideo(cookie, 'Watched while it rendered');
    await injectJson(t.app, 'POST', '/api/notifications/presence', { cookie, body: { visible: false } });
    const id = await finishVideo(cookie, 'Finished while away');

    const mine = (await push.waitForMessages(before + 1)).slice(before);
    expect(mine.map((m) => JSON.parse(m.payload) as { url: string })).toEqual([
      expect.objectContaining({ url: `/media?video=${id}` }),
    ]);
    expect(push.received.filter((m) => m.subscriptionId === browser.json.endpoint.split('/').pop())).toHaveLength(1);
  });

  it('forgets a subscription its push service says is gone (410)', async () => {
    const { t } = pipeline;
    const { cookie } = await payingUser(t);
    const browser = push.subscribe();
    await injectJson(t.app, 'POST', '/api/notifications/push-subscriptions', { cookie, body: browser.json });
    push.setStatus(browser.json.endpoint.split('/').pop() ?? '', 410);
    await finishVideo(cookie, 'Nobody is subscribed any more');
    const settings = await injectJson(t.app, 'GET', '/api/notifications', { cookie });
    expect(settings.json<NotificationSettings>().push.subscriptions).toBe(0);
  });

  it('refuses endpoints that are not a push service this server sends to', async () => {
    const { t } = pipeline;
    const { cookie } = await payingUser(t);
    const keys = push.subscribe().json.keys;
    for (const endpoint of [
      'http://127.0.0.1:9/push/x',
      'https://169.254.169.254/latest/meta-data',
      'https://evil.example.com/push',
      'https://fcm.googleapis.com.evil.example.com/fcm/send/x',
      'http://fcm.googleapis.com/fcm/send/x',
      'https://user:pw@fcm.googleapis.com/fcm/send/x',
    ]) {
      const response = await injectJson(t.app, 'POST', '/api/notifications/push-subscriptions', {
        cookie,
        body: { endpoint, keys },
      });
      expect(response.statusCode, endpoint).toBe(400);
    }
    const bad = await injectJson(t.app, 'POST', '/api/notifications/push-subscriptions', {
      cookie,
      body: { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: { p256dh: 'AAAA', auth: keys.auth } },
    });
    expect(bad.statusCode).toBe(400);
    const google = await injectJson(t.app, 'POST', '/api/notifications/push-subscriptions', {
      cookie,
      body: { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys },
    });
    expect(google.statusCode).toBe(201);
    const removed = await injectJson(t.app, 'DELETE', '/api/notifications/push-subscriptions', {
      cookie,
      body: { endpoint: 'https://fcm.googleapis.com/fcm/send/abc' },
    });
    expect(removed.json<NotificationSettings>().push.subscriptions).toBe(0);
  });

  it('keeps the installation’s VAPID key pair in the database, the one every process signs with', async () => {
    const { t } = pipeline;
    const { cookie } = await payingUser(t);
    const first = (await injectJson(t.app, 'GET', '/api/notifications', { cookie })).json<NotificationSettings>();
    expect(first.push.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const kept = await findPushKeys(t.db);
    expect(kept?.publicKey).toBe(first.push.publicKey);
    // Kept first wins: a second process that made its own pair at the same time answers the kept one.
    const other = await keepPushKeys(t.db, { publicKey: 'another', privateKey: 'another' });
    expect(other.publicKey).toBe(first.push.publicKey);
  });

  it('answers 401 to a visitor', async () => {
    const response = await injectJson(pipeline.t.app, 'GET', '/api/notifications');
    expect(response.statusCode).toBe(401);
  });
});
