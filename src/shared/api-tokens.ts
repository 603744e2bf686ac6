import { z } from 'zod';
import { singleLine } from './text';

/** What a personal access token may do (docs/operating.md, "Public API"). */
export const TOKEN_SCOPES = ['videos:read', 'videos:write', 'uploads:write', 'account:read', 'reports:write'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** Every token starts with this, so it is recognisable in a leaked file and by secret scanners. */
export const TOKEN_PREFIX = 'rs_';

/** The account page's words for each scope. */
export const TOKEN_SCOPE_LABELS: Record<TokenScope, string> = {
  'videos:read': 'See your videos and download them',
  'videos:write': 'Make and delete videos (spends your credits)',
  'uploads:write': 'Upload inputs',
  'account:read': 'See your balance and account details',
  'reports:write': 'Report videos to the people who run this server',
};

/** Tokens one user may hold at once. */
export const MAX_TOKENS_PER_USER = 50;
export const TOKEN_NAME_MAX_LENGTH = 100;

/** POST /api/account/tokens */
export const createTokenSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'is required')
    .max(TOKEN_NAME_MAX_LENGTH, `must be at most ${TOKEN_NAME_MAX_LENGTH} characters`)
    .check(singleLine),
  scopes: z
    .array(z.enum(TOKEN_SCOPES))
    .min(1, 'must name at least one scope')
    .max(TOKEN_SCOPES.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, 'must not repeat a scope'),
  /** ISO 8601 with an offset; omitted or null: the token never expires. */
  expiresAt: z.iso.datetime({ offset: true }).nullish(),
});
export type CreateTokenRequest = z.infer<typeof createTokenSchema>;

/** One token as listed: never its secret. */
export const tokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(TOKEN_SCOPES)),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AccessToken = z.infer<typeof tokenSchema>;

/** 201 of POST /api/account/tokens: the only answer that ever carries the token. */
export const createdTokenSchema = z.object({
  id: z.string(),
  token: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(TOKEN_SCOPES)),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
});
export type CreatedAccessToken = z.infer<typeof createdTokenSchema>;

export const tokenListSchema = z.object({ tokens: z.array(tokenSchema) });
export type AccessTokenList = z.infer<typeof tokenListSchema>;

export const tokenIdParamsSchema = z.object({ id: z.uuid('must be a token id') });
