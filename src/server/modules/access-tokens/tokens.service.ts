import { createHash, randomBytes } from 'node:crypto';
import {
  type AccessToken,
  type CreatedAccessToken,
  type CreateTokenRequest,
  MAX_TOKENS_PER_USER,
  TOKEN_PREFIX,
  type TokenScope,
} from '../../../shared/api-tokens';
import type { ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import type { ApiTokenRow, UserRow } from '../../db/schema';
import { AppError, badRequest, notFound, unauthorized } from '../../lib/app-error';
import * as repo from './tokens.repository';

/** last_used_at is written at most this often per token, so a busy token costs no write per request. */
const LAST_USED_PRECISION_MS = 60_000;

/**
 * SHA-256 of the token. A fast unsalted hash is right here, unlike for passwords: the token is 32
 * random bytes (256 bits), so nobody can guess it from its hash however fast they hash; and the
 * hash is looked up by equality on every API request, which a salted slow hash would not allow.
 */
export function hashAccessToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** Whether a bearer credential is shaped like one of ours (`rs_` and 43 base64url characters). */
const TOKEN_SHAPE = /^rs_[A-Za-z0-9_-]{43}$/;

function present(row: ApiTokenRow): AccessToken {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Creates a token; the answer is the only place its secret ever appears. */
export async function createToken(
  ctx: ServiceContext,
  userId: string,
  request: CreateTokenRequest,
): Promise<CreatedAccessToken> {
  const now = ctx.now();
  const expiresAt = request.expiresAt ? new Date(request.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= now.getTime())
    throw badRequest('The expiry date must be in the future.', 'invalid_expiry');
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = await ctx.db.transaction(async (tx) => {
    await repo.lockUser(tx, userId);
    if ((await repo.countUserTokens(tx, userId)) >= MAX_TOKENS_PER_USER)
      throw new AppError(
        409,
        'too_many_tokens',
        `You already have ${MAX_TOKENS_PER_USER} access tokens. Revoke one you no longer use first.`,
      );
    return repo.insertToken(tx, {
      userId,
      tokenHash: hashAccessToken(token),
      name: request.name,
      // In the catalogue's order, whatever order they were asked in.
      scopes: [...new Set(request.scopes)],
      expiresAt,
      createdAt: now,
    });
  });
  const { lastUsedAt: _unused, ...shown } = present(row);
  return { ...shown, token };
}

export async function listTokens(ctx: ServiceContext, userId: string): Promise<AccessToken[]> {
  return (await repo.listUserTokens(ctx.db, userId)).map(present);
}

export async function revokeToken(ctx: ServiceContext, userId: string, id: string): Promise<void> {
  if (!(await repo.deleteUserToken(ctx.db, userId, id)))
    throw notFound('This access token was not found. It may have been revoked already.', 'token_not_found');
}

/**
 * Revokes the user's tokens when a key to the account changes hands (decision 018): every token, or
 * only those made while the account's email was unproven. In the caller's transaction; answers how many.
 */
export function revokeTokensIn(tx: Executor, userId: string, which: 'all' | 'unproven'): Promise<number> {
  return repo.deleteUserTokens(tx, userId, which === 'unproven');
}

export interface ResolvedToken {
  id: string;
  scopes: readonly TokenScope[];
  user: UserRow;
}

const invalidToken = () =>
  unauthorized('This access token is not valid. It may have been revoked or may have expired.', 'invalid_token');

/** The user behind a bearer token, or a 401 (unknown, revoked or expired). Marks it used. */
export async function resolveBearerToken(ctx: ServiceContext, token: string): Promise<ResolvedToken> {
  if (!TOKEN_SHAPE.test(token)) throw invalidToken();
  const found = await repo.findTokenByHash(ctx.db, hashAccessToken(token));
  const now = ctx.now();
  if (!found) throw invalidToken();
  if (found.token.expiresAt && found.token.expiresAt.getTime() <= now.getTime())
    throw unauthorized('This access token has expired. Create a new one on your account page.', 'token_expired');
  const lastUsed = found.token.lastUsedAt?.getTime() ?? 0;
  if (now.getTime() - lastUsed >= LAST_USED_PRECISION_MS) {
    await repo.touchToken(ctx.db, found.token.id, now, new Date(now.getTime() - LAST_USED_PRECISION_MS));
  }
  return { id: found.token.id, scopes: found.token.scopes, user: found.user };
}
