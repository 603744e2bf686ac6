import { and, count, desc, eq, gt, lt, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { loginFailures, sessions, usedRegistrationChallenges, type UserRow, users } from '../../db/schema';

export async function insertSession(
  tx: Executor,
  data: { id: string; userId: string; expiresAt: Date; userAgent: string | null; ip: string | null },
): Promise<void> {
  await tx.insert(sessions).values(data);
}

/** The session lookup of every signed-in request, built once per database (a named prepared statement on PostgreSQL). */
function liveSessionQuery(tx: Executor) {
  return tx
    .select({ user: users, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sql.placeholder('id')), gt(sessions.expiresAt, sql`now()`)))
    .limit(1)
    .prepare('find_live_session');
}
const preparedLookups = new WeakMap<Executor, ReturnType<typeof liveSessionQuery>>();

/** The live session with its user, or null when absent or expired. */
export async function findLiveSession(tx: Executor, id: string): Promise<{ user: UserRow; expiresAt: Date } | null> {
  let query = preparedLookups.get(tx);
  if (!query) {
    query = liveSessionQuery(tx);
    preparedLookups.set(tx, query);
  }
  const [row] = await query.execute({ id });
  return row ?? null;
}

export async function extendSession(tx: Executor, id: string, expiresAt: Date): Promise<void> {
  await tx.update(sessions).set({ expiresAt }).where(eq(sessions.id, id));
}

export async function deleteSession(tx: Executor, id: string): Promise<void> {
  await tx.delete(sessions).where(eq(sessions.id, id));
}

/** Ends every session of a user (sign out everywhere); answers how many there were. */
export async function deleteUserSessions(tx: Executor, userId: string): Promise<number> {
  const rows = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
  return rows.length;
}

/** Ends every session of a user but `keepId` (a password change keeps the browser that made it). */
export async function deleteOtherSessions(tx: Executor, userId: string, keepId: string): Promise<number> {
  const rows = await tx
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepId)))
    .returning({ id: sessions.id });
  return rows.length;
}

export async function deleteExpiredSessions(tx: Executor): Promise<number> {
  const rows = await tx
    .delete(sessions)
    .where(lt(sessions.expiresAt, sql`now()`))
    .returning({ id: sessions.id });
  return rows.length;
}

/**
 * Registrations are counted in the sign-in failures' table (same shape: an address and a time)
 * under this email, which no account can have (emails are validated and contain an @). They are
 * never sign-in failures: the address's failure count leaves them out.
 */
export const REGISTRATIONS_KEY = 'registration';

/** Advisory lock classes of sign-in attempts (the migration lock uses the one-key form, 727001). */
const PAIR_ATTEMPTS_LOCK = 727_002;
const IP_ATTEMPTS_LOCK = 727_003;

/**
 * Serialises sign-in attempts for one (email, address) pair and for one address until the
 * caller's transaction ends, so that counting and recording an attempt is one step. Always the
 * pair, then the address: no two callers wait on each other in opposite orders.
 */
export async function lockLoginAttempts(tx: Executor, email: string, ip: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${PAIR_ATTEMPTS_LOCK}, hashtext(${`${email} ${ip}`}))`);
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${IP_ATTEMPTS_LOCK}, hashtext(${ip}))`);
}

const LOGIN_TURN_LOCK = 727_004;

/**
 * Waits for, then holds until `tx` ends, the sign-in turn of one (account, address) pair across
 * every process on this PostgreSQL database.
 */
export async function takeLoginTurn(tx: Executor, email: string, ip: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${LOGIN_TURN_LOCK}, hashtext(${`${email} ${ip}`}))`);
}

export async function insertLoginFailure(tx: Executor, email: string, ip: string): Promise<string> {
  const [row] = await tx.insert(loginFailures).values({ email, ip }).returning({ id: loginFailures.id });
  if (!row) throw new Error('login_failures insert returned nothing');
  return row.id;
}

export async function deleteLoginFailure(tx: Executor, id: string): Promise<void> {
  await tx.delete(loginFailures).where(eq(loginFailures.id, id));
}

type FailureFilter = { email: string; ip: string } | { email: string } | { ip: string };

function matching(by: FailureFilter, windowMs: number) {
  const since = new Date(Date.now() - windowMs);
  return and(
    'email' in by ? eq(loginFailures.email, by.email) : ne(loginFailures.email, REGISTRATIONS_KEY),
    'ip' in by ? eq(loginFailures.ip, by.ip) : undefined,
    gt(loginFailures.createdAt, since),
  );
}

/**
 * When `limit` or more failures match within the window, the time the oldest of the latest
 * `limit` failures leaves the window (that is when one more attempt is allowed); else null.
 */
export async function findLockoutEnd(
  tx: Executor,
  by: FailureFilter,
  limit: number,
  windowMs: number,
): Promise<Date | null> {
  const [row] = await tx
    .select({ createdAt: loginFailures.createdAt })
    .from(loginFailures)
    .where(matching(by, windowMs))
    .orderBy(desc(loginFailures.createdAt))
    .offset(limit - 1)
    .limit(1);
  return row ? new Date(row.createdAt.getTime() + windowMs) : null;
}

export async function countLoginFailures(tx: Executor, by: FailureFilter, windowMs: number): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(loginFailures).where(matching(by, windowMs));
  return row?.n ?? 0;
}

/** Clears failures: one address's on an account (a successful sign-in), or an account's from everywhere (a reset). */
export async function clearLoginFailures(
  tx: Executor,
  by: { email: string; ip: string } | { email: string },
): Promise<void> {
  await tx
    .delete(loginFailures)
    .where(and(eq(loginFailures.email, by.email), 'ip' in by ? eq(loginFailures.ip, by.ip) : undefined));
}

/** Deletes failures older than the window, and registrations older than theirs. */
export async function deleteOldLoginFailures(
  tx: Executor,
  windowMs: number,
  registrationsWindowMs: number,
): Promise<void> {
  await tx
    .delete(loginFailures)
    .where(
      or(
        and(ne(loginFailures.email, REGISTRATIONS_KEY), lt(loginFailures.createdAt, new Date(Date.now() - windowMs))),
        lt(loginFailures.createdAt, new Date(Date.now() - registrationsWindowMs)),
      ),
    );
}

/**
 * Records a registration challenge's solution as used until it expires (and forgets expired ones);
 * false when it was already used.
 */
export async function markChallengeUsed(tx: Executor, saltHash: string, expiresAt: Date): Promise<boolean> {
  await tx.delete(usedRegistrationChallenges).where(lt(usedRegistrationChallenges.expiresAt, sql`now()`));
  const rows = await tx
    .insert(usedRegistrationChallenges)
    .values({ saltHash, expiresAt })
    .onConflictDoNothing()
    .returning({ saltHash: usedRegistrationChallenges.saltHash });
  return rows.length === 1;
}
