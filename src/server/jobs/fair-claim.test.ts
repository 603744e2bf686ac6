import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../tests/support/app';
import { createUser, signIn } from '../../../tests/support/factories';
import type { GenerationRecord } from '../../shared/generations';
import { generations } from '../db/schema';
import { insertPaidGeneration, lockPayer } from '../modules/generations/generations.repository';
import * as queue from './queue.repository';

// The queue is fair between users: one user's batch never holds another user's single job behind it.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 180_000);
afterAll(async () => {
  await t.close();
});

/**
 * Queues jobs of a user as POST /api/video-generation writes them (the same insert, which gives each
 * its turn), in one transaction under the user's row lock; more than the per-user limit lets through
 * the API, to see a large batch.
 */
async function enqueue(userId: string, count: number): Promise<void> {
  await t.db.transaction(async (tx) => {
    await lockPayer(tx, userId);
    for (let i = 0; i < count; i++) {
      await insertPaidGeneration(
        tx,
        {
          id: randomUUID(),
          userId,
          prompt: `Job ${i + 1}`,
          model: 'local',
          requestedDuration: 5,
          hasAudio: false,
          isEconomy: false,
          settings: {},
          inputs: {},
          endImage: null,
          referenceImages: [],
          progressStage: 'Waiting in queue',
          creditsUsedHundredths: 0,
          providerCostMicroUsd: null,
          paidWith: 'unlimited',
          parentId: null,
          groupId: null,
          extension: null,
          consent: null,
          heldForReview: null,
        },
        { charge: null, eventKind: 'generation' },
      );
    }
  });
}

/** One worker: claims a job, finishes it, claims the next; answers the owners in claim order. */
async function claimAll(count: number): Promise<string[]> {
  const order: string[] = [];
  for (let i = 0; i < count; i++) {
    const row = await t.db.transaction((tx) => queue.claimNext(tx, 'only-worker', 60));
    if (!row) break;
    order.push(row.userId);
    await t.db
      .update(generations)
      .set({ status: 'completed', completedAt: new Date(), leaseOwner: null })
      .where(eq(generations.id, row.id));
  }
  return order;
}

describe('the fair claim', () => {
  it("takes B's single job second when A enqueued 20 before it, and says so in B's queue place", async () => {
    const a = await createUser(t.db, { creditsHundredths: 0 });
    const b = await createUser(t.db, { creditsHundredths: 1000 });
    await enqueue(a.id, 20);
    // B asks through the API, after all of A's.
    const cookie = await signIn(t.app, b);
    const created = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie,
      body: { description: 'One small cat', model: 'local' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const list = (await injectJson(t.app, 'GET', '/api/video-generation', { cookie })).json<GenerationRecord[]>();
    expect(list[0]?.queuePosition).toBe(2);

    const order = await claimAll(21);
    expect(order).toHaveLength(21);
    expect(order.indexOf(b.id)).toBe(1);
    expect(order.filter((owner) => owner === a.id)).toHaveLength(20);
  });

  it('interleaves users with batches, and a user whose job is running waits a turn', async () => {
    const a = await createUser(t.db);
    const b = await createUser(t.db);
    const c = await createUser(t.db);
    await enqueue(a.id, 3);
    await enqueue(b.id, 3);
    await enqueue(c.id, 1);
    const order = await claimAll(7);
    expect(order).toEqual([a.id, b.id, c.id, a.id, b.id, a.id, b.id]);

    // A has a job running: A's next one waits a turn behind B's, made after it.
    await enqueue(a.id, 1);
    const running = await t.db.transaction((tx) => queue.claimNext(tx, 'only-worker', 60));
    expect(running?.userId).toBe(a.id);
    await enqueue(a.id, 1);
    await enqueue(b.id, 1);
    expect(await claimAll(2)).toEqual([b.id, a.id]);
  });
});
