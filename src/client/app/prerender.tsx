import { prerender } from 'react-dom/static';

import { createQueryClient } from '../lib/query-client';
import { authQueryKey } from '../lib/query-keys';
import { App } from './app';

/**
 * The landing page as HTML, rendered at build time (scripts/prerender-landing.mjs) from the same
 * tree the browser hydrates (boot.tsx): signed out, every lazy part loaded. The browser is never sent this module.
 */
export async function renderLanding(): Promise<string> {
  const queryClient = createQueryClient();
  queryClient.setQueryData(authQueryKey, null);
  // Every part in place, however large: React would otherwise move big parts into place with an
  // inline script, which the Content-Security-Policy does not allow.
  const { prelude } = await prerender(<App queryClient={queryClient} ssrPath="/" />, {
    progressiveChunkSize: Number.POSITIVE_INFINITY,
  });
  return new Response(prelude).text();
}
