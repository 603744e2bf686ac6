import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestIdentityProvider, type TestIdentityProvider } from '../tests/support/identity-provider';
import { type RunningServer, startBuiltServer } from './support/app-server';
import { openPage, useBrowser } from './support/browser';

const browser = useBrowser();
const plainBaseUrl = inject('baseUrl');

let dir: string;
let idp: TestIdentityProvider;
let app: RunningServer | undefined;
const email = `sso-${Date.now()}@example.com`;

beforeAll(async () => {
  // The provider speaks HTTPS with a self-signed certificate; the app trusts it as production
  // trusts a private CA, through NODE_EXTRA_CA_CERTS (read when its process starts).
  dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-e2e-sso-'));
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
    ],
  });
  const certFile = path.join(dir, 'cert.pem');
  writeFileSync(certFile, pems.cert);
  idp = await startTestIdentityProvider({
    redirectUris: () => (app ? [`${app.baseUrl}/api/callback`] : []),
    defaultAccount: 'sso-person',
    tls: { cert: pems.cert, key: pems.private },
  });
  idp.setAccount('sso-person', { email, email_verified: true, given_name: 'Sami', family_name: 'Sso' });
  app = await startBuiltServer({
    NODE_EXTRA_CA_CERTS: certFile,
    OIDC_ISSUER_URL: idp.issuer,
    OIDC_CLIENT_ID: idp.clientId,
    OIDC_CLIENT_SECRET: idp.clientSecret,
    OIDC_BUTTON_LABEL: 'Continue with Test SSO',
  });
});

afterAll(async () => {
  await app?.stop();
  await idp?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('external sign-in in the browser', () => {
  it("'Continue with Test SSO' signs in through the provider and lands on /dashboard", async () => {
    const baseUrl = app?.baseUrl ?? '';
    const context = await browser
      .get()
      .newContext({ baseURL: baseUrl, ignoreHTTPSErrors: true, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    await page.goto('/login');
    await page.getByRole('link', { name: 'Continue with Test SSO' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Video Dashboard' }).waitFor();
    const me = await page.request.get('/api/auth/user');
    expect(me.status()).toBe(200);
    expect(await me.json()).toMatchObject({ email, firstName: 'Sami' });

    // The account page lists the linked sign-in.
    await page.getByRole('link', { name: /Account/ }).click();
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
    await page.getByText('Test SSO', { exact: true }).waitFor();
    await page.getByText('Your only way to sign in').waitFor();

    // 'Sign In Required' points at /api/login on a server with OpenID Connect.
    await page.request.post('/api/auth/logout', { headers: { origin: baseUrl } });
    await page.goto('/history');
    await page.getByRole('heading', { name: 'Sign In Required' }).waitFor();
    // The link appears once its target is known (a disabled button holds its place until GET
    // /api/auth/providers answers): the first 'Sign In' link a user can tap is the final one.
    const signInLink = page.getByRole('link', { name: 'Sign In', exact: true });
    await signInLink.waitFor();
    expect(await signInLink.getAttribute('href')).toBe('/api/login');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows no external sign-in buttons on a server without providers', async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), plainBaseUrl);
    const load = async (path: string) => {
      const options = page.waitForResponse((response) => response.url().endsWith('/api/auth/providers'));
      await page.goto(path);
      expect(await (await options).json()).toEqual({
        oidc: null,
        google: false,
        passwordReset: false,
        registrationChallenge: false,
        operatorContact: null,
        registrationOpen: true,
      });
    };
    for (const path of ['/login', '/register', '/']) {
      await load(path);
      await page
        .getByRole('link', { name: path === '/' ? 'GET STARTED' : 'Back to Home' })
        .first()
        .waitFor();
      expect(await page.getByRole('link', { name: /Continue with/ }).count()).toBe(0);
    }
    await load('/login');
    await page.getByRole('button', { name: 'SIGN IN' }).waitFor();
    expect(await page.getByRole('link', { name: 'Forgot password?' }).count()).toBe(0);
    assertNoPageErrors();
    await context.close();
  });
});
