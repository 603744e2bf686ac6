import { and, asc, count, eq, lt, or, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type ApiTokenRow, apiTokens, idempotencyKeys, type UserRow, users } from '../../db/schema';

export async function insertToken(
  tx: Executor,
  data: Pick<ApiTokenRow, 'userId' | 'tokenHash' | 'name' | 'scopes' | 'expiresAt' | 'createdAt'>,
): Promise<ApiTokenRow> {
  const [row] = await tx
    .insert(apiTokens)
    .values({
      ...data,
      // The account's state as the token is made (its row is locked by the caller).
      madeWhileVerified: sql<boolean>`(SELECT ${users.emailVerifiedAt} IS NOT NULL FROM ${users} WHERE ${users.id} = ${data.userId})`,
    })
    .returning();
  return row!;
}

/** Deletes the user's tokens (only those made while the email was unproven, with `onlyUnproven`); answers how many. */
export async function deleteUserTokens(tx: Executor, userId: string, onlyUnproven: boolean): Promise<number> {
  const rows = await tx
    .delete(apiTokens)
    .where(and(eq(apiTokens.userId, userId), onlyUnproven ? eq(apiTokens.madeWhileVerified, false) : undefined))
    .returning({ id: apiTokens.id });
  return rows.length;
}

export async function countUserTokens(tx: Executor, userId: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(apiTokens).where(eq(apiTokens.userId, userId));
  return row?.n ?? 0;
}

/** Takes the user's row lock, so two creations cannot both pass the count. */
export async function lockUser(tx: Executor, userId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

export function listUserTokens(tx: Executor, userId: string): Promise<ApiTokenRow[]> {
  return tx.select().from(apiTokens).where(eq(apiTokens.userId, userId)).orderBy(asc(apiTokens.createdAt));
}

export async function deleteUserToken(tx: Executor, userId: string, id: string): Promise<boolean> {
  const rows = await tx
    .delete(apiTokens)
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId)))
    .returning({ id: apiTokens.id });
  return rows.length > 0;
}

/** The bearer lookup of every token request, built once per database (a named prepared statement on PostgreSQL). */
function tokenQuery(tx: Executor) {
  return tx
    .select({ token: apiTokens, user: users })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.tokenHash, sql.placeholder('hash')))
    .limit(1)
    .prepare('find_api_token');
}
const preparedLookups = new WeakMap<Executor, ReturnType<typeof tokenQuery>>();

/** The token with its user (expired ones too: the caller decides), or null. */
export async function findTokenByHash(
  tx: Executor,
  hash: string,
): Promise<{ token: ApiTokenRow; user: UserRow } | null> {
  let query = preparedLookups.get(tx);
  if (!query) {
    query = tokenQuery(tx);
    preparedLookups.set(tx, query);
  }
  const [row] = await query.execute({ hash });
  return row ?? null;
}

/** Moves last_used_at unless another request did within the last minute. */
export async function touchToken(tx: Executor, id: string, now: Date, staleBefore: Date): Promise<void> {
  await tx
    .update(apiTokens)
    .set({ lastUsedAt: now })
    .where(and(eq(apiTokens.id, id), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, staleBefore))));
}

// Idempotency keys.

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

/**
 * Claims (userId, key) for a new request: inserts it, or takes over a row older than `staleBefore`
 * or one still without an answer since `abandonedBefore`. Answers true when this request owns the key now.
 */
export async function claimIdempotencyKey(
  tx: Executor,
  data: { userId: string; key: string; requestHash: string; createdAt: Date },
  staleBefore: Date,
  abandonedBefore: Date,
): Promise<boolean> {
  const rows = await tx
    .insert(idempotencyKeys)
    .values({ ...data, responseStatus: null, responseBody: null })
    .onConflictDoUpdate({
      target: [idempotencyKeys.userId, idempotencyKeys.key],
      set: { requestHash: data.requestHash, responseStatus: null, responseBody: null, createdAt: data.createdAt },
      setWhere: or(
        lt(idempotencyKeys.createdAt, staleBefore),
        and(isNull(idempotencyKeys.responseStatus), lt(idempotencyKeys.createdAt, abandonedBefore)),
      ),
    })
    .returning({ key: idempotencyKeys.key });
  return rows.length > 0;
}

export async function findIdempotencyKey(tx: Executor, userId: string, key: string): Promise<IdempotencyRow | null> {
  const [row] = await tx
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
  return row ?? null;
}

export async function saveIdempotentAnswer(
  tx: Executor,
  userId: string,
  key: string,
  requestHash: string,
  answer: { status: number; body: string },
): Promise<void> {
  await tx
    .update(idempotencyKeys)
    .set({ responseStatus: answer.status, responseBody: answer.body })
    .where(
      and(
        eq(idempotencyKeys.userId, userId),
        eq(idempotencyKeys.key, key),
        eq(idempotencyKeys.requestHash, requestHash),
      ),
    );
}

export async function releaseIdempotencyKey(tx: Executor, userId: string, key: string, requestHash: string) {
  await tx
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.userId, userId),
        eq(idempotencyKeys.key, key),
        eq(idempotencyKeys.requestHash, requestHash),
        isNull(idempotencyKeys.responseStatus),
      ),
    );
}

export async function deleteIdempotencyKeysBefore(tx: Executor, before: Date): Promise<number> {
  const rows = await tx
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, before))
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}
