import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../tests/support/app';
import { createUser, signIn } from '../../../tests/support/factories';
import { sessions, uploads } from '../db/schema';
import { makeWorkDir, removeStaleWorkDirs, removeWorkDir } from '../media/work-dirs';
import { sweepExpired } from './retention-sweeper';

const HOUR = 3600_000;
/** Sets a file's or folder's times to `msAgo` in the past. */
const age = (file: string, msAgo: number) =>
  utimesSync(file, new Date(Date.now() - msAgo), new Date(Date.now() - msAgo));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('the retention sweep', () => {
  it('deletes sessions past their expiry and keeps live ones signed in', async () => {
    const user = await createUser(t.db);
    const cookie = await signIn(t.app, user);
    await t.db.insert(sessions).values([
      { id: 'expired-a', userId: user.id, expiresAt: new Date(Date.now() - 60_000) },
      { id: 'expired-b', userId: user.id, expiresAt: new Date(Date.now() - 86_400_000) },
    ]);

    const swept = await sweepExpired(t.ctx);

    expect(swept.sessions).toBe(2);
    const left = await t.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id));
    expect(left).toHaveLength(1);
    expect((await injectJson(t.app, 'GET', '/api/auth/user', { cookie })).statusCode).toBe(200);
    expect((await sweepExpired(t.ctx)).sessions).toBe(0);
  });

  it('removes uploads abandoned mid-transfer and the partial files they left, but none that may still be arriving', async () => {
    const user = await createUser(t.db);
    const row = (id: string, status: 'receiving' | 'completed', createdAt: Date) => ({
      id,
      userId: user.id,
      objectKey: `uploads/${user.id}/${id}`,
      status,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + 24 * HOUR),
    });
    const [abandoned, arriving, done] = ['a', 'b', 'c'].map((c) => `${c.repeat(8)}-0000-4000-8000-000000000000`) as [
      string,
      string,
      string,
    ];
    await t.db
      .insert(uploads)
      .values([
        row(abandoned, 'receiving', new Date(Date.now() - 2 * HOUR)),
        row(arriving, 'receiving', new Date(Date.now() - 60_000)),
        row(done, 'completed', new Date(Date.now() - 2 * HOUR)),
      ]);
    await t.ctx.storage.put(
      `uploads/${user.id}/${abandoned}`,
      Readable.from([Buffer.from('half a file')]),
      'video/mp4',
    );
    const partials = path.join(t.dataDir, 'objects', '.partial');
    mkdirSync(partials, { recursive: true });
    writeFileSync(path.join(partials, 'dead.part'), 'left by a crash');
    age(path.join(partials, 'dead.part'), 2 * HOUR);
    writeFileSync(path.join(partials, 'live.part'), 'being written');

    const swept = await sweepExpired(t.ctx);

    expect(swept).toMatchObject({ abandonedUploads: 1, partialFiles: 1 });
    const left = await t.db
      .select({ id: uploads.id })
      .from(uploads)
      .where(inArray(uploads.id, [abandoned, arriving, done]));
    expect(left.map((r) => r.id).sort()).toEqual([arriving, done]);
    expect(await t.ctx.storage.stat(`uploads/${user.id}/${abandoned}`)).toBeNull();
    expect(existsSync(path.join(partials, 'dead.part'))).toBe(false);
    expect(existsSync(path.join(partials, 'live.part'))).toBe(true);
  });

  it('removes work folders a dead process left in the temp folder', async () => {
    const dead = mkdtempSync(path.join(tmpdir(), 'reelsmith-job-'));
    writeFileSync(path.join(dead, 'output.mp4'), 'half a render');
    age(dead, 2 * HOUR);
    const recent = mkdtempSync(path.join(tmpdir(), 'reelsmith-job-'));
    try {
      await sweepExpired(t.ctx);
      expect([existsSync(dead), existsSync(recent)]).toEqual([false, true]);
    } finally {
      rmSync(recent, { recursive: true, force: true });
    }
  });

  it('takes only work folders older than the limit, never one this process is using, nor anything else', async () => {
    // A folder of its own: another test process sweeping the shared temp folder cannot interfere.
    const root = mkdtempSync(path.join(tmpdir(), 'reelsmith-sweep-root-'));
    const dead = mkdtempSync(path.join(root, 'reelsmith-job-'));
    const deadCheck = mkdtempSync(path.join(root, 'reelsmith-upload-check-'));
    const recent = mkdtempSync(path.join(root, 'reelsmith-job-'));
    const inUse = await makeWorkDir('job', root);
    const other = mkdtempSync(path.join(root, 'reelsmith-jobless-'));
    for (const dir of [dead, deadCheck, inUse, other]) age(dir, 2 * HOUR);
    try {
      expect(await removeStaleWorkDirs(HOUR, root)).toBe(2);
      expect([dead, deadCheck, recent, inUse, other].map((dir) => existsSync(dir))).toEqual([
        false,
        false,
        true,
        true,
        true,
      ]);
    } finally {
      await removeWorkDir(inUse);
      rmSync(root, { recursive: true, force: true });
    }
  });
});
