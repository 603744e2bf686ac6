import { z } from 'zod';
import { emailSchema, firstNameSchema, lastNameSchema, newPasswordSchema, PASSWORD_MAX_LENGTH } from './auth';
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
  /** Who to ask for help (OPERATOR_CONTACT, else SUPPORT_EMAIL when set): an email or a URL; null when neither; older servers omit it. */
  operatorContact: z.string().nullable().default(null),
  /** New accounts are taken (REGISTRATION_OPEN, or the settings page); older servers omit it. */
  registrationOpen: z.boolean().default(true),
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
export const passwordResetRequestSchema = z.strictObject({
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
export const passwordResetConfirmSchema = z.strictObject({
  token: z.string().min(1, 'is required').max(200, 'must be at most 200 characters').check(singleLine),
  password: newPasswordSchema,
});
export type PasswordResetConfirm = z.infer<typeof passwordResetConfirmSchema>;

/** POST /api/auth/verify-email: the token of a mailed verification link. */
export const verifyEmailSchema = z.strictObject({
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

/** A password the user types to prove it is them (changing email or password, deleting the account). */
const currentPasswordSchema = z.string().min(1, 'is required').max(PASSWORD_MAX_LENGTH).check(singleLine);

/** PATCH /api/account: the name, with registration's rules. */
export const accountNameSchema = z.strictObject({ firstName: firstNameSchema, lastName: lastNameSchema });
export type AccountName = z.infer<typeof accountNameSchema>;

/** POST /api/account/email: the new address; accounts with a password confirm it. */
export const emailChangeSchema = z.strictObject({
  email: emailSchema,
  currentPassword: currentPasswordSchema.optional(),
});
export type EmailChange = z.infer<typeof emailChangeSchema>;

/** GET and POST /api/account/email: the address waiting for its link to be followed, if any. */
export const emailChangeStatusSchema = z.object({
  pendingEmail: z.string().nullable(),
  /** When the pending address's link stops working. */
  pendingUntil: z.string().nullable(),
});
export type EmailChangeStatus = z.infer<typeof emailChangeStatusSchema>;

/** POST /api/account/password */
export const passwordChangeSchema = z.strictObject({
  currentPassword: currentPasswordSchema,
  newPassword: newPasswordSchema,
});
export type PasswordChange = z.infer<typeof passwordChangeSchema>;

/**
 * DELETE /api/account: an account with a password confirms with it; one without (external sign-in
 * only) types its email.
 */
export const accountDeleteSchema = z.strictObject({
  password: currentPasswordSchema.optional(),
  email: z.string().trim().toLowerCase().max(254).check(singleLine).optional(),
});
export type AccountDelete = z.infer<typeof accountDeleteSchema>;

export const WRONG_PASSWORD_MESSAGE = 'Your current password is not right.';
export const EMAIL_CHANGE_SENT_MESSAGE =
  'We sent a link to the new address. Your email changes when you follow it (it works once, for 24 hours); until then you keep signing in with the old one.';
export const PASSWORD_CHANGED_MESSAGE =
  'Your password was changed. You were signed out everywhere else, and your access tokens were revoked.';
export const ACCOUNT_DELETED_MESSAGE = 'Your account and all its data were deleted.';
export const NO_PASSWORD_MESSAGE =
  'This account has no password to change yet: it signs in through a linked provider. A password reset link sets one.';
export const DELETE_CONFIRMATION_MESSAGE = 'Type your email exactly as it is shown to confirm.';
export const EMAIL_CHANGE_UNAVAILABLE_MESSAGE =
  'This server cannot send email, so a new address cannot be confirmed here. Ask the administrator to change it.';

/** A registration on a server that takes no new accounts (REGISTRATION_OPEN=false, or the settings page). */
export const REGISTRATION_CLOSED_CODE = 'registration_closed';
export const REGISTRATION_CLOSED_MESSAGE =
  'This server is not taking new accounts. Ask the person who runs it for one.';
