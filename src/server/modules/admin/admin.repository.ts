import { and, asc, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { AdminUserSort } from '../../../shared/admin';
import type { Executor } from '../../db/client';
import { adminAuditLog, CREDIT_CHANGE_KINDS, creditLedger, type UserRow, users } from '../../db/schema';

const ADDING = sql.raw(
  CREDIT_CHANGE_KINDS.filter((k) => k === 'purchase' || k === 'grant' || k === 'admin_adjustment')
    .map((k) => `'${k}'`)
    .join(', '),
);

/** Credits added to the user in the last 30 days (purchases, grants, upward adjustments), as a number (drivers hand int8 back as text). */
const addedLast30Days = sql<number>`(SELECT coalesce(sum(l.delta_hundredths), 0)::bigint FROM credit_ledger l
  WHERE l.user_id = users.id AND l.delta_hundredths > 0 AND l.kind IN (${ADDING})
    AND l.created_at > now() - interval '30 days')`.mapWith(Number);

/** Each sort: the expression, and the type its cursor text casts back to. */
const SORTS: Record<AdminUserSort, { expr: SQL; cast: SQL }> = {
  createdAt: { expr: sql`users.created_at`, cast: sql.raw('timestamptz') },
  email: { expr: sql`users.email`, cast: sql.raw('text') },
  name: {
    expr: sql`lower(coalesce(users.first_name, '') || ' ' || coalesce(users.last_name, ''))`,
    cast: sql.raw('text'),
  },
  availableCredits: { expr: sql`users.credits_hundredths`, cast: sql.raw('bigint') },
  totalLifetimeCredits: { expr: sql`users.credits_added_hundredths`, cast: sql.raw('bigint') },
  totalCreditsUsed: { expr: sql`users.credits_used_hundredths`, cast: sql.raw('bigint') },
  creditsLast30Days: { expr: addedLast30Days, cast: sql.raw('bigint') },
};

export interface UserListRow extends UserRow {
  addedLast30DaysHundredths: number;
  sortValue: string;
}

export interface UserListPage {
  sort: AdminUserSort;
  descending: boolean;
  limit: number;
  search?: string;
  after?: { value: string; id: string };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** One page of users in keyset order (sort value, then id), fetching one extra row to tell if more follow. */
export async function listUsers(tx: Executor, page: UserListPage): Promise<UserListRow[]> {
  const { expr, cast } = SORTS[page.sort];
  const conditions: SQL[] = [];
  if (page.search) {
    const pattern = `%${escapeLike(page.search)}%`;
    conditions.push(sql`(users.email ILIKE ${pattern} OR users.first_name ILIKE ${pattern}
      OR users.last_name ILIKE ${pattern}
      OR (coalesce(users.first_name, '') || ' ' || coalesce(users.last_name, '')) ILIKE ${pattern})`);
  }
  if (page.after) {
    const op = sql.raw(page.descending ? '<' : '>');
    conditions.push(sql`(${expr}, users.id) ${op} (${page.after.value}::${cast}, ${page.after.id}::uuid)`);
  }
  const direction = sql.raw(page.descending ? 'DESC' : 'ASC');
  const rows = await tx
    .select({
      user: users,
      addedLast30DaysHundredths: addedLast30Days,
      sortValue: sql<string>`(${expr})::text`,
    })
    .from(users)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(sql`${expr} ${direction}, users.id ${direction}`)
    .limit(page.limit + 1);
  return rows.map((r) => ({
    ...r.user,
    addedLast30DaysHundredths: r.addedLast30DaysHundredths,
    sortValue: r.sortValue,
  }));
}

export interface UserTotals {
  totalUsers: number;
  creditsHundredths: number;
  creditsUsedHundredths: number;
  addedLast30DaysHundredths: number;
}

export async function userTotals(tx: Executor): Promise<UserTotals> {
  const [totals] = await tx
    .select({
      totalUsers: sql<number>`count(*)::int`,
      creditsHundredths: sql<string>`coalesce(sum(${users.creditsHundredths}), 0)::text`,
      creditsUsedHundredths: sql<string>`coalesce(sum(${users.creditsUsedHundredths}), 0)::text`,
    })
    .from(users);
  const [recent] = await tx
    .select({ added: sql<string>`coalesce(sum(${creditLedger.deltaHundredths}), 0)::text` })
    .from(creditLedger)
    .where(
      sql`${creditLedger.deltaHundredths} > 0 AND ${creditLedger.kind} IN (${ADDING})
        AND ${creditLedger.createdAt} > now() - interval '30 days'`,
    );
  return {
    totalUsers: Number(totals?.totalUsers ?? 0),
    creditsHundredths: Number(totals?.creditsHundredths ?? 0),
    creditsUsedHundredths: Number(totals?.creditsUsedHundredths ?? 0),
    addedLast30DaysHundredths: Number(recent?.added ?? 0),
  };
}

export async function findUser(tx: Executor, id: string): Promise<UserRow | null> {
  const [row] = await tx.select().from(users).where(eq(users.id, id));
  return row ?? null;
}

export async function findUserByEmail(tx: Executor, email: string): Promise<UserRow | null> {
  const [row] = await tx.select().from(users).where(eq(users.email, email));
  return row ?? null;
}

export async function lockUser(tx: Executor, id: string): Promise<UserRow | null> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  return row ?? null;
}

export async function lockUserByEmail(tx: Executor, email: string): Promise<UserRow | null> {
  const [row] = await tx.select().from(users).where(eq(users.email, email)).for('update');
  return row ?? null;
}

/**
 * Locks every administrator's row, in id order: a concurrent demotion or deletion waits, so one always
 * remains. Every path takes these before any single user's row (admin.service `lockAdminsThenUser`),
 * so two of them never hold locks the other waits for.
 */
export async function lockAdminIds(tx: Executor): Promise<string[]> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.isAdmin, true))
    .orderBy(asc(users.id))
    .for('update');
  return rows.map((r) => r.id);
}

export async function isEmailTakenByOther(tx: Executor, email: string, userId: string): Promise<boolean> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), ne(users.id, userId)))
    .limit(1);
  return rows.length > 0;
}

export async function updateUser(
  tx: Executor,
  id: string,
  fields: Partial<
    Pick<
      UserRow,
      | 'email'
      | 'firstName'
      | 'lastName'
      | 'subscriptionStatus'
      | 'creditsUsedHundredths'
      | 'isAdmin'
      | 'dailySpendCapHundredths'
    >
  >,
): Promise<UserRow> {
  const [row] = await tx
    .update(users)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  if (!row) throw new Error(`user ${id} vanished inside its own transaction`);
  return row;
}

export async function deleteUser(tx: Executor, id: string): Promise<void> {
  await tx.delete(users).where(eq(users.id, id));
}

export async function insertAudit(tx: Executor, row: typeof adminAuditLog.$inferInsert): Promise<void> {
  await tx.insert(adminAuditLog).values(row);
}
