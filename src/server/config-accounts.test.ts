import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-accounts-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dir, ...env });

function problems(env: Record<string, string>): string[] {
  try {
    load(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('accounts configuration', () => {
  it('offers nothing external by default, and grants one credit (one standard video) at sign-up', () => {
    const empty = {
      OIDC_ISSUER_URL: '',
      OIDC_SCOPES: '',
      OIDC_BUTTON_LABEL: '',
      GOOGLE_ISSUER_URL: '',
      SMTP_URL: '',
      MAIL_FROM: '',
      SIGNUP_CREDITS: '',
    };
    const { accounts } = load(empty);
    // Without mail, unverified accounts spend as they always have.
    expect(accounts).toEqual({
      oidc: undefined,
      google: undefined,
      mail: undefined,
      signupCreditsHundredths: 100,
      unverifiedCanSpend: true,
      registrationOpen: true,
    });
  });

  it('reads an OpenID Connect provider, Google, SMTP and the sign-up credits', () => {
    const { accounts } = load({
      PUBLIC_URL: 'https://videos.example.com',
      OIDC_ISSUER_URL: 'https://sso.example.com/realms/main',
      OIDC_CLIENT_ID: 'reelsmith',
      OIDC_CLIENT_SECRET: 'secret',
      GOOGLE_CLIENT_ID: 'g-id',
      GOOGLE_CLIENT_SECRET: 'g-secret',
      SMTP_URL: 'smtp://user:pass@mail.example.com:587',
      SIGNUP_CREDITS: '2.5',
    });
    expect(accounts.oidc).toEqual({
      issuerUrl: 'https://sso.example.com/realms/main',
      clientId: 'reelsmith',
      clientSecret: 'secret',
      scopes: 'openid email profile',
      buttonLabel: 'Continue with single sign-on',
    });
    expect(accounts.google?.issuerUrl).toBe('https://accounts.google.com');
    expect(accounts.mail).toEqual({
      smtpUrl: 'smtp://user:pass@mail.example.com:587',
      from: 'Reelsmith <no-reply@videos.example.com>',
    });
    expect(accounts.signupCreditsHundredths).toBe(250);
    expect(load({ SIGNUP_CREDITS: '0' }).accounts.signupCreditsHundredths).toBe(0);
  });

  it('refuses half a provider, a plain-http issuer and a credit amount that is not one', () => {
    expect(problems({ OIDC_ISSUER_URL: 'https://sso.example.com' })[0]).toContain('set all three');
    expect(problems({ GOOGLE_CLIENT_ID: 'only-id' })[0]).toContain('set both');
    expect(
      problems({ OIDC_ISSUER_URL: 'http://sso.example.com', OIDC_CLIENT_ID: 'a', OIDC_CLIENT_SECRET: 'b' })[0],
    ).toContain('must be an https:// URL');
    expect(problems({ SIGNUP_CREDITS: 'lots' })[0]).toContain('SIGNUP_CREDITS');
    expect(problems({ SMTP_URL: 'http://mail.example.com' })[0]).toContain('smtp://');
    expect(problems({ MAIL_FROM: 'a@example.com' })[0]).toContain('set SMTP_URL too');
  });
});
