import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import { startTestSmtpServer, type TestSmtpServer } from '../../../../tests/support/smtp';
import type { InstallationSettings } from '../../../shared/installation-settings';
import { installationSettings } from '../../db/schema';

// Mail set up from the browser (issue 45): the SMTP server (a real smtp-server asking for a login)
// is asked with nodemailer's verify before it is kept; password reset mail goes out at once.

let smtp: TestSmtpServer;
let t: TestApp;
let admin: string;
const LOGIN = { user: 'reelsmith', password: 'mail-password-7' };

beforeAll(async () => {
  smtp = await startTestSmtpServer(LOGIN);
  t = await createTestApp();
  admin = await signIn(t.app, await createUser(t.db, { isAdmin: true }));
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const withLogin = (user: string, password: string) => {
  const url = new URL(smtp.url);
  url.username = user;
  url.password = password;
  return url.toString();
};
const passwordReset = async () =>
  (await injectJson(t.app, 'GET', '/api/auth/providers')).json<{ passwordReset: boolean }>().passwordReset;

describe('mail from the browser', () => {
  it('refuses a login the mail server refuses, with its reason, and an address it cannot reach', async () => {
    const refused = await injectJson(t.app, 'PUT', '/api/admin/settings/mail', {
      cookie: admin,
      body: { smtpUrl: withLogin('reelsmith', 'wrong') },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toMatch(/^The mail server refused this: 535 .*Nothing was saved\.$/);
    const unreachable = await injectJson(t.app, 'PUT', '/api/admin/settings/mail', {
      cookie: admin,
      body: { smtpUrl: 'smtp://127.0.0.1:9' },
    });
    expect(unreachable.statusCode).toBe(502);
    expect(
      (await injectJson(t.app, 'PUT', '/api/admin/settings/mail', { cookie: admin, body: { smtpUrl: 'http://x' } }))
        .statusCode,
    ).toBe(400);
    expect(await t.db.select().from(installationSettings)).toEqual([]);
    expect(await passwordReset()).toBe(false);
  });

  it('keeps a working server sealed, and password reset mail goes through it at once', async () => {
    const saved = await injectJson(t.app, 'PUT', '/api/admin/settings/mail', {
      cookie: admin,
      body: { smtpUrl: withLogin(LOGIN.user, LOGIN.password), from: 'Reelsmith <hello@reelsmith.example>' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<InstallationSettings>().mail).toMatchObject({
      source: 'saved',
      server: smtp.url.replace(/\/$/, ''),
      from: 'Reelsmith <hello@reelsmith.example>',
    });
    expect(JSON.stringify(saved.json())).not.toContain(LOGIN.password);
    const [row] = await t.db.select().from(installationSettings);
    expect(JSON.stringify(row)).not.toContain(LOGIN.password);
    expect(await passwordReset()).toBe(true);

    const user = await createUser(t.db);
    const reset = await injectJson(t.app, 'POST', '/api/auth/password-reset', { body: { email: user.email } });
    expect(reset.statusCode, reset.body).toBe(202);
    const mail = await smtp.nextMessage();
    expect(mail.to).toMatchObject({ text: user.email });
    expect(mail.from?.value).toEqual([{ name: 'Reelsmith', address: 'hello@reelsmith.example' }]);

    const removed = await injectJson(t.app, 'DELETE', '/api/admin/settings/mail', { cookie: admin });
    expect(removed.json<InstallationSettings>().mail.source).toBe('none');
    expect(await passwordReset()).toBe(false);
  });
});
