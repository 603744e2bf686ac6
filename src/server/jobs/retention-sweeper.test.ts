import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../tests/support/app';
import { createUser, signIn } from '../../../tests/support/factories';
import { sessions } from '../db/schema';
import { sweepExpired } from './retention-sweeper';

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
});
