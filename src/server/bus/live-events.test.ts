import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/support/app';
import { createUser } from '../../../tests/support/factories';
import { users } from '../db/schema';
import { publishBalanceChange, publishGenerationChange } from './publish';
import { type LiveEventMap, parseLiveEvent, subscribeLiveEvents } from './subscribe';

type Heard = { kind: keyof LiveEventMap } & (LiveEventMap['generation'] | LiveEventMap['balance']);

describe('the live events bus', () => {
  let t: TestApp;
  const heard: Heard[] = [];
  let waiters: (() => void)[] = [];
  let stop: () => Promise<void>;

  const hear = (event: Heard) => {
    heard.push(event);
    for (const wake of waiters) wake();
    waiters = [];
  };
  /** Resolves when an event matching `test` has been heard. */
  const heardOne = (test: (event: Heard) => boolean) =>
    new Promise<Heard>((resolve) => {
      const check = () => {
        const found = heard.find(test);
        if (found) resolve(found);
        else waiters.push(check);
      };
      check();
    });
  const liveVersionOf = async (userId: string) =>
    (await t.db.select().from(users).where(eq(users.id, userId)))[0]!.liveVersion;

  beforeAll(async () => {
    t = await createTestApp();
    stop = await subscribeLiveEvents(t.ctx, {
      generation: (event) => hear({ kind: 'generation', ...event }),
      balance: (event) => hear({ kind: 'balance', ...event }),
      onReconnect: () => undefined,
      onError: (error) => {
        throw error;
      },
    });
  });
  afterAll(async () => {
    await stop?.();
    await t?.close();
  });

  it("tells subscribers of a change when its transaction commits, and moves the user's live_version with it", async () => {
    const user = await createUser(t.db);
    const generationId = randomUUID();
    await t.db.transaction(async (tx) => {
      await publishGenerationChange(tx, user.id, generationId);
      await publishBalanceChange(tx, user.id);
    });
    const generation = await heardOne((event) => event.userId === user.id && event.kind === 'generation');
    const balance = await heardOne((event) => event.userId === user.id && event.kind === 'balance');
    expect(generation).toMatchObject({ generationId });
    expect(balance.id).toBeGreaterThan(generation.id);
    expect(await liveVersionOf(user.id)).toBe(balance.id);
  });

  it('never tells of a change whose transaction rolled back', async () => {
    const user = await createUser(t.db);
    const before = await liveVersionOf(user.id);
    await expect(
      t.db.transaction(async (tx) => {
        await publishBalanceChange(tx, user.id);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await liveVersionOf(user.id)).toBe(before);
    // Notifications arrive in commit order: once a later change is heard, the rolled-back one never will be.
    const generationId = randomUUID();
    await publishGenerationChange(t.db, user.id, generationId);
    await heardOne((event) => event.userId === user.id && event.kind === 'generation');
    expect(heard.filter((event) => event.userId === user.id)).toEqual([
      expect.objectContaining({ kind: 'generation', generationId }),
    ]);
  });

  it('reads only the notifications it knows', () => {
    expect(parseLiveEvent('{"id":7,"u":"u1","k":"balance","g":null}')).toEqual({
      kind: 'balance',
      id: 7,
      userId: 'u1',
    });
    expect(parseLiveEvent('{"id":8,"u":"u1","k":"generation","g":"g1"}')).toEqual({
      kind: 'generation',
      id: 8,
      userId: 'u1',
      generationId: 'g1',
    });
    expect(parseLiveEvent('{"id":9,"u":"u1","k":"generation","g":null}')).toBeNull();
    expect(parseLiveEvent('{"id":"9","u":"u1","k":"balance"}')).toBeNull();
    expect(parseLiveEvent('{"id":9,"u":"u1","k":"payment"}')).toBeNull();
    expect(parseLiveEvent('not json')).toBeNull();
  });
});
