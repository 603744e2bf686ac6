import * as oidc from 'openid-client';
import type { ExternalProviderConfig } from '../../config-accounts';
import type { ServiceContext } from '../../context';
import type { SignInFlow } from './flow-cookie';
import { FLOW_TTL_MS } from './flow-cookie';

export type ExternalProvider = SignInFlow['provider'];

/** Where each provider sends the browser back (register these redirect URIs at the provider). */
export const CALLBACK_PATHS: Record<ExternalProvider, string> = {
  oidc: '/api/callback',
  google: '/api/auth/google/callback',
};

/** Every call to a provider (discovery, token, user info) gives up after this many seconds. */
const PROVIDER_TIMEOUT_SECONDS = 10;
/** A discovered configuration is used this long, then discovered again (keys and endpoints rotate). */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;

/**
 * A failed external sign-in: the /login error code (docs/product-rules.md, Accounts and sign-in) and a plain sentence for it.
 * Never a 500: the callback turns it into /login?error=…&details=….
 */
export class ExternalSignInError extends Error {
  constructor(
    readonly code:
      | 'oauth_error'
      | 'no_user'
      | 'redirect_uri_mismatch'
      | 'google_auth_failed'
      | 'session_save_failed'
      | 'account_suspended'
      | 'registration_closed',
    readonly details: string,
  ) {
    super(details);
    this.name = 'ExternalSignInError';
  }
}

/** What the provider told us about the person, after the ID token checked out. */
export interface ExternalProfile {
  provider: ExternalProvider;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
}

interface CachedDiscovery {
  at: number;
  config: Promise<oidc.Configuration>;
}

/** One discovery per provider and service context (a process has one), refreshed hourly. */
const discoveries = new WeakMap<ServiceContext, Map<ExternalProvider, CachedDiscovery>>();

export function providerSettings(ctx: ServiceContext, provider: ExternalProvider): ExternalProviderConfig | undefined {
  return provider === 'oidc' ? ctx.config.accounts.oidc : ctx.config.accounts.google;
}

function discover(
  ctx: ServiceContext,
  provider: ExternalProvider,
  settings: ExternalProviderConfig,
): Promise<oidc.Configuration> {
  let cache = discoveries.get(ctx);
  if (!cache) discoveries.set(ctx, (cache = new Map<ExternalProvider, CachedDiscovery>()));
  const cached = cache.get(provider);
  if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
  const run = () =>
    oidc.discovery(
      new URL(settings.issuerUrl),
      settings.clientId,
      undefined,
      oidc.ClientSecretBasic(settings.clientSecret),
      {
        timeout: PROVIDER_TIMEOUT_SECONDS,
      },
    );
  // Discovery is a GET: one retry covers a kept-alive connection the provider closed just then.
  const config = run()
    .catch((error: unknown) => {
      if (error instanceof TypeError) return run();
      throw error;
    })
    .then((discovered) => {
      discovered.timeout = PROVIDER_TIMEOUT_SECONDS;
      return discovered;
    });
  cache.set(provider, { at: Date.now(), config });
  // A failed discovery is not kept: the next sign-in tries again.
  config.catch(() => {
    if (cache.get(provider)?.config === config) cache.delete(provider);
  });
  return config;
}

function failureCode(provider: ExternalProvider): 'oauth_error' | 'google_auth_failed' {
  return provider === 'google' ? 'google_auth_failed' : 'oauth_error';
}

/** A protocol failure as the /login error (docs/product-rules.md, Accounts and sign-in), with a sentence a person can act on. */

export function describeFailure(provider: ExternalProvider, error: unknown): ExternalSignInError {
  if (error instanceof ExternalSignInError) return error;
  const code = failureCode(provider);
  if (error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError) {
    const text = `${error.error} ${error.error_description ?? ''}`;
    if (/redirect_uri/i.test(text))
      return new ExternalSignInError(
        'redirect_uri_mismatch',
        "The sign-in provider does not accept this server's redirect URI.",
      );
    if (error.error === 'access_denied')
      return new ExternalSignInError(code, 'The sign-in was cancelled or refused at the provider.');
    return new ExternalSignInError(
      code,
      `The sign-in provider refused the sign-in (${error.error}). Please try again.`,
    );
  }
  if (error instanceof oidc.ClientError) {
    return new ExternalSignInError(
      code,
      'The answer from the sign-in provider could not be verified. Please try again.',
    );
  }
  return new ExternalSignInError(code, 'The sign-in provider could not be reached. Please try again in a moment.');
}

/**
 * Starts an authorization code flow with PKCE: answers the provider URL to send the browser to and
 * the flow (state, nonce, verifier) to keep in the signed cookie until the callback.
 */
export async function startExternalSignIn(
  ctx: ServiceContext,
  provider: ExternalProvider,
): Promise<{ url: string; flow: SignInFlow }> {
  const settings = providerSettings(ctx, provider);
  if (!settings) {
    const name = provider === 'google' ? 'Google sign-in' : 'Single sign-on';
    throw new ExternalSignInError(
      'oauth_error',
      `${name} is not configured on this server. Please sign in with your email and password.`,
    );
  }
  try {
    const config = await discover(ctx, provider, settings);
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const flow: SignInFlow = {
      provider,
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier,
      expiresAt: ctx.now().getTime() + FLOW_TTL_MS,
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: `${ctx.config.publicUrl}${CALLBACK_PATHS[provider]}`,
      scope: settings.scopes,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    return { url: url.href, flow };
  } catch (error) {
    throw describeFailure(provider, error);
  }
}

/**
 * Finishes the flow at the callback: checks state, exchanges the code with the PKCE verifier,
 * verifies the ID token (signature, issuer, audience, nonce) and answers the person's profile.
 */
export async function finishExternalSignIn(
  ctx: ServiceContext,
  flow: SignInFlow,
  callbackUrl: URL,
): Promise<ExternalProfile> {
  const settings = providerSettings(ctx, flow.provider);
  if (!settings)
    throw new ExternalSignInError(failureCode(flow.provider), 'This sign-in is not configured on this server.');
  try {
    const config = await discover(ctx, flow.provider, settings);
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: flow.codeVerifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims?.sub) throw new ExternalSignInError('no_user', 'The sign-in provider sent no user information.');
    let info: Record<string, unknown> = claims;
    // Some providers put the email only in the user info answer, not in the ID token.
    if (typeof claims.email !== 'string' && tokens.access_token) {
      info = { ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
    }
    return toProfile(flow.provider, claims.sub, info);
  } catch (error) {
    throw describeFailure(flow.provider, error);
  }
}

function text(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  // eslint-disable-next-line no-control-regex -- names from another server: no control characters kept
  const cleaned = value.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim();
  return cleaned ? cleaned.slice(0, max) : null;
}

function toProfile(provider: ExternalProvider, subject: string, info: Record<string, unknown>): ExternalProfile {
  const email = text(info.email, 254)?.toLowerCase() ?? null;
  return {
    provider,
    subject: subject.slice(0, 255),
    email: email && /^[^\s@]+@[^\s@]+$/.test(email) ? email : null,
    // Only an explicit true counts (some providers send the string "true").
    emailVerified: info.email_verified === true || info.email_verified === 'true',
    firstName: text(info.given_name, 100) ?? text(info.name, 100),
    lastName: text(info.family_name, 100),
  };
}
