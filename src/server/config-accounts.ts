import { z } from 'zod';

/**
 * The accounts part of the environment (external sign-ins, mail, the sign-up grant), kept apart from
 * config.ts so that file stays readable. config.ts spreads `accountsEnv` into its schema and calls
 * readAccountsConfig; nothing here reads process.env.
 */
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));

/** A text setting whose empty value (as .env.example leaves it) means the default. */
const withDefault = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((v) => v?.trim() || fallback);

const httpsUrl = z
  .url({
    protocol: /^https$/,
    error: 'must be an https:// URL (issuers are always HTTPS; a private CA goes in NODE_EXTRA_CA_CERTS)',
  })
  .optional()
  .or(z.literal('').transform(() => undefined));

export const accountsEnv = {
  /** Any OpenID Connect provider (Keycloak, Authentik, Auth0, Okta, Entra ID, Google...): on with issuer, id and secret. */
  OIDC_ISSUER_URL: httpsUrl,
  OIDC_CLIENT_ID: optionalText,
  OIDC_CLIENT_SECRET: optionalText,
  OIDC_SCOPES: withDefault('openid email profile'),
  OIDC_BUTTON_LABEL: withDefault('Continue with single sign-on').pipe(
    z.string().max(60, 'must be at most 60 characters'),
  ),
  /** Google sign-in: on with both. */
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  /** For tests only: a stand-in for Google's issuer. Production leaves it at Google's. */
  GOOGLE_ISSUER_URL: withDefault('https://accounts.google.com').pipe(
    z.url({ protocol: /^https$/, error: 'must be an https:// URL' }),
  ),
  /** Password-reset mail: smtp(s)://user:pass@host:port; without it resets are done by the operator CLI. */
  SMTP_URL: z
    .url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_FROM: optionalText,
  /**
   * Without SMTP_URL nobody can verify an email: whether accounts whose email was never verified may
   * still spend credits on videos (true, the default, as before email verification existed).
   */
  UNVERIFIED_ACCOUNTS_CAN_SPEND: withDefault('true').pipe(
    z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true'),
  ),
  /** Whether anyone may open an account (true, the default); false: only the first account, the administrator's. */
  REGISTRATION_OPEN: withDefault('true').pipe(
    z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true'),
  ),
  /** Credits every new account receives (two decimals at most); 1 pays for one standard video. */
  SIGNUP_CREDITS: withDefault('1').refine(
    (v) => /^\d{1,6}(\.\d{1,2})?$/.test(v),
    'must be a number of credits from 0 to 999999 with at most two decimals',
  ),
};

type AccountsEnv = z.output<z.ZodObject<typeof accountsEnv>>;

export interface ExternalProviderConfig {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
}

export interface AccountsConfig {
  /** Generic OpenID Connect at /api/login; absent unless issuer, id and secret are all set. */
  oidc: (ExternalProviderConfig & { buttonLabel: string }) | undefined;
  /** Google at /api/auth/google; absent without both id and secret. */
  google: ExternalProviderConfig | undefined;
  /** SMTP for password-reset mail; absent without SMTP_URL. */
  mail: { smtpUrl: string; from: string } | undefined;
  signupCreditsHundredths: number;
  /** Without mail: whether an account whose email was never verified may spend (UNVERIFIED_ACCOUNTS_CAN_SPEND). */
  unverifiedCanSpend: boolean;
  /** REGISTRATION_OPEN: new accounts (by password or a first external sign-in) are taken. */
  registrationOpen: boolean;
}

/** The accounts configuration, or a sentence saying what is wrong. */
export function readAccountsConfig(env: AccountsEnv & { PUBLIC_URL?: string | undefined }): AccountsConfig | string {
  const oidcParts = [env.OIDC_ISSUER_URL, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET];
  if (oidcParts.some(Boolean) && !oidcParts.every(Boolean)) {
    return 'OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET: set all three to offer OpenID Connect sign-in, or none';
  }
  if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
    return 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET: set both to offer Google sign-in, or neither';
  }
  if (env.MAIL_FROM && !env.SMTP_URL) return 'MAIL_FROM: set SMTP_URL too, or leave MAIL_FROM empty';
  const host = env.PUBLIC_URL ? new URL(env.PUBLIC_URL).hostname : 'localhost';
  const [whole = '0', fraction = ''] = env.SIGNUP_CREDITS.split('.');
  return {
    oidc:
      env.OIDC_ISSUER_URL && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET
        ? {
            issuerUrl: env.OIDC_ISSUER_URL,
            clientId: env.OIDC_CLIENT_ID,
            clientSecret: env.OIDC_CLIENT_SECRET,
            scopes: env.OIDC_SCOPES,
            buttonLabel: env.OIDC_BUTTON_LABEL,
          }
        : undefined,
    google:
      env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? {
            issuerUrl: env.GOOGLE_ISSUER_URL,
            clientId: env.GOOGLE_CLIENT_ID,
            clientSecret: env.GOOGLE_CLIENT_SECRET,
            scopes: 'openid email profile',
          }
        : undefined,
    mail: env.SMTP_URL ? { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM ?? `Reelsmith <no-reply@${host}>` } : undefined,
    signupCreditsHundredths: Number(whole) * 100 + Number(fraction.padEnd(2, '0')),
    unverifiedCanSpend: env.UNVERIFIED_ACCOUNTS_CAN_SPEND,
    registrationOpen: env.REGISTRATION_OPEN,
  };
}
