import { createHash, randomBytes } from 'node:crypto';
import type { Login, Register } from '../../../shared/auth';
import { SUSPENDED_CODE, SUSPENDED_MESSAGE } from '../../../shared/safety';
import type { ServiceContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { AppError, forbidden, tooManyRequests } from '../../lib/app-error';
import { createAccount, findUserByEmail } from '../users/users.service';
import * as repo from './auth.repository';
import { hashPassword, verifyDecoy, verifyPassword } from './password';
import { describeWait, REGISTRATION_DAY_MS } from './registration-limit.service';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A session is pushed back to a full 30 days at most once a day, not on every request. */
const SESSION_REFRESH_AFTER_MS = 24 * 60 * 60 * 1000;
/** Failed sign-ins per (account, address) pair in the window before that pair is paused. */
export const PAIR_FAILURE_LIMIT = 5;
/** Failed sign-ins per address (any accounts) before the address is paused: high, for shared offices and NAT. */
export const ADDRESS_FAILURE_LIMIT = 100;
/** From this many failures on one account (from any addresses), each attempt on it waits longer. */
export const ACCOUNT_SLOWDOWN_AFTER = 10;
export const ACCOUNT_MAX_DELAY_MS = 10_000;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const INVALID_LOGIN_MESSAGE = 'Invalid email or password';

/**
 * The wait before an account's password is checked when it has `failures` recent failures from
 * any addresses: none below ACCOUNT_SLOWDOWN_AFTER, then doubling every five failures up to ten
 * seconds. An account attacked from many addresses slows down; its owner is never refused.
 */
export function accountSlowdownMs(failures: number): number {
  if (failures < ACCOUNT_SLOWDOWN_AFTER) return 0;
  return Math.min(ACCOUNT_MAX_DELAY_MS, Math.round(250 * 2 ** ((failures - ACCOUNT_SLOWDOWN_AFTER) / 5)));
}

export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

export interface NewSession {
  token: string;
  user: UserRow;
  expiresAt: Date;
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** Creates a fresh session (a new id at every sign-in) and answers the cookie token. */
export async function startSession(ctx: ServiceContext, user: UserRow, client: ClientInfo): Promise<NewSession> {
  // Every way in (password, passkey, Google, a reset) ends here: a suspended account gets no session.
  if (user.suspendedAt) throw forbidden(SUSPENDED_MESSAGE, SUSPENDED_CODE);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  await repo.insertSession(ctx.db, {
    id: hashToken(token),
    userId: user.id,
    expiresAt,
    userAgent: client.userAgent?.slice(0, 500) ?? null,
    ip: client.ip,
  });
  return { token, user, expiresAt };
}

/** Registers an account and signs it in. */
export async function register(ctx: ServiceContext, input: Register, client: ClientInfo): Promise<NewSession> {
  const user = await createAccount(ctx, {
    email: input.email,
    passwordHash: await hashPassword(input.password),
    firstName: input.firstName,
    lastName: input.lastName,
  });
  return startSession(ctx, user, client);
}

/**
 * Checks a password sign-in; 401 with one message for a wrong email or password (saying how many
 * tries are left from this address, or for how long the pair is now paused), 429 when the
 * (account, address) pair or the address is paused. Sign-ins of one pair take turns, in this
 * process and (on PostgreSQL) across processes, so a correct password is never counted against
 * the overlapping sign-ins of its owner. Each attempt holds a provisional failure while its
 * password is checked (so concurrent guesses at one address's other accounts cannot all pass the
 * address's limit): a wrong password keeps it, a correct one takes it back with this address's
 * other failures on the account.
 */
export function login(ctx: ServiceContext, input: Login, client: ClientInfo): Promise<NewSession> {
  const check = () => checkLogin(ctx, input, client);
  return takeTurn(ctx, `${input.email} ${client.ip}`, () =>
    ctx.database.kind === 'postgres' ? withSharedTurn(ctx, input.email, client.ip, check) : check(),
  );
}

/**
 * Runs `work` while a transaction holds the pair's turn for every process on the database. That
 * transaction keeps one pooled connection idle while `work` uses others, so at most half the pool
 * holds turns at once (the rest wait here, in this process): the work always finds a connection.
 */
async function withSharedTurn<T>(ctx: ServiceContext, email: string, ip: string, work: () => Promise<T>): Promise<T> {
  const gate = sharedTurnGate(ctx);
  await gate.enter();
  try {
    return await ctx.db.transaction(async (tx) => {
      await repo.takeLoginTurn(tx, email, ip);
      return work();
    });
  } finally {
    gate.leave();
  }
}

const sharedTurnGates = new WeakMap<ServiceContext['database'], Gate>();

function sharedTurnGate(ctx: ServiceContext): Gate {
  let gate = sharedTurnGates.get(ctx.database);
  if (!gate) {
    gate = createGate(Math.max(1, Math.floor(ctx.database.poolSize / 2)));
    sharedTurnGates.set(ctx.database, gate);
  }
  return gate;
}

interface Gate {
  enter(): Promise<void>;
  leave(): void;
}

/** At most `size` holders at once; the others wait in arrival order. */
function createGate(size: number): Gate {
  let holders = 0;
  const waiting: Array<() => void> = [];
  return {
    enter: () => {
      if (holders < size) {
        holders += 1;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    leave: () => {
      const next = waiting.shift();
      if (next) next();
      else holders -= 1;
    },
  };
}

async function checkLogin(ctx: ServiceContext, input: Login, client: ClientInfo): Promise<NewSession> {
  const attempt = await recordAttempt(ctx, input.email, client.ip);
  if (attempt.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, attempt.delayMs));
  const user = await findUserByEmail(ctx, input.email);
  const ok = user?.passwordHash ? await verifyPassword(user.passwordHash, input.password) : false;
  if (!user?.passwordHash) await verifyDecoy(input.password);
  if (!user || !ok) {
    await repo.deleteOldLoginFailures(ctx.db, LOGIN_FAILURE_WINDOW_MS, REGISTRATION_DAY_MS);
    throw new AppError(401, 'invalid_credentials', invalidLoginMessage(attempt.triesLeft, attempt.pausedUntil));
  }
  await repo.clearLoginFailures(ctx.db, { email: input.email, ip: client.ip });
  return startSession(ctx, user, client);
}

/** The sign-ins of one key waiting for their turn (the last in line), per open database in this process. */
const turnsByDatabase = new WeakMap<ServiceContext['database'], Map<string, Promise<void>>>();

/** Runs `work` after the earlier work of the same key on this database has settled; other keys never wait. */
function takeTurn<T>(ctx: ServiceContext, key: string, work: () => Promise<T>): Promise<T> {
  const queue = turnsByDatabase.get(ctx.database) ?? new Map<string, Promise<void>>();
  turnsByDatabase.set(ctx.database, queue);
  const run = (queue.get(key) ?? Promise.resolve()).then(work);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  queue.set(key, settled);
  void settled.then(() => {
    if (queue.get(key) === settled) queue.delete(key);
  });
  return run;
}

function invalidLoginMessage(triesLeft: number, pausedUntil: Date | null): string {
  if (triesLeft <= 0) {
    const seconds = pausedUntil ? (pausedUntil.getTime() - Date.now()) / 1000 : LOGIN_FAILURE_WINDOW_MS / 1000;
    return `${INVALID_LOGIN_MESSAGE}. Sign-in to this account from your network is now paused for ${describeWait(seconds)}.`;
  }
  return `${INVALID_LOGIN_MESSAGE}. ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left before sign-in to this account from your network is paused for 15 minutes.`;
}

/**
 * Counts one provisional failure against the (email, address) pair, or refuses with 429 when the
 * pair or the address is paused. Answers the tries left for the pair, when the pair's pause ends
 * if this attempt fails and pauses it, and the account's slowdown.
 */
async function recordAttempt(
  ctx: ServiceContext,
  email: string,
  ip: string,
): Promise<{ triesLeft: number; pausedUntil: Date | null; delayMs: number }> {
  return ctx.db.transaction(async (tx) => {
    await repo.lockLoginAttempts(tx, email, ip);
    const byPair = await repo.findLockoutEnd(tx, { email, ip }, PAIR_FAILURE_LIMIT, LOGIN_FAILURE_WINDOW_MS);
    const byIp = await repo.findLockoutEnd(tx, { ip }, ADDRESS_FAILURE_LIMIT, LOGIN_FAILURE_WINDOW_MS);
    const until = [byPair, byIp].filter((d): d is Date => d !== null).sort((a, b) => b.getTime() - a.getTime())[0];
    if (until) throw lockedOutUntil(until);
    const pairFailures = await repo.countLoginFailures(tx, { email, ip }, LOGIN_FAILURE_WINDOW_MS);
    const accountFailures = await repo.countLoginFailures(tx, { email }, LOGIN_FAILURE_WINDOW_MS);
    await repo.insertLoginFailure(tx, email, ip);
    const triesLeft = PAIR_FAILURE_LIMIT - pairFailures - 1;
    const pausedUntil =
      triesLeft <= 0 ? await repo.findLockoutEnd(tx, { email, ip }, PAIR_FAILURE_LIMIT, LOGIN_FAILURE_WINDOW_MS) : null;
    return { triesLeft, pausedUntil, delayMs: accountSlowdownMs(accountFailures) };
  });
}

function lockedOutUntil(until: Date): AppError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return tooManyRequests(
    `Too many failed sign-in attempts from your network. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again, or reset your password.`,
    seconds,
    'too_many_login_attempts',
  );
}

export interface ResolvedSession {
  id: string;
  user: UserRow;
  /** Set when the expiry was pushed back and the cookie must be re-issued. */
  renewedUntil: Date | null;
}

/** The user behind a session cookie token, extending the session's 30-day rolling expiry. */
export async function resolveSession(ctx: ServiceContext, token: string): Promise<ResolvedSession | null> {
  const id = hashToken(token);
  const found = await repo.findLiveSession(ctx.db, id);
  if (!found) return null;
  const remaining = found.expiresAt.getTime() - Date.now();
  if (remaining > SESSION_TTL_MS - SESSION_REFRESH_AFTER_MS) return { id, user: found.user, renewedUntil: null };
  const renewedUntil = new Date(Date.now() + SESSION_TTL_MS);
  await repo.extendSession(ctx.db, id, renewedUntil);
  return { id, user: found.user, renewedUntil };
}

/** Ends a session server-side: its cookie is worthless afterwards. */
export async function logout(ctx: ServiceContext, sessionId: string): Promise<void> {
  await repo.deleteSession(ctx.db, sessionId);
}

/** Ends every session of the user, on every device (this one too); answers how many were ended. */
export function logoutEverywhere(ctx: ServiceContext, userId: string): Promise<number> {
  return repo.deleteUserSessions(ctx.db, userId);
}

/** Deletes sessions past their expiry (the retention sweeper calls this); answers how many. */
export function pruneExpiredSessions(ctx: ServiceContext): Promise<number> {
  return repo.deleteExpiredSessions(ctx.db);
}
