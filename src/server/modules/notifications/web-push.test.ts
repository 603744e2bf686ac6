import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { vapidKeys } from './web-push';

const root = mkdtempSync(path.join(tmpdir(), 'reelsmith-vapid-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the VAPID key pair', () => {
  it('is made in a DATA_DIR that does not exist yet (PostgreSQL and S3 leave it unmade), and read back after', async () => {
    const dataDir = path.join(root, 'not', 'made', 'yet');
    const env = {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      SESSION_SECRET: 'test-secret-test-secret-test-secret-123',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/unused',
    };
    const keys = await vapidKeys(loadConfig(env));
    expect(keys.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const stored = JSON.parse(readFileSync(path.join(dataDir, 'vapid-keys.json'), 'utf8')) as { publicKey: string };
    expect(stored.publicKey).toBe(keys.publicKey);
    // Another process (a restart) reads the same pair.
    const again = await vapidKeys(loadConfig(env));
    expect(again.publicKey).toBe(keys.publicKey);
  });
});
