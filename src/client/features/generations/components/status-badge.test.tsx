import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { GenerationRecord } from '../../../../shared/generations';
import { testVideo } from '../../../../../tests/support/generation-record';
import { GenerationRow } from './generation-row';
import { VideoCard } from './video-card';
import { VideoDetails } from './video-details';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// The details ask for the catalogue (the model's name): no answer is needed here.
const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });

// A draft (issue 48) says so wherever a video's status or facts are shown: the gallery's and the media
// page's cards, in both views, the rows of History and Recent History, and the player's details.
describe('the Draft mark', () => {
  const places = [
    ['a gallery card', (v: GenerationRecord) => <VideoCard video={v} view="grid" onOpen={() => {}} withStatus />],
    ['a media list card', (v: GenerationRecord) => <VideoCard video={v} view="list" onOpen={() => {}} />],
    [
      'a History row',
      (v: GenerationRecord) => (
        <ul>
          <GenerationRow record={v} />
        </ul>
      ),
    ],
    [
      "the player's details",
      (v: GenerationRecord) => (
        <QueryClientProvider client={client}>
          <VideoDetails video={v} place="media" onDeleted={() => {}} />
        </QueryClientProvider>
      ),
    ],
  ] as const;

  for (const [place, draw] of places) {
    it(`shows on ${place} of a draft, and not on a take that is no draft`, () => {
      vi.stubGlobal(
        'fetch',
        vi.fn(async () => new Response('{}', { status: 404 })),
      );
      const { container, rerender } = render(draw(testVideo({ isDraft: true })));
      expect(within(container).getByText('Draft')).toBeDefined();
      rerender(draw(testVideo({ isDraft: false })));
      expect(within(container).queryByText('Draft')).toBeNull();
      rerender(draw(testVideo()));
      expect(within(container).queryByText('Draft')).toBeNull();
    });
  }
});
