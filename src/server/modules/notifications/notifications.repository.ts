import { and, count, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { notificationSettings, pushKeys, type PushSubscriptionRow, pushSubscriptions } from '../../db/schema';

export async function findSettings(
  tx: Executor,
  userId: string,
): Promise<{ email: boolean; presentUntil: Date | null } | null> {
  const [row] = await tx
    .select({ email: notificationSettings.email, presentUntil: notificationSettings.presentUntil })
    .from(notificationSettings)
    .where(eq(notificationSettings.userId, userId));
  return row ?? null;
}

export async function saveEmailChoice(tx: Executor, userId: string, email: boolean): Promise<void> {
  await tx
    .insert(notificationSettings)
    .values({ userId, email })
    .onConflictDoUpdate({ target: notificationSettings.userId, set: { email, updatedAt: sql`now()` } });
}

/** Present for `seconds` more from the database's now (0: not present any more). */
export async function savePresence(tx: Executor, userId: string, seconds: number): Promise<void> {
  const presentUntil = seconds > 0 ? sql`now() + make_interval(secs => ${seconds})` : null;
  await tx
    .insert(notificationSettings)
    .values({ userId, presentUntil })
    .onConflictDoUpdate({ target: notificationSettings.userId, set: { presentUntil, updatedAt: sql`now()` } });
}

/** True while a tab of the user's said it is visible, within its last interval. */
export async function isPresent(tx: Executor, userId: string): Promise<boolean> {
  const [row] = await tx
    .select({ userId: notificationSettings.userId })
    .from(notificationSettings)
    .where(and(eq(notificationSettings.userId, userId), gt(notificationSettings.presentUntil, sql`now()`)));
  return row !== undefined;
}

export async function countSubscriptions(tx: Executor, userId: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
  return row?.n ?? 0;
}

export function listSubscriptions(tx: Executor, userId: string): Promise<PushSubscriptionRow[]> {
  return tx
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(pushSubscriptions.createdAt);
}

/** Saves a browser's subscription for this user (a browser that changed hands moves with it). */
export async function upsertSubscription(
  tx: Executor,
  data: { userId: string; endpoint: string; p256dh: string; auth: string },
): Promise<void> {
  await tx
    .insert(pushSubscriptions)
    .values(data)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { userId: data.userId, p256dh: data.p256dh, auth: data.auth, createdAt: sql`now()` },
    });
}

export async function deleteSubscription(tx: Executor, userId: string, endpoint: string): Promise<void> {
  await tx
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
}

export async function deleteSubscriptionsById(tx: Executor, ids: string[]): Promise<void> {
  if (ids.length > 0) await tx.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, ids));
}

const INSTALLATION = 'installation';

/** The installation's VAPID pair, if one has been made. */
export async function findPushKeys(db: Executor): Promise<{ publicKey: string; privateKey: string } | null> {
  const [row] = await db
    .select({ publicKey: pushKeys.publicKey, privateKey: pushKeys.privateKey })
    .from(pushKeys)
    .where(eq(pushKeys.id, INSTALLATION));
  return row ?? null;
}

/** Keeps `keys` unless another process kept a pair first; either way, answers the pair kept. */
export async function keepPushKeys(
  db: Executor,
  keys: { publicKey: string; privateKey: string },
): Promise<{ publicKey: string; privateKey: string }> {
  await db
    .insert(pushKeys)
    .values({ id: INSTALLATION, publicKey: keys.publicKey, privateKey: keys.privateKey })
    .onConflictDoNothing({ target: pushKeys.id });
  const kept = await findPushKeys(db);
  if (!kept) throw new Error('the VAPID key pair was not kept');
  return kept;
}
