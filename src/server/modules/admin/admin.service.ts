import {
  type AdminUser,
  type AdminUserListQuery,
  type AdminUserSeen,
  type AdminUserSort,
  type AdminUserUpdate,
  MAX_ADMIN_CREDITS,
} from '../../../shared/admin';
import { isSubscribed, type SubscriptionStatus, toDisplayName } from '../../../shared/auth';
import { toCredits, toHundredths } from '../../../shared/money/credits';
import { formatCount } from '../../../shared/money/price-list';
import type { ServiceContext } from '../../context';
import type { Tx } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { type AppError, badRequest, conflict, notFound } from '../../lib/app-error';
import { publishBalanceChange } from '../../bus/publish';
import { applyCreditChange, setCreditBalance } from '../money/ledger.service';
import { cancelSubscriptionForAdmin } from '../money/stripe/subscription-manage.service';
import { EMAIL_TAKEN_MESSAGE } from '../users/users.service';
import * as repo from './admin.repository';

/** Who is acting: an administrator through the API, or the operator command line. */
export interface Actor {
  label: string;
  userId: string | null;
  /** The user deleting their own account on /account: the audit rows keep no personal data of theirs. */
  self?: true;
}

export const adminActor = (user: UserRow): Actor => ({ label: `admin:${user.email}`, userId: user.id });
export const CLI_ACTOR: Actor = { label: 'cli', userId: null };
/** The user themselves (/account). No user id: the audit row outlives the account it would point at. */
export const SELF_ACTOR: Actor = { label: 'self', userId: null, self: true };

export const LAST_ADMIN_MESSAGE = 'This is the last administrator: make another user an administrator first.';

function presentAdminUser(row: repo.UserListRow): AdminUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    displayName: toDisplayName(row),
    isAdmin: row.isAdmin,
    createdAt: row.createdAt.toISOString(),
    availableCredits: toCredits(row.creditsHundredths),
    totalCreditsUsed: toCredits(row.creditsUsedHundredths),
    creditsLast30Days: toCredits(row.addedLast30DaysHundredths),
    totalLifetimeCredits: toCredits(row.creditsAddedHundredths),
    subscriptionStatus: row.subscriptionStatus,
    hasStripeSubscription: Boolean(row.stripeSubscriptionId) && isSubscribed(row.subscriptionStatus),
    dailySpendCap: row.dailySpendCapHundredths === null ? null : toCredits(row.dailySpendCapHundredths),
  };
}

/**
 * A cursor names the last row of a page: its sort, its sort value (PostgreSQL's text of it) and its
 * id. Anything else, or a value the sort's type cannot read, is refused here with a 400: the
 * repository casts the value in SQL, where a forged one would be a database error.
 */
function encodeCursor(sort: AdminUserSort, row: repo.UserListRow): string {
  return Buffer.from(JSON.stringify([sort, row.sortValue, row.id])).toString('base64url');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BIGINT_TEXT = /^-?\d{1,16}$/;
/** A timestamptz as PostgreSQL writes it: '2026-01-02 03:04:05.678901+00' (the offset may carry minutes and seconds). */
const TIMESTAMP_TEXT =
  /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?[+-](\d{2})(?::(\d{2}))?(?::(\d{2}))?$/;

function isTimestampText(text: string): boolean {
  const parts = TIMESTAMP_TEXT.exec(text);
  if (!parts) return false;
  const [
    year = 0,
    month = 0,
    day = 0,
    hour = 0,
    minute = 0,
    second = 0,
    offsetHours = 0,
    offsetMinutes = 0,
    offsetSeconds = 0,
  ] = parts.slice(1).map((part) => Number(part ?? 0));
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC maps years below 100 to the 1900s and rolls 30 February over to March: both fail here.
  const isRealDay = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return (
    isRealDay &&
    hour < 24 &&
    minute < 60 &&
    second < 60 &&
    offsetHours <= 15 &&
    offsetMinutes < 60 &&
    offsetSeconds < 60
  );
}

/** Whether the sort's SQL cast reads this text without error. */
function isSortValue(sort: AdminUserSort, value: string): boolean {
  switch (sort) {
    case 'createdAt':
      return isTimestampText(value);
    case 'email':
    case 'name':
      return !value.includes('\u0000');
    case 'availableCredits':
    case 'creditsLast30Days':
    case 'totalLifetimeCredits':
    case 'totalCreditsUsed':
      return BIGINT_TEXT.test(value) && Number.isSafeInteger(Number(value));
  }
}

function decodeCursor(sort: AdminUserSort, cursor: string): { value: string; id: string } {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    // refused below
  }
  if (Array.isArray(parsed) && parsed.length === 3) {
    const [cursorSort, value, id] = parsed as unknown[];
    if (
      cursorSort === sort &&
      typeof value === 'string' &&
      typeof id === 'string' &&
      UUID.test(id) &&
      isSortValue(sort, value)
    ) {
      return { value, id };
    }
  }
  throw badRequest('cursor: is not a cursor this server gave out for this sort', 'invalid_cursor');
}

/** One page of users for the admin table, with the next page's cursor when more follow. */
export async function listUsers(
  ctx: ServiceContext,
  query: AdminUserListQuery,
): Promise<{ users: AdminUser[]; nextCursor: string | null }> {
  const descending = (query.order ?? (query.sort === 'createdAt' ? 'desc' : 'asc')) === 'desc';
  const rows = await repo.listUsers(ctx.db, {
    sort: query.sort,
    descending,
    limit: query.limit,
    ...(query.q ? { search: query.q } : {}),
    ...(query.cursor ? { after: decodeCursor(query.sort, query.cursor) } : {}),
  });
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    users: page.map(presentAdminUser),
    nextCursor: rows.length > query.limit && last ? encodeCursor(query.sort, last) : null,
  };
}

export async function userStats(ctx: ServiceContext) {
  const totals = await repo.userTotals(ctx.db);
  return {
    totalUsers: totals.totalUsers,
    activeCredits: toCredits(totals.creditsHundredths),
    creditsUsed: toCredits(totals.creditsUsedHundredths),
    creditsLast30Days: toCredits(totals.addedLast30DaysHundredths),
  };
}

function snapshot(user: UserRow) {
  return {
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    availableCredits: toCredits(user.creditsHundredths),
    totalCreditsUsed: toCredits(user.creditsUsedHundredths),
    subscriptionStatus: user.subscriptionStatus,
    isAdmin: user.isAdmin,
    dailySpendCap: user.dailySpendCapHundredths === null ? null : toCredits(user.dailySpendCapHundredths),
  };
}

async function requireLockedUser(tx: Tx, id: string): Promise<UserRow> {
  const user = await repo.lockUser(tx, id);
  if (!user) throw notFound('User not found', 'user_not_found');
  return user;
}

/** 409 when a credit figure the administrator changed was changed by someone else while they edited. */
function staleEdit(label: string, now: number): AppError {
  return conflict(
    `This user's ${label} changed while you were editing (now ${now}). Check the new figure and save again.`,
    'stale_edit',
  );
}

/**
 * Applies the admin edit payload. Only the fields the administrator changed are written (compared
 * with `original`, the row they saw); a credit figure they changed must still be what they saw,
 * else 409 stale_edit and nothing changes. A credit change is a ledger row naming the actor, in the
 * same transaction as the balance; the whole change is recorded in the audit log.
 */
export async function updateUser(
  ctx: ServiceContext,
  actor: Actor,
  id: string,
  input: AdminUserUpdate,
): Promise<UserRow> {
  const seen = input.original ?? {};
  const edited = <K extends keyof AdminUserSeen>(field: K) => seen[field] === undefined || seen[field] !== input[field];
  // Setting a subscriber inactive stops their Stripe subscription first (a network call, so
  // before the transaction): if Stripe refuses, nothing changes here.
  const target = await repo.findUser(ctx.db, id);
  const cancelled =
    target && edited('subscriptionStatus') && input.subscriptionStatus === 'inactive'
      ? await cancelSubscriptionForAdmin(ctx, target)
      : null;
  return ctx.db.transaction(async (tx) => {
    const before = await requireLockedUser(tx, id);
    if (cancelled) await auditCancellation(tx, actor, before, cancelled);
    if (
      edited('availableCredits') &&
      seen.availableCredits !== undefined &&
      toHundredths(seen.availableCredits) !== before.creditsHundredths
    ) {
      throw staleEdit('credits', toCredits(before.creditsHundredths));
    }
    if (
      edited('totalCreditsUsed') &&
      seen.totalCreditsUsed !== undefined &&
      toHundredths(seen.totalCreditsUsed) !== before.creditsUsedHundredths
    ) {
      throw staleEdit('credits used', toCredits(before.creditsUsedHundredths));
    }
    if (edited('email') && input.email !== before.email && (await repo.isEmailTakenByOther(tx, input.email, id))) {
      throw conflict(EMAIL_TAKEN_MESSAGE, 'email_taken');
    }
    if (edited('availableCredits')) {
      await setCreditBalance(tx, {
        userId: id,
        balanceHundredths: toHundredths(input.availableCredits),
        kind: 'admin_adjustment',
        actor: actor.label,
        actorUserId: actor.userId,
        reason: 'Edited in the admin dashboard',
      });
    }
    const after = await repo.updateUser(tx, id, {
      ...(edited('email') ? { email: input.email } : {}),
      ...(edited('firstName') ? { firstName: input.firstName } : {}),
      ...(edited('lastName') ? { lastName: input.lastName } : {}),
      ...(edited('subscriptionStatus') ? { subscriptionStatus: input.subscriptionStatus } : {}),
      ...(edited('totalCreditsUsed') ? { creditsUsedHundredths: toHundredths(input.totalCreditsUsed) } : {}),
      // Left out by older clients: unchanged. A cap is a limit, not a balance: the last edit wins.
      ...(input.dailySpendCap !== undefined && edited('dailySpendCap')
        ? { dailySpendCapHundredths: input.dailySpendCap === null ? null : toHundredths(input.dailySpendCap) }
        : {}),
    });
    await announceStatusChange(tx, before, after);
    await audit(tx, actor, 'user.update', before, after);
    return after;
  });
}

/**
 * The user about to be deleted (404 user_not_found), refused at once (409 last_admin) when they are the
 * last administrator: before anything is cancelled at Stripe. Step one of workflows/delete-account.ts.
 */
export async function requireDeletableUser(ctx: ServiceContext, id: string): Promise<UserRow> {
  const target = await repo.findUser(ctx.db, id);
  if (!target) throw notFound('User not found', 'user_not_found');
  if (target.isAdmin) await ctx.db.transaction(async (tx) => requireAnotherAdmin(await repo.lockAdminIds(tx), id));
  return target;
}

/**
 * Deletes the user's row and with it every row that belongs to them (sessions end at once), in one
 * transaction with its audit rows; the last administrator is refused (409 last_admin), whoever asks.
 * With SELF_ACTOR (a user deleting their own account) the audit rows name the account's id and what
 * happened, never its email or details. `cancelledSubscription` is the Stripe subscription the caller
 * cancelled first, if any. Answers the deleted row. Part of workflows/delete-account.ts.
 */
export async function deleteUserRecord(
  ctx: ServiceContext,
  actor: Actor,
  id: string,
  cancelledSubscription: string | null,
): Promise<UserRow> {
  return ctx.db.transaction(async (tx) => {
    const { user: locked, admins } = await lockAdminsThenUser(tx, id);
    if (locked.isAdmin) requireAnotherAdmin(admins, id);
    if (cancelledSubscription) await auditCancellation(tx, actor, locked, cancelledSubscription);
    await repo.deleteUser(tx, id);
    if (actor.self) await auditSelfDeletion(tx, locked.id);
    else await audit(tx, actor, 'user.delete', locked, null);
    return locked;
  });
}

/** A new subscription status changes what the user's open tabs show (unlimited, daily generations): a balance event, in the change's transaction. */
async function announceStatusChange(tx: Tx, before: UserRow, after: UserRow): Promise<void> {
  if (after.subscriptionStatus !== before.subscriptionStatus) await publishBalanceChange(tx, after.id);
}

/** 409 last_admin unless an administrator besides `id` is among `admins` (locked by the caller). */
function requireAnotherAdmin(admins: readonly string[], id: string): void {
  if (admins.filter((adminId) => adminId !== id).length === 0) throw conflict(LAST_ADMIN_MESSAGE, 'last_admin');
}

/**
 * The one lock order of every path that may remove an administrator (deleting any user, demoting one):
 * every administrator's row in id order, then the user's. Taking the user's row first and the
 * administrators' after (as deletions once did) let two administrators deleting themselves at once
 * each hold the row the other waited for: PostgreSQL ended one with "deadlock detected".
 */
async function lockAdminsThenUser(tx: Tx, id: string): Promise<{ user: UserRow; admins: string[] }> {
  const admins = await repo.lockAdminIds(tx);
  return { user: await requireLockedUser(tx, id), admins };
}

async function lockAdminsThenUserByEmail(tx: Tx, email: string): Promise<{ user: UserRow; admins: string[] }> {
  const admins = await repo.lockAdminIds(tx);
  return { user: await requireUserByEmail(tx, email), admins };
}

async function audit(tx: Tx, actor: Actor, action: string, before: UserRow | null, after: UserRow | null) {
  const target = after ?? before;
  await repo.insertAudit(tx, {
    actor: actor.label,
    actorUserId: actor.userId,
    action,
    targetUserId: target?.id ?? null,
    targetEmail: target?.email ?? null,
    before: before ? snapshot(before) : null,
    after: after ? snapshot(after) : null,
  });
}

async function auditSelfDeletion(tx: Tx, userId: string) {
  await repo.insertAudit(tx, {
    actor: SELF_ACTOR.label,
    actorUserId: null,
    action: 'user.delete_self',
    targetUserId: userId,
    targetEmail: null,
    before: null,
    after: null,
  });
}

/** The audit row saying an administrator's change cancelled the user's subscription at Stripe. */
async function auditCancellation(tx: Tx, actor: Actor, user: UserRow, subscriptionId: string) {
  await repo.insertAudit(tx, {
    actor: actor.label,
    actorUserId: actor.userId,
    action: 'subscription.cancel_at_stripe',
    targetUserId: user.id,
    targetEmail: actor.self ? null : user.email,
    before: { stripeSubscriptionId: subscriptionId, subscriptionStatus: user.subscriptionStatus },
    after: {
      stripeSubscriptionId: subscriptionId,
      stripeStatus: 'canceled',
      note: "Cancelled at Stripe before the administrator's change",
    },
  });
}

async function requireUserByEmail(tx: Tx, email: string): Promise<UserRow> {
  const user = await repo.lockUserByEmail(tx, email.trim().toLowerCase());
  if (!user) throw notFound(`No user has the email ${email}`, 'user_not_found');
  return user;
}

/** Adds credits to a user (the operator command line): a grant in the ledger, plus an audit row. */
export async function grantCredits(
  ctx: ServiceContext,
  actor: Actor,
  email: string,
  credits: number,
): Promise<UserRow> {
  const hundredths = toHundredths(credits);
  // Compared with a tolerance: 0.29 * 100 is 28.999999999999996 in floating point.
  if (!Number.isFinite(credits) || hundredths <= 0 || Math.abs(hundredths - credits * 100) > 1e-6) {
    throw badRequest('The amount must be a positive number of credits with at most two decimals.', 'invalid_amount');
  }
  if (credits > MAX_ADMIN_CREDITS) {
    throw badRequest(`At most ${formatCount(MAX_ADMIN_CREDITS)} credits can be granted at once.`, 'invalid_amount');
  }
  return ctx.db.transaction(async (tx) => {
    const before = await requireUserByEmail(tx, email);
    await applyCreditChange(tx, {
      userId: before.id,
      deltaHundredths: hundredths,
      kind: 'grant',
      actor: actor.label,
      actorUserId: actor.userId,
      reason: 'Granted from the command line',
    });
    const after = await repo.lockUser(tx, before.id);
    await audit(tx, actor, 'credits.grant', before, after);
    return after ?? before;
  });
}

export async function setSubscriptionStatus(
  ctx: ServiceContext,
  actor: Actor,
  email: string,
  status: SubscriptionStatus,
): Promise<UserRow> {
  const target = await repo.findUserByEmail(ctx.db, email.trim().toLowerCase());
  const cancelled = target && status === 'inactive' ? await cancelSubscriptionForAdmin(ctx, target) : null;
  return ctx.db.transaction(async (tx) => {
    const before = await requireUserByEmail(tx, email);
    if (cancelled) await auditCancellation(tx, actor, before, cancelled);
    const after = await repo.updateUser(tx, before.id, { subscriptionStatus: status });
    await announceStatusChange(tx, before, after);
    await audit(tx, actor, 'user.set_status', before, after);
    return after;
  });
}

/** Grants or revokes administrator rights; the last administrator cannot be demoted. */
export async function setAdmin(ctx: ServiceContext, actor: Actor, email: string, isAdmin: boolean): Promise<UserRow> {
  return ctx.db.transaction(async (tx) => {
    const { user: before, admins } = await lockAdminsThenUserByEmail(tx, email);
    if (before.isAdmin && !isAdmin) requireAnotherAdmin(admins, before.id);
    const after = await repo.updateUser(tx, before.id, { isAdmin });
    await audit(tx, actor, isAdmin ? 'user.make_admin' : 'user.revoke_admin', before, after);
    return after;
  });
}
