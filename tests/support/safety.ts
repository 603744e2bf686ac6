import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { GenerationRecord } from '../../src/shared/generations';
import type { SafetyOverview } from '../../src/shared/safety';
import { injectJson, type TestApp } from './app';
import { signedInAdmin } from './factories';
import { startPipeline } from './pipeline';
import { startTestSmtpServer, type TestSmtpServer } from './smtp';

// Reports and takedown (issue 44) through the routes a visitor, an owner and an administrator use:
// what the tests of reporting (modules/safety) and of taking down (workflows/take-down) share.

/** A test file's app: the worker rendering real videos (the local engine), a mail server and an administrator. */
export interface SafetyApp {
  t: TestApp;
  smtp: TestSmtpServer;
  adminCookie: string;
  adminEmail: string;
}

/**
 * Starts the file's app before its first test (the object's fields fill in then) and stops it after
 * its last; the calls the tests make come bound to it.
 */
export function useSafetyApp(env: Record<string, string> = {}): SafetyApp & ReturnType<typeof callsOn> {
  const app = {} as SafetyApp;
  let stop: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    app.smtp = await startTestSmtpServer();
    const started = await startPipeline({ SMTP_URL: app.smtp.url, ...env });
    app.t = started.t;
    stop = started.stop;
    const signedIn = await signedInAdmin(app.t.app, app.t.db, 'safety');
    app.adminCookie = signedIn.cookie;
    app.adminEmail = signedIn.admin.email;
  }, 120_000);
  afterAll(async () => {
    await stop();
    await app.smtp?.close();
  });
  return Object.assign(app, callsOn(app));
}

export const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, `../fixtures/${name}`));

/** The routes the safety tests call, on one file's app. */
function callsOn(app: SafetyApp) {
  return {
    /** The mails to this address so far, by subject. */
    mailsTo: (address: string) =>
      app.smtp.messages
        .filter((mail) => [mail.to ?? []].flat().some((to) => to.text.includes(address)))
        .map((mail) => ({ subject: mail.subject, text: mail.text ?? '' })),

    recordOf: async (cookie: string, id: string): Promise<GenerationRecord> => {
      const list = await injectJson(app.t.app, 'GET', '/api/video-generation', { cookie });
      const found = list.json<GenerationRecord[]>().find((record) => record.id === id);
      if (!found) throw new Error(`no record ${id}`);
      return found;
    },

    /** POST /api/reports, from a documentation address unless another is given. */
    report: (body: object, options: { cookie?: string; remoteAddress?: string } = {}) =>
      injectJson(app.t.app, 'POST', '/api/reports', {
        body,
        ...(options.cookie ? { cookie: options.cookie } : {}),
        remoteAddress: options.remoteAddress ?? '198.51.100.7',
      }),

    overview: async () =>
      (await injectJson(app.t.app, 'GET', '/api/admin/safety', { cookie: app.adminCookie })).json<SafetyOverview>(),

    /** The administrator's decision on a report: take-down, dismiss, warn... */
    decide: (id: string, action: string, note = '') =>
      injectJson(app.t.app, 'POST', `/api/admin/safety/reports/${id}/${action}`, {
        cookie: app.adminCookie,
        body: { note },
      }),

    /** An upload as the browser sends it: a signed target, then the bytes. */
    putUpload: async (cookie: string, body: Buffer) => {
      const target = await injectJson(app.t.app, 'POST', '/api/objects/upload', { cookie });
      return app.t.app.inject({
        method: 'PUT',
        url: target.json<{ uploadURL: string }>().uploadURL,
        payload: body,
        headers: { 'content-type': 'application/octet-stream' },
      });
    },
  };
}
