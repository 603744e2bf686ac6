import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './auth';
import { singleLine } from './text';

/** GET /api/auth/providers: what this server offers, so the client shows only buttons that work. */
export const signInOptionsSchema = z.object({
  /** The generic OpenID Connect sign-in at /api/login, with its button label; null when not configured. */
  oidc: z.object({ label: z.string() }).nullable(),
  /** Google sign-in at /api/auth/google. */
  google: z.boolean(),
  /** Password reset by email (the server has SMTP). */
  passwordReset: z.boolean(),
  /** Registration asks for a proof of work first (GET /api/auth/challenge); older servers omit it. */
  registrationChallenge: z.boolean().default(false),
});
export type SignInOptions = z.infer<typeof signInOptionsSchema>;

/** GET /api/auth/challenge: an ALTCHA challenge; the browser finds `number` with SHA-256(salt + number) = challenge. */
export const registrationChallengeSchema = z.object({
  algorithm: z.literal('SHA-256'),
  challenge: z.string(),
  maxnumber: z.number().int(),
  salt: z.string(),
  signature: z.string(),
});
export type RegistrationChallenge = z.infer<typeof registrationChallengeSchema>;

/** POST /api/auth/password-reset */
export const passwordResetRequestSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .min(1, 'is required')
    .max(254, 'must be at most 254 characters')
    .check(singleLine),
});
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

/** POST /api/auth/password-reset/confirm */
export const passwordResetConfirmSchema = z.object({
  token: z.string().min(1, 'is required').max(200, 'must be at most 200 characters').check(singleLine),
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`)
    .check(singleLine),
});
export type PasswordResetConfirm = z.infer<typeof passwordResetConfirmSchema>;

/** POST /api/auth/verify-email: the token of a mailed verification link. */
export const verifyEmailSchema = z.object({
  token: z.string().min(1, 'is required').max(200, 'must be at most 200 characters').check(singleLine),
});
export type VerifyEmail = z.infer<typeof verifyEmailSchema>;

/** The one answer to every resend request (sent, already verified or past the limits alike). */
export const VERIFICATION_RESENT_MESSAGE =
  'If your email still needs verifying, a new link is on its way. It works once, for 24 hours.';

/** The one answer to every reset request, whether or not the email has an account. */
export const PASSWORD_RESET_REQUESTED_MESSAGE =
  'If an account uses that email, a link to choose a new password is on its way. The link works once, for 30 minutes.';
export const PASSWORD_RESET_VALID_MINUTES = 30;

export const IDENTITY_PROVIDER_NAMES = ['oidc', 'google'] as const;
export const identityProviderSchema = z.enum(IDENTITY_PROVIDER_NAMES);

/** GET /api/account/identities: the external sign-ins linked to the account, and whether it has a password. */
export const accountSignInsSchema = z.object({
  hasPassword: z.boolean(),
  identities: z.array(
    z.object({
      id: z.string(),
      provider: identityProviderSchema,
      /** What the account page calls it: the OIDC button's label without 'Continue with', or 'Google'. */
      providerName: z.string(),
      email: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
});
export type AccountSignIns = z.infer<typeof accountSignInsSchema>;

export const identityIdParamsSchema = z.object({ id: z.uuid('must be an identity id') });
