import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** The start of an external sign-in: where the app sends the browser, and the flow cookie it set. */
export interface StartedSignIn {
  authorizationUrl: URL;
  flowCookie: string;
}

/** GET /api/login (or /api/auth/google) as a browser: answers the provider URL and the signed flow cookie. */
export async function beginSignIn(app: FastifyInstance, path: string, cookie?: string): Promise<StartedSignIn> {
  const response = await app.inject({ method: 'GET', url: path, headers: cookie ? { cookie } : {} });
  if (response.statusCode !== 302) throw new Error(`${path} answered ${response.statusCode}: ${response.body}`);
  const flow = response.cookies.find((c) => c.name === 'rs_signin_flow');
  if (!flow) throw new Error(`${path} set no flow cookie; it redirected to ${String(response.headers.location)}`);
  return { authorizationUrl: new URL(String(response.headers.location)), flowCookie: `rs_signin_flow=${flow.value}` };
}

/**
 * Follows the provider's redirects as a browser with its own cookie jar would (the provider's
 * interaction signs the login_hint account in), until it sends the browser back to `appOrigin`.
 * Answers that callback's path and query.
 */
export async function authorizeAtProvider(authorizationUrl: URL, appOrigin: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop += 1) {
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const index = pair.indexOf('=');
      jar.set(pair.slice(0, index), pair.slice(index + 1));
    }
    const location = response.headers.get('location');
    if (!location)
      throw new Error(`the provider answered ${response.status} without a redirect: ${await response.text()}`);
    url = new URL(location, url);
    if (url.origin === appOrigin) return `${url.pathname}${url.search}`;
  }
  throw new Error('the provider redirected too often');
}

/** The callback as a browser: with the flow cookie (and a session cookie, if signed in). */
export function finishSignIn(
  app: FastifyInstance,
  callback: string,
  cookies: string[],
): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url: callback, headers: { cookie: cookies.filter(Boolean).join('; ') } });
}

/** Where a redirect went: path and query parameters. */
export function redirectTarget(response: LightMyRequestResponse): {
  path: string;
  error: string | null;
  details: string | null;
} {
  const location = new URL(String(response.headers.location), 'http://app.invalid');
  return {
    path: location.pathname,
    error: location.searchParams.get('error'),
    details: location.searchParams.get('details'),
  };
}

/** A whole sign-in for the provider's `account`: start, provider, callback. */
export async function signInThroughProvider(
  app: FastifyInstance,
  options: { startPath: string; account: string; appOrigin: string; cookie?: string },
): Promise<LightMyRequestResponse> {
  const started = await beginSignIn(app, options.startPath, options.cookie);
  started.authorizationUrl.searchParams.set('login_hint', options.account);
  const callback = await authorizeAtProvider(started.authorizationUrl, options.appOrigin);
  return finishSignIn(app, callback, [started.flowCookie, options.cookie ?? '']);
}
