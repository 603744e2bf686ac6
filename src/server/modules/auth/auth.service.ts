import { createHash, randomBytes } from 'node:crypto';
import type { Login, Register } from '../../../shared/auth';
import type { ServiceContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { AppError, tooManyRequests } from '../../lib/app-error';
import { createAccount, findUserByEmail } from '../users/users.service';
import * as repo from './auth.repository';
import { hashPassword, verifyDecoy, verifyPassword } from './password';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A session is pushed back to a full 30 days at most once a day, not on every request. */
const SESSION_REFRESH_AFTER_MS = 24 * 60 * 60 * 1000;
export const LOGIN_FAILURE_LIMIT = 10;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const INVALID_LOGIN_MESSAGE = 'Invalid email or password';

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
async function startSession(ctx: ServiceContext, user: UserRow, client: ClientInfo): Promise<NewSession> {
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
 * Checks a password sign-in; 401 with one message for a wrong email or password, 429 when locked
 * out. The attempt is counted before the password is checked, so that concurrent guesses cannot
 * all pass the limit: at most LOGIN_FAILURE_LIMIT passwords are checked per email and per IP in
 * the window, however many arrive at once. A successful sign-in takes its attempt back.
 */
export async function login(ctx: ServiceContext, input: Login, client: ClientInfo): Promise<NewSession> {
  await recordAttempt(ctx, input.email, client.ip);
  const user = await findUserByEmail(ctx, input.email);
  const ok = user?.passwordHash ? await verifyPassword(user.passwordHash, input.password) : false;
  if (!user?.passwordHash) await verifyDecoy(input.password);
  if (!user || !ok) {
    await repo.deleteOldLoginFailures(ctx.db, LOGIN_FAILURE_WINDOW_MS);
    throw new AppError(401, 'invalid_credentials', INVALID_LOGIN_MESSAGE);
  }
  await repo.clearLoginFailures(ctx.db, input.email);
  return startSession(ctx, user, client);
}

/** Counts one attempt against the email and the IP, or refuses with 429 when either is locked out. */
async function recordAttempt(ctx: ServiceContext, email: string, ip: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await repo.lockLoginAttempts(tx, email, ip);
    const byEmail = await repo.findLockoutEnd(tx, { email }, LOGIN_FAILURE_LIMIT, LOGIN_FAILURE_WINDOW_MS);
    const byIp = await repo.findLockoutEnd(tx, { ip }, LOGIN_FAILURE_LIMIT, LOGIN_FAILURE_WINDOW_MS);
    const until = [byEmail, byIp].filter((d): d is Date => d !== null).sort((a, b) => b.getTime() - a.getTime())[0];
    if (until) throw lockedOutUntil(until);
    await repo.insertLoginFailure(tx, email, ip);
  });
}

function lockedOutUntil(until: Date): AppError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return tooManyRequests(
    `Too many failed sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
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
