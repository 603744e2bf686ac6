import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { dismissToast } from '../../components/ui/use-toast';
import { testModel } from '../../../../tests/support/model-info';
import {
  balance,
  callsTo,
  createAuthUser,
  enterText,
  json,
  preloadPage,
  renderApp,
  stubApi,
} from '../testing/render-app';

const models = {
  models: [
    testModel({
      id: 'veo3',
      engine: 'veo',
      name: 'Veo 3',
      description: 'Google',
      available: false,
      reason: 'Not available on this server: it has no Google Gemini API key.',
      inputs: ['text', 'image'],
      durations: [4, 6, 8],
      aspectRatios: ['16:9', '9:16'],
      resolutions: ['720p', '1080p'],
      isPreview: false,
    }),
    testModel({
      description: 'Renders a preview on this server with FFmpeg. It is not an AI model.',
      resolutions: ['480p', '720p', '1080p'],
      isDefault: true,
    }),
  ],
};

function routes(credits: number, overrides: Record<string, () => Response> = {}) {
  return {
    'GET /api/auth/user': () => json(200, createAuthUser()),
    'GET /api/user/balance': () => balance({ availableCredits: credits, isUnlimited: false, plan: 'JUST_FOR_FUN' }),
    'GET /api/models': () => json(200, models),
    'GET /api/video-generation': () => json(200, []),
    'POST /api/files/cleanup': () => json(200, { deleted: 0 }),
    ...overrides,
  };
}

/** The generator's API; it prices videos itself, so it never asks POST /api/credits/estimate. */
async function stubGenerator(credits: number, overrides: Record<string, () => Response> = {}) {
  return stubApi(routes(credits, overrides));
}

preloadPage(() => import('./generator'));

// How long a click may take to become a request: the form's handler and the mutation run on a busy
// machine's jsdom, where the default second of waitFor was seen too short in a full run.
const REQUEST_WAIT = 10_000;

const RESULT_ID = '6f1c2d4e-8a9b-4c3d-9e8f-0a1b2c3d4e5f';
const createdRecord = {
  id: 'gen-1',
  prompt: 'x',
  status: 'pending',
  creditsUsed: 1,
  duration: 10,
  model: 'local',
  hasAudio: false,
  outputVideoUrl: null,
  posterUrl: null,
  createdAt: new Date().toISOString(),
  expiresAt: null,
  progress: 0,
  progressStage: null,
  errorMessage: null,
  // The answer to Generate also lists every video it started (variations); one here.
  group: [],
};

/** AI Enhance's answer for 'A red kite over the dunes'. */
const enhancedKite = () =>
  json(200, {
    success: true,
    data: { enhancedPrompt: 'A red kite over the dunes, slow dolly-in', improvements: ['Added'], confidence: 80 },
    resultId: RESULT_ID,
  });

/** The bodies the page sent to POST /api/video-generation, in order. */
function sentBodies(fetchMock: Awaited<ReturnType<typeof stubGenerator>>): Record<string, unknown>[] {
  return fetchMock.mock.calls
    .filter(
      ([input, init]) =>
        typeof input === 'string' && input.endsWith('/api/video-generation') && init?.method === 'POST',
    )
    .map(([, init]) => JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as Record<string, unknown>);
}

afterEach(() => {
  cleanup();
  dismissToast();
  vi.unstubAllGlobals();
});

describe('the generator', () => {
  it('turns audio on when the description mentions music, and prices the video with the server', async () => {
    await stubGenerator(10);
    renderApp('/generator');
    const description = await screen.findByLabelText('Video Description');
    expect(await screen.findByText('Silent Video')).toBeDefined();
    expect((await screen.findAllByText('1 credit')).length).toBeGreaterThan(0);

    await enterText(description, 'A beach with calm music');
    expect(await screen.findByText('Audio Enabled')).toBeDefined();
    await waitFor(() => expect(screen.getAllByText('3 credits').length).toBeGreaterThan(0));
    expect(screen.getByText('Preview engine')).toBeDefined();
    // A customer is not told about keys of models they cannot use.
    expect(screen.queryByText(/it has no Google Gemini API key/)).toBeNull();
  });

  it('shows the insufficient-credits notice and keeps Generate disabled', async () => {
    await stubGenerator(0);
    renderApp('/generator');
    await enterText(await screen.findByLabelText('Video Description'), 'A quiet forest');
    expect(await screen.findByText('Insufficient credits. You need 1 but have 0.')).toBeDefined();
    expect(screen.getByText('Need 1 more')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Generate Video' }).hasAttribute('disabled')).toBe(true);
  });

  it('tells an unlimited user the video is free and that the credit price is not charged', async () => {
    await stubGenerator(0, {
      'GET /api/user/balance': () => balance({ availableCredits: 0, isUnlimited: true, plan: 'JUST_FOR_FUN' }),
    });
    renderApp('/generator');
    await enterText(await screen.findByLabelText('Video Description'), 'A quiet forest');
    expect(await screen.findByText('Free')).toBeDefined();
    expect(screen.getByText('Price in credits, not charged to you')).toBeDefined();
    expect(screen.queryByText(/Insufficient credits/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Generate Video' }).hasAttribute('disabled')).toBe(false);
  });

  it.each([
    {
      paidBy: "one of today's generations",
      dailyUsed: 2,
      extraRemaining: 0,
      line: "Uses 1 of today's generations (13 of 15 left)",
    },
    {
      paidBy: 'an extra generation once the daily ones are gone',
      dailyUsed: 15,
      extraRemaining: 4,
      line: 'Uses 1 extra generation (4 left)',
    },
  ])('lets a subscriber with no credits generate with $paidBy', async ({ dailyUsed, extraRemaining, line }) => {
    await stubGenerator(0, {
      'GET /api/user/balance': () =>
        balance(
          { availableCredits: 0 },
          { dailyUsed, dailyLimit: 15, extraRemaining, subscriptionStatus: 'active', canGenerate: true },
        ),
    });
    renderApp('/generator');
    await enterText(await screen.findByLabelText('Video Description'), 'A quiet forest');

    expect((await screen.findAllByText(line)).length).toBeGreaterThan(0);
    const generate = screen.getByRole('button', { name: 'Generate Video' });
    await waitFor(() => expect(generate.hasAttribute('disabled')).toBe(false));
    expect(screen.queryByText(/Insufficient credits/)).toBeNull();
    expect(screen.queryByText(/^Need .* more$/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Daily generations and extra packs' }).getAttribute('href')).toBe(
      '/subscribe',
    );
  });

  it('prices the video itself from the catalogue, with no estimate request', async () => {
    const fetchMock = await stubGenerator(10, {
      'GET /api/models': () =>
        json(200, {
          models: models.models.map((m) => (m.id === 'local' ? { ...m, credits: 4, economyCredits: 2 } : m)),
        }),
    });
    renderApp('/generator');
    await enterText(await screen.findByLabelText('Video Description'), 'A beach with calm music');
    // The default model's catalogue price, 4 credits, plus 2 for audio.
    await waitFor(() => expect(screen.getAllByText('6 credits').length).toBeGreaterThan(0));
    expect(callsTo(fetchMock, '/api/credits/estimate')).toEqual([]);
  });

  it('falls back to the local estimate when the catalogue cannot be loaded', async () => {
    await stubGenerator(10, { 'GET /api/models': () => json(500, { code: 'internal', message: 'boom' }) });
    renderApp('/generator');
    expect((await screen.findAllByText('1 credit')).length).toBeGreaterThan(0);
    await enterText(await screen.findByLabelText('Video Description'), 'A beach with calm music');
    await waitFor(() => expect(screen.getAllByText('3 credits').length).toBeGreaterThan(0));
  });

  it('sends the description and the audio description apart, and tells the user it started', async () => {
    const fetchMock = await stubGenerator(10, {
      'POST /api/video-generation': () =>
        json(201, {
          id: 'gen-1',
          prompt: 'x',
          status: 'pending',
          creditsUsed: 3,
          duration: 10,
          model: 'local',
          hasAudio: true,
          outputVideoUrl: null,
          posterUrl: null,
          createdAt: new Date().toISOString(),
          expiresAt: null,
          progress: 0,
          progressStage: null,
          errorMessage: null,
          group: [],
        }),
    });
    renderApp('/generator');
    await enterText(await screen.findByLabelText('Video Description'), 'A lighthouse, epic soundtrack');
    await enterText(await screen.findByLabelText('Audio description (optional)'), 'Strings and drums');
    const generate = screen.getByRole('button', { name: 'Generate Video' });
    await waitFor(() => expect(generate.hasAttribute('disabled')).toBe(false));
    await userEvent.click(generate);

    expect(await screen.findByText('Video Generation Started')).toBeDefined();
    expect(screen.getByText('Redirecting to media player to monitor progress...')).toBeDefined();
    const call = fetchMock.mock.calls.find(
      ([input, init]) =>
        typeof input === 'string' && input.endsWith('/api/video-generation') && init?.method === 'POST',
    );
    const sent = call?.[1]?.body;
    const body = JSON.parse(typeof sent === 'string' ? sent : '{}') as Record<string, unknown>;
    expect(body).toMatchObject({
      description: 'A lighthouse, epic soundtrack',
      audioDescription: 'Strings and drums',
      settings: {},
      aiResultIds: {},
      hasAudio: true,
      duration: 10,
      isEconomy: false,
    });
    // Nothing of the older shape: the server joins the two descriptions itself.
    for (const field of ['prompt', 'jsonPrompt', 'usedPromptEnhancement', 'usedImageAnalysis'])
      expect(body).not.toHaveProperty(field);
    expect(screen.getByLabelText<HTMLTextAreaElement>('Video Description').value).toBe('');
  });

  it("shows 'Generation Failed' with the server's message", async () => {
    await stubGenerator(10, {
      'POST /api/video-generation': () =>
        json(400, { code: 'invalid_advanced_settings', message: 'Advanced settings must be valid JSON' }),
    });
    renderApp('/generator');
    await enterText(await screen.findByLabelText('Video Description'), 'A cat');
    const generate = screen.getByRole('button', { name: 'Generate Video' });
    await waitFor(() => expect(generate.hasAttribute('disabled')).toBe(false));
    await userEvent.click(generate);
    expect(await screen.findByText('Generation Failed')).toBeDefined();
    expect(screen.getByText('Advanced settings must be valid JSON')).toBeDefined();
  });

  it('shows the daily spend cap refusal with when it resets', async () => {
    const message =
      'This video costs 1 credit, which would take you past your daily spending limit of 2 credits (2 spent today). The limit resets at 00:00 UTC on 26 November 2026.';
    await stubGenerator(10, {
      'POST /api/video-generation': () => json(429, { code: 'daily_spend_cap', message }),
    });
    renderApp('/generator');
    await enterText(await screen.findByLabelText('Video Description'), 'A cat');
    const generate = screen.getByRole('button', { name: 'Generate Video' });
    await waitFor(() => expect(generate.hasAttribute('disabled')).toBe(false));
    await userEvent.click(generate);
    expect(await screen.findByText('Generation Failed')).toBeDefined();
    expect(screen.getByText(message)).toBeDefined();
  });

  it("shows AI Enhance's share beside it, and with 1 credit makes the video without the add-ons in one click", async () => {
    const fetchMock = await stubGenerator(1, {
      'POST /api/prompts/enhance-text': enhancedKite,
      'POST /api/video-generation': () => json(201, createdRecord),
      'GET /api/payments/config': () =>
        json(200, { enabled: false, publishableKey: null, operatorContact: 'https://help.example.com/credits' }),
    });
    renderApp('/generator');
    await enterText(await screen.findByLabelText('Video Description'), 'A red kite over the dunes');
    // The share is said before the switch is touched.
    expect(screen.getByText('+0.5 credits')).toBeDefined();
    await userEvent.click(screen.getByRole('switch', { name: 'AI Enhance' }));

    expect(await screen.findByText('Insufficient credits. You need 1.5 but have 1.')).toBeDefined();
    // The way to more credits is right there: here, who to ask (payments are not set up), beside the
    // shortfall and on the credits card, said the same way in both.
    const contacts = await screen.findAllByRole('link', { name: 'https://help.example.com/credits' });
    expect(contacts.map((link) => link.getAttribute('href'))).toEqual([
      'https://help.example.com/credits',
      'https://help.example.com/credits',
    ]);
    await userEvent.click(await screen.findByRole('button', { name: 'Generate without the add-ons (1 credit)' }));

    await waitFor(() => expect(sentBodies(fetchMock)).toHaveLength(1), { timeout: REQUEST_WAIT });
    const [sent] = sentBodies(fetchMock);
    expect(sent).toMatchObject({ description: 'A red kite over the dunes', aiResultIds: {} });
  });

  it('with 1 credit and AI Enhance on, offers Economy, which keeps the enhancement and fits the balance', async () => {
    const fetchMock = await stubGenerator(1, {
      'POST /api/prompts/enhance-text': enhancedKite,
      'POST /api/video-generation': () => json(201, createdRecord),
    });
    renderApp('/generator');
    await enterText(await screen.findByLabelText('Video Description'), 'A red kite over the dunes');
    await userEvent.click(screen.getByRole('switch', { name: 'AI Enhance' }));
    expect(await screen.findByText('Insufficient credits. You need 1.5 but have 1.')).toBeDefined();
    // Economy at the local engine's 480p halves the video and the enhancement: exactly the 1 credit there is.
    await userEvent.click(await screen.findByRole('button', { name: 'Switch to Economy (480p, 1 credit)' }));
    expect(screen.getByRole('switch', { name: 'Economy mode' }).getAttribute('aria-checked')).toBe('true');
    await waitFor(() => expect(screen.queryByText(/Insufficient credits/)).toBeNull());
    const generate = screen.getByRole('button', { name: 'Generate Video' });
    await waitFor(() => expect(generate.hasAttribute('disabled')).toBe(false));
    await userEvent.click(generate);

    await waitFor(() => expect(sentBodies(fetchMock)).toHaveLength(1), { timeout: REQUEST_WAIT });
    expect(sentBodies(fetchMock)[0]).toMatchObject({
      description: 'A red kite over the dunes, slow dolly-in',
      isEconomy: true,
      resolution: '480p',
      aiResultIds: { promptEnhancement: RESULT_ID },
    });
  });

  it('says before anything is spent that this server makes previews, and who can connect a model', async () => {
    await stubGenerator(1);
    renderApp('/generator');
    const notice = await screen.findByRole('region', { name: 'Previews only on this server' });
    expect(notice.textContent).toContain('No AI video model is connected to this server yet, so it makes previews');
    expect(notice.textContent).toContain('The person who runs this server can connect a real model');
  });

  it('offers a customer only the models this server runs; an administrator also sees the others and where to connect them', async () => {
    await stubGenerator(1);
    const view = renderApp('/generator');
    const picker = await screen.findByLabelText<HTMLSelectElement>('Model');
    await waitFor(() =>
      expect([...picker.options].map((o) => o.textContent)).toEqual(['Local preview engine · 1 credit']),
    );
    expect(screen.queryByText(/unavailable/)).toBeNull();
    expect(screen.queryByText(/Gemini API key/)).toBeNull();
    view.unmount();
    cleanup();

    await stubGenerator(1, { 'GET /api/auth/user': () => json(200, createAuthUser({ isAdmin: true })) });
    renderApp('/generator');
    const adminPicker = await screen.findByLabelText<HTMLSelectElement>('Model');
    await waitFor(() => expect(adminPicker.options).toHaveLength(2));
    expect(adminPicker.options[1]?.textContent).toBe('Veo 3 (unavailable)');
    expect(adminPicker.options[1]?.disabled).toBe(true);
    await userEvent.click(screen.getByText('Why 1 model is unavailable'));
    expect(screen.getByText(/it has no Google Gemini API key/)).toBeDefined();
    expect(screen.getByRole('link', { name: 'Connect a provider in Settings' }).getAttribute('href')).toBe(
      '/admin/settings',
    );
    expect(screen.getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe('/admin/settings');
  });

  it('says why Generate waits for a description, and takes the user to the box', async () => {
    await stubGenerator(5);
    renderApp('/generator');
    const generate = await screen.findByRole('button', { name: 'Generate Video' });
    const why = await screen.findByRole('button', { name: 'Please provide a text description' });
    expect(generate.hasAttribute('disabled')).toBe(true);
    expect(generate.getAttribute('aria-describedby')).toBe('generate-waiting-for');
    expect(document.getElementById('generate-waiting-for')?.textContent).toBe('Please provide a text description');
    await userEvent.click(why);
    expect(document.activeElement?.id).toBe('video-description');
    await enterText(screen.getByLabelText('Video Description'), 'A fox');
    await waitFor(() => expect(generate.hasAttribute('disabled')).toBe(false));
    expect(screen.queryByRole('button', { name: 'Please provide a text description' })).toBeNull();
  });

  it('says nothing of previews where a real model is available', async () => {
    const connected = { models: models.models.map((model) => ({ ...model, available: true, reason: null })) };
    await stubGenerator(1, { 'GET /api/models': () => json(200, connected) });
    renderApp('/generator');
    // The catalogue has arrived once the economy switch names the chosen model's prices.
    await screen.findByText(/instead of 1 credit/);
    expect(screen.queryByRole('region', { name: 'Previews only on this server' })).toBeNull();
  });

  it('after Use Enhanced with 1 credit, still makes the video in one click, from the words the user wrote', async () => {
    const fetchMock = await stubGenerator(1, {
      'POST /api/prompts/enhance-text': enhancedKite,
      'POST /api/video-generation': () => json(201, createdRecord),
    });
    renderApp('/generator');
    const description = await screen.findByLabelText<HTMLTextAreaElement>('Video Description');
    await enterText(description, 'A red kite over the dunes');
    await userEvent.click(screen.getByRole('switch', { name: 'AI Enhance' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Use Enhanced' }));
    expect(description.value).toBe('A red kite over the dunes, slow dolly-in');

    expect(await screen.findByText('Insufficient credits. You need 1.5 but have 1.')).toBeDefined();
    // The button sends other words than the box shows: it says which.
    expect(screen.getByText('Made from your own description: “A red kite over the dunes”')).toBeDefined();
    await userEvent.click(screen.getByRole('button', { name: 'Generate without the add-ons (1 credit)' }));
    await waitFor(() => expect(sentBodies(fetchMock)).toHaveLength(1), { timeout: REQUEST_WAIT });
    expect(sentBodies(fetchMock)[0]).toMatchObject({ description: 'A red kite over the dunes', aiResultIds: {} });
  });

  it('offers no add-on-free video once the enhanced description is edited (the edit is the user’s own)', async () => {
    await stubGenerator(1, {
      'POST /api/prompts/enhance-text': enhancedKite,
    });
    renderApp('/generator');
    const description = await screen.findByLabelText<HTMLTextAreaElement>('Video Description');
    await enterText(description, 'A red kite over the dunes');
    await userEvent.click(screen.getByRole('switch', { name: 'AI Enhance' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Use Enhanced' }));
    await screen.findByRole('button', { name: 'Generate without the add-ons (1 credit)' });
    await userEvent.type(description, '!');
    // The edited text is the user's own: 1 credit, Generate itself is enabled, no second button.
    const generate = screen.getByRole('button', { name: 'Generate Video' });
    await waitFor(() => expect(generate.hasAttribute('disabled')).toBe(false));
    expect(screen.queryByRole('button', { name: /Generate without the add-ons/ })).toBeNull();
    expect(screen.queryByText(/^Made from your own description/)).toBeNull();
  });

  it('enhances with AI Enhance on, shows the panel, and Use Enhanced copies the prompt and turns enhancement off', async () => {
    const fetchMock = await stubGenerator(10, {
      'POST /api/prompts/enhance-text': () =>
        json(200, {
          success: true,
          data: {
            enhancedPrompt: 'A red kite over the dunes, wide shot, slow dolly-in',
            improvements: ['Added a shot type', 'Added a camera movement'],
            confidence: 88,
          },
        }),
    });
    renderApp('/generator');
    const description = await screen.findByLabelText<HTMLTextAreaElement>('Video Description');
    await enterText(description, 'A red kite over the dunes');
    await userEvent.click(screen.getByRole('switch', { name: 'AI Enhance' }));

    expect(await screen.findByText('A red kite over the dunes, wide shot, slow dolly-in')).toBeDefined();
    expect(screen.getByText('88% confidence')).toBeDefined();
    // Issue 34: the number says what it means.
    expect(
      screen.getByText('Confidence: how closely the video should follow this prompt, lower the more AI Enhance added.'),
    ).toBeDefined();
    expect(screen.getByText('Added a camera movement')).toBeDefined();
    expect(await screen.findByText('Improved with 2 enhancements')).toBeDefined();
    const call = fetchMock.mock.calls.find(
      ([input]) => typeof input === 'string' && input.endsWith('/api/prompts/enhance-text'),
    );
    const sent = call?.[1]?.body;
    expect(JSON.parse(typeof sent === 'string' ? sent : '{}')).toEqual({
      userPrompt: 'A red kite over the dunes',
      style: 'cinematic',
      duration: 'medium',
      mood: 'calm',
    });

    await userEvent.click(screen.getByRole('button', { name: 'Use Enhanced' }));
    expect(description.value).toBe('A red kite over the dunes, wide shot, slow dolly-in');
    expect(screen.getByRole('switch', { name: 'AI Enhance' }).getAttribute('aria-checked')).toBe('false');
    expect(screen.queryByRole('region', { name: 'Enhanced prompt' })).toBeNull();
  });

  it('clears an enhanced prompt when the description is edited', async () => {
    await stubGenerator(10, {
      'POST /api/prompts/enhance-text': () =>
        json(200, {
          success: true,
          data: { enhancedPrompt: 'A lake, golden hour', improvements: ['Added lighting'], confidence: 90 },
        }),
    });
    renderApp('/generator');
    const description = await screen.findByLabelText('Video Description');
    await enterText(description, 'A lake');
    await userEvent.click(screen.getByRole('switch', { name: 'AI Enhance' }));
    expect(await screen.findByText('A lake, golden hour')).toBeDefined();
    await enterText(description, ' at dawn');
    expect(screen.queryByText('A lake, golden hour')).toBeNull();
    expect(screen.getByText('Write a description, then enhance it.')).toBeDefined();
  });

  it('sends the Advanced Settings as an object, and refuses bad JSON with the same sentence before sending', async () => {
    const fetchMock = await stubGenerator(10, { 'POST /api/video-generation': () => json(201, createdRecord) });
    renderApp('/generator');
    await enterText(await screen.findByLabelText('Video Description'), 'A cat');
    const settings = screen.getByLabelText('Advanced settings (JSON)');
    await enterText(settings, '{"aspectRatio": "4:3"}');
    expect(await screen.findByText(/^Advanced settings: aspectRatio/)).toBeDefined();
    const generate = screen.getByRole('button', { name: 'Generate Video' });
    await waitFor(() => expect(generate.hasAttribute('disabled')).toBe(false));
    await userEvent.click(generate);
    expect(await screen.findByText('Generation Failed')).toBeDefined();
    expect(screen.getAllByText(/^Advanced settings: aspectRatio/).length).toBe(2);
    expect(sentBodies(fetchMock)).toHaveLength(0);

    dismissToast();
    await userEvent.clear(settings);
    await enterText(settings, '{"aspectRatio": "9:16", "seed": 4, "other": true}');
    await userEvent.click(generate);
    await waitFor(() => expect(sentBodies(fetchMock)).toHaveLength(1), { timeout: REQUEST_WAIT });
    // The shape goes as the request's own field (9:16 typed in the JSON counts as that pick); the settings keep the rest.
    expect(sentBodies(fetchMock)[0]).toMatchObject({ aspectRatio: '9:16', settings: { seed: 4 } });
    expect(sentBodies(fetchMock)[0]?.settings).toEqual({ seed: 4 });
  });

  /** The generator with an enhancer that answers 'A lake, golden hour' under RESULT_ID. */
  async function stubEnhancingGenerator() {
    return stubGenerator(10, {
      'POST /api/prompts/enhance-text': () =>
        json(200, {
          success: true,
          data: { enhancedPrompt: 'A lake, golden hour', improvements: ['Added lighting'], confidence: 90 },
          resultId: RESULT_ID,
        }),
      'POST /api/video-generation': () => json(201, createdRecord),
    });
  }

  it("names the enhanced prompt's result while the description is that text", async () => {
    const fetchMock = await stubEnhancingGenerator();
    renderApp('/generator');
    const description = await screen.findByLabelText<HTMLTextAreaElement>('Video Description');
    await enterText(description, 'A lake');
    await userEvent.click(screen.getByRole('switch', { name: 'AI Enhance' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Use Enhanced' }));
    expect(description.value).toBe('A lake, golden hour');
    // The enhancement is priced (+0.5) as it will be charged.
    await waitFor(() => expect(screen.getAllByText('1.5 credits').length).toBeGreaterThan(0));
    const generate = screen.getByRole('button', { name: 'Generate Video' });
    await userEvent.click(generate);
    await waitFor(() => expect(sentBodies(fetchMock)).toHaveLength(1), { timeout: REQUEST_WAIT });
    expect(sentBodies(fetchMock)[0]).toMatchObject({
      description: 'A lake, golden hour',
      aiResultIds: { promptEnhancement: RESULT_ID },
    });
    // The form empties after a start (and the page then moves to the media player).
    await waitFor(() => expect(description.value).toBe(''));
  });

  it("drops the enhanced prompt's result at the first edit", async () => {
    const fetchMock = await stubEnhancingGenerator();
    renderApp('/generator');
    const description = await screen.findByLabelText<HTMLTextAreaElement>('Video Description');
    const generate = screen.getByRole('button', { name: 'Generate Video' });
    await enterText(description, 'A lake, golden hour');
    await userEvent.click(screen.getByRole('switch', { name: 'AI Enhance' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Use Enhanced' }));
    await userEvent.type(description, '!');
    await waitFor(() => expect(screen.getAllByText('1 credit').length).toBeGreaterThan(0));
    await waitFor(() => expect(generate.hasAttribute('disabled')).toBe(false));
    await userEvent.click(generate);
    await waitFor(() => expect(sentBodies(fetchMock)).toHaveLength(1), { timeout: REQUEST_WAIT });
    expect(sentBodies(fetchMock)[0]).toMatchObject({ description: 'A lake, golden hour!', aiResultIds: {} });
  });
});
