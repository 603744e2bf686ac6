import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { ModelInfo } from '../../../shared/models';
import { saveGeneratorDraft } from '../../features/generations/remix/generator-draft';
import { testModel } from '../../../../tests/support/model-info';
import {
  balance,
  createAuthUser,
  createGenerationAnswer,
  json,
  postedBodies,
  preloadPage,
  renderApp,
  resetAfterTest,
  stubApi,
} from '../testing/render-app';

// The generator's Draft switch (issue 48): the request goes to the cheapest model and resolution that
// take it (draftChoice), shown and priced before the click, and is sent with `draft: true`.

const ai: Partial<ModelInfo> = { engine: 'fal', inputs: ['text'], isPreview: false, durations: [5, 10] };
const MODELS: ModelInfo[] = [
  testModel({
    ...ai,
    id: 'fal-veo3',
    name: 'Veo 3 (fal.ai)',
    resolutions: ['720p', '1080p'],
    credits: 4,
    economyCredits: 2,
    isDefault: true,
  }),
  testModel({
    ...ai,
    id: 'fal-wan',
    name: 'Wan 2.2 (fal.ai)',
    resolutions: ['480p', '720p'],
    resolutionCredits: { '480p': 0.5 },
    credits: 2,
    economyCredits: 1,
  }),
];

function stub() {
  return stubApi({
    'GET /api/auth/user': () => json(200, createAuthUser({ id: 'user_1' })),
    'GET /api/user/balance': () => balance({ availableCredits: 100, isUnlimited: false, plan: 'JUST_FOR_FUN' }),
    'GET /api/models': () => json(200, { models: MODELS }),
    'GET /api/video-generation': () => json(200, []),
    'POST /api/files/cleanup': () => json(200, { deleted: 0 }),
    'POST /api/video-generation': () =>
      json(201, createGenerationAnswer({ model: 'fal-wan', creditsUsed: 0.5, isDraft: true })),
  });
}

preloadPage(() => import('./generator'));

const costShown = () => screen.getByText('Cost of this video').nextElementSibling?.textContent;
const draftSwitch = () => screen.getByRole('switch', { name: 'Draft' });
const modelSelect = () => screen.getByLabelText<HTMLSelectElement>('Model');

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(resetAfterTest);

describe('the generator’s Draft switch', () => {
  it('shows and prices the cheapest model and resolution, locks them, drops Compare, and sends draft: true', async () => {
    const fetchMock = stub();
    renderApp('/generator');
    await waitFor(() => expect(costShown()).toBe('4 credits'), { timeout: 10_000 });
    expect(screen.getByLabelText('Compare with another model')).toBeDefined();

    await userEvent.click(draftSwitch());
    await waitFor(() => expect(costShown()).toBe('0.5 credits'));
    expect(draftSwitch().getAttribute('aria-checked')).toBe('true');
    expect(screen.getByText('Draft: Wan 2.2 (fal.ai) at 480p')).toBeDefined();
    expect(modelSelect().value).toBe('fal-wan');
    expect(modelSelect().disabled).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('radio', { name: '480p' }).checked).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('radio', { name: '480p' }).disabled).toBe(true);
    expect(screen.queryByLabelText('Compare with another model')).toBeNull();
    // Kept for this user's next visit, as the shape and camera picks are.
    expect(localStorage.getItem('reelsmith:generator-draft-switch:user_1')).toBe('true');

    const description = screen.getByLabelText('Video Description');
    await userEvent.click(description);
    await userEvent.paste('A lighthouse at dawn');
    await userEvent.click(screen.getByRole('button', { name: 'Generate Video' }));
    await waitFor(() => expect(postedBodies(fetchMock, '/api/video-generation')).toHaveLength(1), { timeout: 10_000 });
    expect(postedBodies(fetchMock, '/api/video-generation')[0]).toMatchObject({
      description: 'A lighthouse at dawn',
      draft: true,
      model: 'fal-wan',
      resolution: '480p',
    });
    expect(postedBodies(fetchMock, '/api/video-generation')[0]).not.toHaveProperty('compareModel');
  });

  it('says so and keeps Generate waiting when no model takes the request as a draft', async () => {
    localStorage.setItem('reelsmith:generator-draft-switch:user_1', 'true');
    // A Remix brings a video input, which neither model takes.
    saveGeneratorDraft({
      origin: 'remix',
      description: 'A lighthouse at dawn',
      audioEnabled: false,
      advancedSettings: '',
      isEconomy: false,
      model: null,
      inputs: { video: '/objects/uploads/11111111-1111-4111-8111-111111111111/33333333-3333-4333-8333-333333333333' },
    });
    stub();
    renderApp('/generator');
    expect(
      await screen.findByText('No model here takes this request as a draft.', {}, { timeout: 10_000 }),
    ).toBeDefined();
    expect(draftSwitch().getAttribute('aria-checked')).toBe('true');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Generate Video' }).disabled).toBe(true);
  });
});
