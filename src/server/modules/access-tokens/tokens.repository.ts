import { and, asc, count, eq, lt, or, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type ApiTokenRow, apiTokens, type UserRow, users } from '../../db/schema';

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
