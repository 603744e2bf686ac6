import { act, cleanup, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { testModel } from '../../../tests/support/model-info';
import { dismissToast } from '../components/ui/use-toast';
import { useGeneratorForm } from '../features/generations/hooks/use-generator-form';
import { createQueryClient } from '../lib/query-client';
import { quoteGeneration } from './generator-quote';
import { AppProviders } from './providers';
import { createGenerationAnswer, json, postedBodies, stubApi } from './testing/render-app';
import { REDIRECT_DELAY_MS, useGenerate } from './use-generate';

const PICTURE = '/objects/uploads/user_1/face.png';
const started = () => json(201, createGenerationAnswer({ id: 'gen-7' }));

/**
 * Generate as the page uses it (a description and a picture on the default model), through the app's
 * providers with their toasts; the server answers with `answers` in turn, then starts the video.
 */
function renderGenerate(...answers: (() => Response)[]) {
  const fetchMock = stubApi({ 'POST /api/video-generation': () => (answers.shift() ?? started)() });
  const onStarted = vi.fn();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <AppProviders queryClient={createQueryClient()}>{children}</AppProviders>
  );
  const view = renderHook(
    () => {
      const { state } = useGeneratorForm({ description: 'A fox in the snow' });
      const quote = quoteGeneration({
        models: [testModel({ isDefault: true })],
        state,
        media: { image: PICTURE },
        keyframes: { referenceImages: [] },
        toSend: { text: state.description, aiResultIds: {} },
        enhancing: false,
        beforeEnhanced: null,
        compareId: null,
        variations: 1,
      });
      return useGenerate({ state, quote, variations: 1, onStarted });
    },
    { wrapper },
  );
  const generate = () => act(() => view.result.current.generate({ text: 'A fox in the snow', aiResultIds: {} }));
  return { ...view, fetchMock, onStarted, generate };
}

afterEach(() => {
  cleanup();
  dismissToast();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('Generate', () => {
  it('starts the video, has the page empty its inputs, and opens the media player on it two seconds later', async () => {
    window.history.replaceState(null, '', '/generator');
    const { fetchMock, onStarted, generate } = renderGenerate(started);
    generate();

    expect(await screen.findByText('Video Generation Started')).toBeDefined();
    expect(onStarted).toHaveBeenCalledTimes(1);
    expect(postedBodies(fetchMock, '/api/video-generation')).toEqual([
      expect.objectContaining({ description: 'A fox in the snow', imageFile: PICTURE }),
    ]);
    expect(window.location.pathname).toBe('/generator');
    await waitFor(() => expect(`${window.location.pathname}${window.location.search}`).toBe('/media?video=gen-7'), {
      timeout: REDIRECT_DELAY_MS + 3000,
    });
  });

  it('asks for the likeness consent when the server finds a person, and sends it with the next Generate once ticked', async () => {
    const { result, fetchMock, onStarted, generate } = renderGenerate(
      () => json(422, { code: 'consent_required', message: 'A picture you chose shows a person.' }),
      started,
    );
    expect(result.current.consent).toBeNull();
    generate();

    expect(await screen.findByText('Confirm Consent')).toBeDefined();
    expect(screen.getByText('A picture you chose shows a person.')).toBeDefined();
    expect(onStarted).not.toHaveBeenCalled();
    await waitFor(() => expect(result.current.consent?.checked).toBe(false));
    act(() => result.current.consent?.onChange(true));
    generate();

    await waitFor(() => expect(onStarted).toHaveBeenCalledTimes(1));
    const [first, second] = postedBodies(fetchMock, '/api/video-generation');
    expect(first).not.toHaveProperty('consentToLikeness');
    expect(second).toMatchObject({ consentToLikeness: true });
    // Asked again for the next picture, not carried over to it.
    expect(result.current.consent).toBeNull();
  });

  it("says a refused description in the server's words and puts the cursor back in the description", async () => {
    const description = document.createElement('textarea');
    description.id = 'video-description';
    document.body.append(description);
    const { onStarted, generate } = renderGenerate(() =>
      json(422, { code: 'content_policy', message: 'This description asks for something this service does not make.' }),
    );
    generate();

    expect(await screen.findByText('Description Not Allowed')).toBeDefined();
    expect(screen.getByText('This description asks for something this service does not make.')).toBeDefined();
    expect(document.activeElement).toBe(description);
    expect(onStarted).not.toHaveBeenCalled();
    description.remove();
  });
});
