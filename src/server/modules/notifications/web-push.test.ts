import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/support/app';
import { loadConfig } from '../../config';
import { vapidKeys, vapidSubject } from './push-keys';
import { findPushKeys } from './notifications.repository';
import { makeVapidKeys } from './web-push';

const root = mkdtempSync(path.join(tmpdir(), 'reelsmith-vapid-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the VAPID key pair', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('carries over the pair an earlier version kept in the data folder, so subscribed browsers still hear', async () => {
    const earlier = await makeVapidKeys();
    const dataDir = mkdtempSync(path.join(root, 'earlier-'));
    writeFileSync(path.join(dataDir, 'vapid-keys.json'), JSON.stringify(earlier));
    t = await createTestApp({ DATA_DIR: dataDir });
    expect(await findPushKeys(t.db)).toEqual(earlier);
    expect(await vapidKeys(t.ctx)).toEqual(earlier);
  });

  it('uses VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when set, and keeps nothing', async () => {
    const configured = await makeVapidKeys();
    t = await createTestApp({ VAPID_PUBLIC_KEY: configured.publicKey, VAPID_PRIVATE_KEY: configured.privateKey });
    expect(await vapidKeys(t.ctx)).toEqual(configured);
    expect(await findPushKeys(t.db)).toBeNull();
  });
});

describe('the contact address push services are given', () => {
  const base = {
    NODE_ENV: 'test',
    SESSION_SECRET: 'test-secret-test-secret-test-secret-123',
    DATA_DIR: root,
  };
  const subject = (env: Record<string, string>) => vapidSubject(loadConfig({ ...base, ...env }));

  it.each([
    [{ VAPID_SUBJECT: 'mailto:push@studio.example.org' }, 'mailto:push@studio.example.org', true],
    [{ OPERATOR_CONTACT: 'ops@studio.org', PUBLIC_URL: 'https://video.studio.org' }, 'mailto:ops@studio.org', true],
    [{ OPERATOR_CONTACT: 'https://studio.org/contact' }, 'https://studio.org/contact', true],
    [{ PUBLIC_URL: 'https://video.studio.org' }, 'https://video.studio.org', true],
    [
      { OPERATOR_CONTACT: 'http://studio.org/contact', PUBLIC_URL: 'http://video.studio.org' },
      'mailto:no-reply@video.studio.org',
      true,
    ],
    // Apple's push service answers BadJwtToken to these: the server warns in its log.
    [{ PUBLIC_URL: 'http://localhost:3000' }, 'mailto:no-reply@localhost', false],
    [{ PUBLIC_URL: 'https://192.168.1.20' }, 'mailto:no-reply@192.168.1.20', false],
    [{ PUBLIC_URL: 'http://reelsmith:3000' }, 'mailto:no-reply@reelsmith', false],
  ])('%o gives %s', (env, expected, acceptable) => {
    expect(subject(env)).toEqual({ subject: expected, acceptable });
  });
});
