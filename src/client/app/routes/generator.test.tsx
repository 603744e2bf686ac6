import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { costEstimateRequestSchema, estimateCost } from '../../../shared/money/pricing';
import { dismissToast } from '../../components/ui/use-toast';
import { createAuthUser, json, preloadPage, renderApp, stubApi } from '../testing/render-app';

const models = {
  models: [
    {
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
      sound: true,
      credits: 1,
      economyCredits: 0.5,
      isDefault: false,
      isPreview: false,
    },
    {
      id: 'local',
      engine: 'local',
      name: 'Local preview engine',
      description: 'Renders a preview on this server with FFmpeg. It is not an AI model.',
      available: true,
      reason: null,
      inputs: ['text', 'image', 'video', 'audio'],
      durations: [10],
      aspectRatios: ['16:9', '9:16', '1:1'],
      resolutions: ['480p', '720p', '1080p'],
      sound: true,
      credits: 1,
      economyCredits: 0.5,
      isDefault: true,
      isPreview: true,
    },
  ],
};

/** The server's real pricing answers the estimate, so the screen shows what the server would say. */
function estimateFrom(init: RequestInit | undefined) {
  const body = costEstimateRequestSchema.parse(JSON.parse(typeof init?.body === 'string' ? init.body : '{}'));
  return json(200, { success: true, data: estimateCost(body) });
}

function routes(credits: number, overrides: Record<string, () => Response> = {}) {
  return {
    'GET /api/auth/user': () => json(200, createAuthUser()),
    'GET /api/user/status': () => json(200, { availableCredits: credits, isUnlimited: false, plan: 'JUST_FOR_FUN' }),
    'GET /api/models': () => json(200, models),
    'GET /api/video-generation-jobs/recent': () => json(200, []),
    'POST /api/files/cleanup': () => json(200, { deleted: 0 }),
    ...overrides,
  };
}

async function stubWithEstimate(credits: number, overrides: Record<string, () => Response> = {}) {
  const fetchMock = stubApi(routes(credits, overrides));
  const base = fetchMock.getMockImplementation();
  fetchMock.mockImplementation(async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.endsWith('/api/credits/estimate') && !overrides['POST /api/credits/estimate']) return estimateFrom(init);
    if (!base) throw new Error('no fetch stub');
    return base(input, init);
  });
  return fetchMock;
}

preloadPage(() => import('./generator'));

afterEach(() => {
  cleanup();
  dismissToast();
  vi.unstubAllGlobals();
});

describe('the generator', () => {
  it('turns audio on when the description mentions music, and prices the video with the server', async () => {
    await stubWithEstimate(10);
    renderApp('/generator');
    const description = await screen.findByLabelText('Video Description');
    expect(await screen.findByText('Silent Video')).toBeDefined();
    expect((await screen.findAllByText('1 credit')).length).toBeGreaterThan(0);

    await userEvent.type(description, 'A beach with calm music');
    expect(await screen.findByText('Audio Enabled')).toBeDefined();
    await waitFor(() => expect(screen.getAllByText('3 credits').length).toBeGreaterThan(0));
    expect(screen.getByText('Preview engine')).toBeDefined();
    expect(screen.getByText(/it has no Google Gemini API key/)).toBeDefined();
  });

  it('shows the insufficient-credits notice and keeps Generate disabled', async () => {
    await stubWithEstimate(0);
    renderApp('/generator');
    await userEvent.type(await screen.findByLabelText('Video Description'), 'A quiet forest');
    expect(await screen.findByText('Insufficient credits. You need 1 but have 0.')).toBeDefined();
    expect(screen.getByText('Need 1 more')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Generate Video' }).hasAttribute('disabled')).toBe(true);
  });

  it('tells an unlimited user the video is free and that the credit price is not charged', async () => {
    await stubWithEstimate(0, {
      'GET /api/user/status': () => json(200, { availableCredits: 0, isUnlimited: true, plan: 'JUST_FOR_FUN' }),
    });
    renderApp('/generator');
    await userEvent.type(await screen.findByLabelText('Video Description'), 'A quiet forest');
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
    await stubWithEstimate(0, {
      'GET /api/user/generation-status': () =>
        json(200, { dailyUsed, dailyLimit: 15, extraRemaining, subscriptionStatus: 'active', canGenerate: true }),
    });
    renderApp('/generator');
    await userEvent.type(await screen.findByLabelText('Video Description'), 'A quiet forest');

    expect((await screen.findAllByText(line)).length).toBeGreaterThan(0);
    const generate = screen.getByRole('button', { name: 'Generate Video' });
    await waitFor(() => expect(generate.hasAttribute('disabled')).toBe(false));
    expect(screen.queryByText(/Insufficient credits/)).toBeNull();
    expect(screen.queryByText(/^Need .* more$/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Daily generations and extra packs' }).getAttribute('href')).toBe(
      '/subscribe',
    );
  });

  it('falls back to the local estimate when the estimate call fails', async () => {
    await stubWithEstimate(10, {
      'POST /api/credits/estimate': () => json(500, { code: 'internal', message: 'boom' }),
    });
    renderApp('/generator');
    expect((await screen.findAllByText('1 credit')).length).toBeGreaterThan(0);
  });

  it('sends the description with the audio description appended, and tells the user it started', async () => {
    const fetchMock = await stubWithEstimate(10, {
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
        }),
    });
    renderApp('/generator');
    await userEvent.type(await screen.findByLabelText('Video Description'), 'A lighthouse, epic soundtrack');
    await userEvent.type(await screen.findByLabelText('Audio description (optional)'), 'Strings and drums');
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
    expect(JSON.parse(typeof sent === 'string' ? sent : '{}')).toMatchObject({
      prompt: 'A lighthouse, epic soundtrack\n\nAudio: Strings and drums',
      hasAudio: true,
      duration: 10,
      isEconomy: false,
    });
    expect(screen.getByLabelText<HTMLTextAreaElement>('Video Description').value).toBe('');
  });

  it("shows 'Generation Failed' with the server's message", async () => {
    await stubWithEstimate(10, {
      'POST /api/video-generation': () =>
        json(400, { code: 'invalid_advanced_settings', message: 'Advanced settings must be valid JSON' }),
    });
    renderApp('/generator');
    await userEvent.type(await screen.findByLabelText('Video Description'), 'A cat');
    const generate = screen.getByRole('button', { name: 'Generate Video' });
    await waitFor(() => expect(generate.hasAttribute('disabled')).toBe(false));
    await userEvent.click(generate);
    expect(await screen.findByText('Generation Failed')).toBeDefined();
    expect(screen.getByText('Advanced settings must be valid JSON')).toBeDefined();
  });

  it('enhances with AI Enhance on, shows the panel, and Use Enhanced copies the prompt and turns enhancement off', async () => {
    const fetchMock = await stubWithEstimate(10, {
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
    await userEvent.type(description, 'A red kite over the dunes');
    await userEvent.click(screen.getByRole('switch', { name: 'AI Enhance' }));

    expect(await screen.findByText('A red kite over the dunes, wide shot, slow dolly-in')).toBeDefined();
    expect(screen.getByText('88% confidence')).toBeDefined();
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
    await stubWithEstimate(10, {
      'POST /api/prompts/enhance-text': () =>
        json(200, {
          success: true,
          data: { enhancedPrompt: 'A lake, golden hour', improvements: ['Added lighting'], confidence: 90 },
        }),
    });
    renderApp('/generator');
    const description = await screen.findByLabelText('Video Description');
    await userEvent.type(description, 'A lake');
    await userEvent.click(screen.getByRole('switch', { name: 'AI Enhance' }));
    expect(await screen.findByText('A lake, golden hour')).toBeDefined();
    await userEvent.type(description, ' at dawn');
    expect(screen.queryByText('A lake, golden hour')).toBeNull();
    expect(screen.getByText('Write a description, then enhance it.')).toBeDefined();
  });
});
