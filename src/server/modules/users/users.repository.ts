import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { installation, users, type UserRow } from '../../db/schema';

export interface NewUser {
  email: string;
  passwordHash: string | null;
  firstName: string | null;
  lastName: string | null;
  emailVerifiedAt?: Date | null;
  signupCreditsPending?: boolean;
}

/** Inserts a user; answers null when the email is already taken. */
export async function insertUser(tx: Executor, data: NewUser): Promise<UserRow | null> {
  const [row] = await tx.insert(users).values(data).onConflictDoNothing({ target: users.email }).returning();
  return row ?? null;
}

/** Atomically claims the installation's administrator seat; true only for the first caller ever. */
export async function claimFirstAdmin(tx: Executor): Promise<boolean> {
  const claimed = await tx
    .update(installation)
    .set({ adminClaimed: true })
    .where(sql`${installation.id} = 1 AND ${installation.adminClaimed} = false`)
    .returning({ id: installation.id });
  return claimed.length > 0;
}

/** Whether the installation's first account (its administrator) has been made. */
export async function isAdminClaimed(tx: Executor): Promise<boolean> {
  const [row] = await tx
    .select({ claimed: installation.adminClaimed })
    .from(installation)
    .where(eq(installation.id, 1));
  return row?.claimed ?? false;
}

export async function makeUnlimitedAdmin(tx: Executor, userId: string): Promise<UserRow> {
  const [row] = await tx
    .update(users)
    .set({ isAdmin: true, subscriptionStatus: 'premium_unlimited', updatedAt: sql`now()` })
    .where(eq(users.id, userId))
    .returning();
  if (!row) throw new Error(`user ${userId} vanished inside its own transaction`);
  return row;
}

export async function findUserByEmail(tx: Executor, email: string): Promise<UserRow | null> {
  const [row] = await tx.select().from(users).where(eq(users.email, email)).limit(1);
  return row ?? null;
}

export async function findUserById(tx: Executor, id: string): Promise<UserRow | null> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

export async function updatePasswordHash(tx: Executor, userId: string, passwordHash: string | null): Promise<void> {
  await tx
    .update(users)
    .set({ passwordHash, updatedAt: sql`now()` })
    .where(eq(users.id, userId));
}

/** The user with their row locked until the transaction ends (serialises changes to their sign-ins). */
export async function lockUser(tx: Executor, id: string): Promise<UserRow | null> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  return row ?? null;
}

/**
 * Adds a tour to the ones the user has completed (once, however often it is called, even at the
 * same time from two devices) and answers the list as it now is; null for no such user.
 */
export async function addCompletedTour(tx: Executor, userId: string, tour: string): Promise<string[] | null> {
  const [row] = await tx
    .update(users)
    .set({
      completedTours: sql`case when ${users.completedTours} ? ${tour} then ${users.completedTours}
        else ${users.completedTours} || jsonb_build_array(${tour}::text) end`,
    })
    .where(eq(users.id, userId))
    .returning({ completedTours: users.completedTours });
  return row?.completedTours ?? null;
}

/** Marks the email proven; true only for the caller that changed it (one of concurrent callers). */
export async function markEmailVerified(tx: Executor, userId: string, email: string): Promise<boolean> {
  const rows = await tx
    .update(users)
    .set({ emailVerifiedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(users.id, userId), eq(users.email, email), isNull(users.emailVerifiedAt)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Clears the pending sign-up credits; true only for the one caller that cleared them. */
export async function takePendingSignupCredits(tx: Executor, userId: string): Promise<boolean> {
  const rows = await tx
    .update(users)
    .set({ signupCreditsPending: false })
    .where(and(eq(users.id, userId), eq(users.signupCreditsPending, true)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/**
 * Frees an email held by an account nobody proved it for and that has no password (made by an
 * external sign-in whose provider did not verify the email): the account keeps its sign-in under a
 * placeholder address that can never receive mail. Answers whether one was freed.
 */
export async function releaseUnprovenEmail(tx: Executor, email: string): Promise<boolean> {
  const rows = await tx
    .update(users)
    .set({ email: sql`${users.id}::text || '@unclaimed.invalid'`, updatedAt: sql`now()` })
    .where(and(eq(users.email, email), isNull(users.emailVerifiedAt), isNull(users.passwordHash)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Sets the user's name; answers the row as it is now, or null when the user is gone. */
export async function updateName(
  tx: Executor,
  userId: string,
  name: { firstName: string; lastName: string | null },
): Promise<UserRow | null> {
  const [row] = await tx
    .update(users)
    .set({ ...name, updatedAt: sql`now()` })
    .where(eq(users.id, userId))
    .returning();
  return row ?? null;
}

/** Moves the account to a proven new email (its mailed link was followed); null when the user is gone. */
export async function updateProvenEmail(tx: Executor, userId: string, email: string): Promise<UserRow | null> {
  const [row] = await tx
    .update(users)
    .set({ email, emailVerifiedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(users.id, userId))
    .returning();
  return row ?? null;
}
