import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../tests/support/app';
import { createUser, signIn, signedInAdmin, uploadFile } from '../../../tests/support/factories';
import { adminAuditLog, sessions, uploads, users } from '../db/schema';
import { adminActor, SELF_ACTOR } from '../modules/admin/admin.service';
import { deleteAccount } from './delete-account';

// The one deletion of an account, as both routes start it: rows, sessions and stored files go; the last
// administrator is refused before anything is touched.
const PHOTO = readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures/coffee.png'));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const userRow = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0];

describe('deleteAccount', () => {
  it('deletes the user’s rows, sessions and uploaded files, with an audit row naming the administrator', async () => {
    const { admin } = await signedInAdmin(t.app, t.db);
    const user = await createUser(t.db);
    const cookie = await signIn(t.app, user);
    await uploadFile(t.app, cookie, PHOTO);
    const [upload] = await t.db.select().from(uploads).where(eq(uploads.userId, user.id));
    expect(upload && (await t.ctx.storage.stat(upload.objectKey))).toBeTruthy();

    const deleted = await deleteAccount(t.ctx, adminActor(admin), user.id);
    expect(deleted.id).toBe(user.id);
    expect(await userRow(user.id)).toBeUndefined();
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect(upload && (await t.ctx.storage.stat(upload.objectKey))).toBeNull();
    const audit = await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetUserId, user.id));
    expect(audit.map((row) => [row.action, row.actorUserId])).toEqual([['user.delete', admin.id]]);
  });

  it('refuses the last administrator (409 last_admin) and leaves everything in place', async () => {
    await t.db.update(users).set({ isAdmin: false }).where(eq(users.isAdmin, true));
    const { admin, cookie } = await signedInAdmin(t.app, t.db, 'only-admin');
    await expect(deleteAccount(t.ctx, SELF_ACTOR, admin.id)).rejects.toMatchObject({
      status: 409,
      code: 'last_admin',
    });
    expect(await userRow(admin.id)).toBeDefined();
    expect((await injectJson(t.app, 'GET', '/api/auth/user', { cookie })).statusCode).toBe(200);
  });

  it('answers 404 user_not_found for an account that is gone', async () => {
    await expect(deleteAccount(t.ctx, SELF_ACTOR, '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      status: 404,
      code: 'user_not_found',
    });
  });
});
