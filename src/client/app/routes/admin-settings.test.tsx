import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';

import type { InstallationSettings, ProviderSetting } from '../../../shared/installation-settings';
import { callsTo, createAuthUser, json, renderAppWith, resetAfterTest } from '../testing/render-app';

const provider = (id: ProviderSetting['id'], overrides: Partial<ProviderSetting> = {}): ProviderSetting => ({
  id,
  source: 'none',
  hint: null,
  savedAt: null,
  unreadable: false,
  models: [],
  ...overrides,
});

const settings = (overrides: Partial<InstallationSettings> = {}): InstallationSettings => ({
  providers: [provider('fal'), provider('replicate'), provider('gemini'), provider('kling'), provider('comfyui')],
  contact: { source: 'none', value: null },
  mail: { source: 'none', server: null, from: null, savedAt: null },
  payments: {
    source: 'none',
    hint: null,
    savedAt: null,
    mode: null,
    webhookSecret: false,
    webhookUrl: 'http://localhost:3000/api/stripe/webhook',
  },
  rules: {
    videoHours: { value: 24, source: 'none' },
    keepFor: { value: [], source: 'none' },
    signupCreditsHundredths: { value: 100, source: 'none' },
    registrationOpen: { value: true, source: 'none' },
    registrationChallenge: { value: false, source: 'none' },
  },
  previewOnly: true,
  setup: { payments: false, mail: false, operatorContact: false },
  ...overrides,
});

const CONNECTED = settings({
  previewOnly: false,
  providers: [
    provider('fal', {
      source: 'saved',
      hint: '…9f2c',
      savedAt: '2026-11-28T10:00:00.000Z',
      models: ['Veo 3 (fal.ai)'],
    }),
    provider('replicate'),
    provider('gemini', { source: 'environment', hint: '…AbCd', models: ['Veo 3'] }),
    provider('kling'),
    provider('comfyui'),
  ],
});

afterEach(resetAfterTest);

const admin = () => json(200, createAuthUser({ isAdmin: true }));

describe('/admin/settings', () => {
  it("shows the provider's refusal where the key was pasted, then connects with the right key", async () => {
    let answer = () =>
      json(422, {
        code: 'provider_key_refused',
        message: 'fal.ai refused this: Invalid API key. Nothing was saved.',
      });
    const fetchMock = renderAppWith('/admin/settings', {
      'GET /api/auth/user': admin,
      'GET /api/admin/users': () => json(200, []),
      'GET /api/admin/settings': () => json(200, settings()),
      'PUT /api/admin/settings/providers': () => answer(),
    });
    expect(await screen.findByText(/this server makes previews only/)).toBeDefined();
    const card = within(await screen.findByRole('form', { name: 'fal.ai keys' }));
    const connect = card.getByRole('button', { name: 'Test and connect' });
    expect(connect.hasAttribute('disabled')).toBe(true);
    expect(card.getByText('Paste the key to test it.')).toBeDefined();

    await userEvent.type(card.getByLabelText('fal.ai API key'), 'fal-wrong');
    await userEvent.click(connect);
    expect((await card.findByRole('alert')).textContent).toBe(
      'fal.ai refused this: Invalid API key. Nothing was saved.',
    );
    const [, init] = callsTo(fetchMock, '/api/admin/settings/providers')[0] ?? [];
    expect(JSON.parse(typeof init?.body === 'string' ? init.body : '{}')).toEqual({
      provider: 'fal',
      apiKey: 'fal-wrong',
    });

    answer = () => json(200, CONNECTED);
    await userEvent.clear(card.getByLabelText('fal.ai API key'));
    await userEvent.type(card.getByLabelText('fal.ai API key'), 'fal-right-9f2c');
    await userEvent.click(card.getByRole('button', { name: 'Test and connect' }));
    expect(
      await screen.findByText(/Key …9f2c saved Nov 28, 2026, encrypted\. Now offered: Veo 3 \(fal\.ai\)\./),
    ).toBeDefined();
    expect(screen.queryByText(/this server makes previews only/)).toBeNull();
    // The key is never shown again; a provider set in the environment has no form.
    expect(screen.queryByDisplayValue('fal-right-9f2c')).toBeNull();
    expect(screen.getByText(/Set by GEMINI_API_KEY in this server's environment \(…AbCd\), which wins/)).toBeDefined();
    expect(screen.queryByRole('form', { name: 'Google Gemini keys' })).toBeNull();
  });

  it("turns payments on with Stripe's keys, sent as pasted", async () => {
    const on = settings({
      payments: {
        source: 'saved',
        hint: '…9z9z',
        savedAt: '2026-11-28T10:00:00.000Z',
        mode: 'test',
        webhookSecret: false,
        webhookUrl: 'http://localhost:3000/api/stripe/webhook',
      },
    });
    const fetchMock = renderAppWith('/admin/settings', {
      'GET /api/auth/user': admin,
      'GET /api/admin/users': () => json(200, []),
      'GET /api/admin/settings': () => json(200, settings()),
      'PUT /api/admin/settings/payments': () => json(200, on),
    });
    const form = within(await screen.findByRole('form', { name: 'Stripe keys' }));
    expect(form.getByText(/add a webhook endpoint at http:\/\/localhost:3000\/api\/stripe\/webhook/)).toBeDefined();
    await userEvent.type(form.getByLabelText('Secret key'), 'sk_test_abc9z9z');
    await userEvent.type(form.getByLabelText('Publishable key'), 'pk_test_abc');
    await userEvent.click(form.getByRole('button', { name: 'Test and turn on' }));
    expect(await screen.findByText('On (test mode)')).toBeDefined();
    expect(screen.getByText(/refused until one is saved/)).toBeDefined();
    const [, init] = callsTo(fetchMock, '/api/admin/settings/payments')[0] ?? [];
    expect(JSON.parse(typeof init?.body === 'string' ? init.body : '{}')).toEqual({
      secretKey: 'sk_test_abc9z9z',
      publishableKey: 'pk_test_abc',
    });
  });

  it('saves who runs this server, and shows one set in the environment as such', async () => {
    const fetchMock = renderAppWith('/admin/settings', {
      'GET /api/auth/user': admin,
      'GET /api/admin/users': () => json(200, []),
      'GET /api/admin/settings': () => json(200, settings()),
      'PUT /api/admin/settings/contact': () =>
        json(200, settings({ contact: { source: 'saved', value: 'owner@example.com' } })),
    });
    const form = within(await screen.findByRole('form', { name: 'Contact' }));
    await userEvent.type(form.getByLabelText('Email or web address'), ' owner@example.com ');
    await userEvent.click(form.getByRole('button', { name: 'Save contact' }));
    expect(await form.findByRole('button', { name: 'Remove' })).toBeDefined();
    const [, init] = callsTo(fetchMock, '/api/admin/settings/contact')[0] ?? [];
    expect(JSON.parse(typeof init?.body === 'string' ? init.body : '{}')).toEqual({ contact: 'owner@example.com' });
    expect(form.getByLabelText<HTMLInputElement>('Email or web address').value).toBe('owner@example.com');
  });

  it('saves the rules it offers, says what is wrong first, and leaves a rule the environment sets alone', async () => {
    const withEnvironment = settings({
      rules: {
        videoHours: { value: 24, source: 'none' },
        keepFor: { value: [], source: 'none' },
        signupCreditsHundredths: { value: 100, source: 'none' },
        registrationOpen: { value: true, source: 'none' },
        registrationChallenge: { value: true, source: 'environment' },
      },
    });
    const fetchMock = renderAppWith('/admin/settings', {
      'GET /api/auth/user': admin,
      'GET /api/admin/users': () => json(200, []),
      'GET /api/admin/settings': () => json(200, withEnvironment),
      'PUT /api/admin/settings/rules': () =>
        json(
          200,
          settings({
            rules: {
              videoHours: { value: 72, source: 'saved' },
              keepFor: { value: ['subscribers'], source: 'saved' },
              signupCreditsHundredths: { value: 50, source: 'saved' },
              registrationOpen: { value: false, source: 'saved' },
              registrationChallenge: { value: true, source: 'environment' },
            },
          }),
        ),
    });
    const form = within(await screen.findByRole('form', { name: 'Videos and sign-ups' }));
    expect(form.getByText(/Registration asks for a small proof of work/)).toBeDefined();
    expect(form.getByText(/set by REGISTRATION_CHALLENGE in this server's environment/)).toBeDefined();
    expect(form.queryByRole('checkbox', { name: /proof of work/ })).toBeNull();

    const hours = form.getByLabelText('Keep videos for (hours)');
    await userEvent.clear(hours);
    await userEvent.type(hours, '0');
    const credits = form.getByLabelText('Credits for each new account');
    await userEvent.clear(credits);
    await userEvent.type(credits, 'half');
    await userEvent.click(form.getByRole('button', { name: 'Save rules' }));
    expect(form.getByText('Give a whole number of hours from 1 to 8760 (a year).')).toBeDefined();
    expect(form.getByText(/Give a number of credits like 1 or 0\.5/)).toBeDefined();
    expect(callsTo(fetchMock, '/api/admin/settings/rules')).toHaveLength(0);

    await userEvent.clear(hours);
    await userEvent.type(hours, '72');
    await userEvent.clear(credits);
    await userEvent.type(credits, '0.5');
    await userEvent.click(form.getByRole('checkbox', { name: 'Subscribers (active or on a trial)' }));
    await userEvent.click(form.getByRole('checkbox', { name: /Anyone may open an account/ }));
    await userEvent.click(form.getByRole('button', { name: 'Save rules' }));
    expect(await screen.findByRole('button', { name: 'Back to the defaults' })).toBeDefined();
    const [, init] = callsTo(fetchMock, '/api/admin/settings/rules')[0] ?? [];
    expect(JSON.parse(typeof init?.body === 'string' ? init.body : '{}')).toEqual({
      videoHours: 72,
      keepFor: ['subscribers'],
      signupCreditsHundredths: 50,
      registrationOpen: false,
    });
  });

  it('shows the first-run checklist on the dashboard until a real model is connected', async () => {
    renderAppWith('/admin', {
      'GET /api/auth/user': admin,
      'GET /api/admin/users': () => json(200, []),
      'GET /api/admin/settings': () =>
        json(200, settings({ setup: { payments: true, mail: false, operatorContact: false } })),
    });
    const checklist = within(await screen.findByRole('region', { name: 'Finish setting up this server' }));
    expect(checklist.getByText('Connect a video model')).toBeDefined();
    expect(checklist.getByText('Stripe is connected: people can buy credits.')).toBeDefined();
    expect(checklist.getByRole('link', { name: 'Open Settings' }).getAttribute('href')).toBe('/admin/settings');
  });

  it('shows no checklist once a real model is connected', async () => {
    const fetchMock = renderAppWith('/admin', {
      'GET /api/auth/user': admin,
      'GET /api/admin/users': () => json(200, []),
      'GET /api/admin/settings': () => json(200, CONNECTED),
    });
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeDefined();
    await expect.poll(() => callsTo(fetchMock, '/api/admin/settings').length).toBeGreaterThan(0);
    expect(screen.queryByRole('region', { name: 'Finish setting up this server' })).toBeNull();
  });
});
