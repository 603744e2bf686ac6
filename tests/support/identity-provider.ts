import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { readEnv } from '../../src/server/config';

/** What the test provider says about a person (their `sub` is the account id). */
export interface TestAccountClaims {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
}

export interface TestIdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers (or changes) what the provider tells about an account. */
  setAccount(accountId: string, claims: TestAccountClaims): void;
  close(): Promise<void>;
}

/** The self-signed pair made by tests/setup/test-tls.ts (trusted by the workers through NODE_EXTRA_CA_CERTS). */
export function testTlsOptions(): { cert: Buffer; key: Buffer } {
  const env = readEnv();
  if (!env.TEST_TLS_CERT_FILE || !env.TEST_TLS_KEY_FILE)
    throw new Error('tests/setup/test-tls.ts has not run (see vitest.config.ts)');
  return { cert: readFileSync(env.TEST_TLS_CERT_FILE), key: readFileSync(env.TEST_TLS_KEY_FILE) };
}

type Tls = { cert: Buffer | string; key: Buffer | string };

async function listenHttps(
  handler: Parameters<typeof createServer>[1],
  tls: Tls = testTlsOptions(),
): Promise<{ server: Server; origin: string }> {
  const server = createServer(tls, handler);
  // Longer than any test's pause, so no reused connection is closed under a request on a busy machine.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * A real OpenID Connect provider (oidc-provider) on 127.0.0.1 over HTTPS, with one confidential
 * client for the app under test. Its interaction step signs in the account named by the
 * authorization request's login_hint (else `defaultAccount`) and grants the requested scopes at
 * once, as a person clicking through would. Claims go to the user info endpoint only, unless
 * `claimsInIdToken` (as Google does).
 */
export async function startTestIdentityProvider(options: {
  /** The app's callback URLs; a function when the app starts after the provider (read at the first request). */
  redirectUris: string[] | (() => string[]);
  defaultAccount?: string;
  claimsInIdToken?: boolean;
  /** Certificate and key; default: the pair tests/setup/test-tls.ts made. */
  tls?: Tls;
}): Promise<TestIdentityProvider> {
  const accounts = new Map<string, TestAccountClaims>();
  const clientId = 'reelsmith-test';
  const clientSecret = 'reelsmith-test-secret-reelsmith-test-secret';
  // The issuer URL needs the port, so the provider is made at the first request, once the server listens.
  const ready: { provider?: Provider } = {};
  const { server, origin } = await listenHttps((req, res) => {
    const provider = (ready.provider ??= createProvider(origin));
    if (req.url?.startsWith('/interaction/')) return void finishInteraction(provider, req, res, options.defaultAccount);
    provider.callback()(req, res);
  }, options.tls);
  const redirectUris = () =>
    typeof options.redirectUris === 'function' ? options.redirectUris() : options.redirectUris;
  const createProvider = (issuer: string) =>
    new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: redirectUris(),
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      findAccount: (_ctx: unknown, id: string) => ({
        accountId: id,
        claims: () => ({ sub: id, ...accounts.get(id) }),
      }),
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
      conformIdTokenClaims: !options.claimsInIdToken,
      cookies: { keys: ['test-identity-provider-cookie-key'] },
      pkce: { required: () => true },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    });
  return {
    issuer: origin,
    clientId,
    clientSecret,
    setAccount: (id, claims) => void accounts.set(id, claims),
    close: () => closeServer(server),
  };
}

async function finishInteraction(
  provider: Provider,
  req: Parameters<Provider['interactionDetails']>[0],
  res: Parameters<Provider['interactionDetails']>[1],
  fallback = 'person',
) {
  try {
    const { params } = await provider.interactionDetails(req, res);
    const accountId = typeof params.login_hint === 'string' ? params.login_hint : fallback;
    const grant = new provider.Grant({ accountId, clientId: String(params.client_id) });
    grant.addOIDCScope(String(params.scope));
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * An issuer that is not the one whose tokens come back: its discovery document names itself as
 * issuer but points every endpoint (and the keys) at `real`. Tokens then carry real's `iss`.
 */
export async function startImpostorIssuer(
  real: TestIdentityProvider,
): Promise<{ issuer: string; close(): Promise<void> }> {
  const metadata = (await (await fetch(`${real.issuer}/.well-known/openid-configuration`)).json()) as Record<
    string,
    unknown
  >;
  delete metadata.authorization_response_iss_parameter_supported;
  const { server, origin } = await listenHttps((req, res) => {
    if (req.url !== '/.well-known/openid-configuration') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...metadata, issuer: origin }));
  });
  return { issuer: origin, close: () => closeServer(server) };
}
