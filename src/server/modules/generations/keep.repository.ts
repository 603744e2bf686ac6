import { and, eq, inArray, not, or, type SQL, sql } from 'drizzle-orm';
import type { KeepGroup } from '../../../shared/retention';
import type { Executor } from '../../db/client';
import { type GenerationRow, generations, nextVersion, users } from '../../db/schema';

/**
 * Marks one of the user's completed videos kept (no expiry) or not kept (expiring at `expiresAt`);
 * answers the row, or null when it is not theirs or not completed.
 */
export async function setKept(
  tx: Executor,
  userId: string,
  id: string,
  change: { kept: true } | { kept: false; expiresAt: Date },
): Promise<GenerationRow | null> {
  const [row] = await tx
    .update(generations)
    .set({ ...nextVersion(), kept: change.kept, expiresAt: change.kept ? null : change.expiresAt })
    .where(and(eq(generations.id, id), eq(generations.userId, userId), eq(generations.status, 'completed')))
    .returning();
  return row ?? null;
}

/** The users KEEP_VIDEOS_FOR allows, as a condition on `users` (mirrors canKeepVideos in src/shared/retention.ts). */
function allowedUsers(groups: readonly KeepGroup[]): SQL {
  const statuses = new Set<string>();
  for (const group of groups) {
    if (group === 'subscribers') statuses.add('active').add('trial');
    else if (group !== 'everyone' && group !== 'admins') statuses.add(group);
  }
  const parts: SQL[] = [];
  if (groups.includes('everyone')) parts.push(sql`true`);
  if (groups.includes('admins')) parts.push(eq(users.isAdmin, true));
  if (statuses.size > 0)
    parts.push(inArray(users.subscriptionStatus, [...statuses] as (typeof users.$inferSelect)['subscriptionStatus'][]));
  return or(sql`false`, ...parts) ?? sql`false`;
}

/**
 * Kept videos whose owner KEEP_VIDEOS_FOR no longer allows (a subscription ended, the setting
 * changed): they are no longer kept and expire at `expiresAt`. Answers the rows changed.
 */
export function releaseLapsedKeeps(
  tx: Executor,
  groups: readonly KeepGroup[],
  expiresAt: Date,
): Promise<{ id: string; userId: string }[]> {
  const notAllowed = tx
    .select({ id: users.id })
    .from(users)
    .where(not(allowedUsers(groups)));
  return tx
    .update(generations)
    .set({ ...nextVersion(), kept: false, expiresAt })
    .where(and(eq(generations.kept, true), inArray(generations.userId, notAllowed)))
    .returning({ id: generations.id, userId: generations.userId });
}
