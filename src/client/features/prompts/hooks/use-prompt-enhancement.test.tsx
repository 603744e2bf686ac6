import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { AiResultIds } from '../../../../shared/generations';
import { dismissToast } from '../../../components/ui/use-toast';
import { usePromptEnhancement } from './use-prompt-enhancement';

const ENHANCED_ID = '0b7e5a4c-3d2f-4e1a-9b8c-7d6e5f4a3b2c';
const SUGGESTION_ID = '1c8f6b5d-4e3a-4f2b-8c9d-8e7f6a5b4c3d';

function renderEnhancement(description: string, descriptionAiResults: AiResultIds) {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(
          JSON.stringify({
            success: true,
            data: { enhancedPrompt: `${description}, golden hour`, improvements: ['Added lighting'], confidence: 90 },
            resultId: ENHANCED_ID,
          }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        ),
    ),
  );
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook(() => usePromptEnhancement(description, false, descriptionAiResults), { wrapper });
}

afterEach(() => {
  cleanup();
  dismissToast();
  vi.unstubAllGlobals();
});

describe('what Generate sends while AI Enhance is used', () => {
  it("names an enhanced suggestion's two results, so it pays for both, and the description's own when enhancement is off", async () => {
    const { result } = renderEnhancement('A harbour at dusk', { imageAnalysis: SUGGESTION_ID });
    expect(result.current.toSend()).toEqual({
      text: 'A harbour at dusk',
      aiResultIds: { imageAnalysis: SUGGESTION_ID },
    });
    act(() => result.current.toggle(true));
    await waitFor(() => expect(result.current.result).not.toBeNull());
    const both = {
      text: 'A harbour at dusk, golden hour',
      aiResultIds: { promptEnhancement: ENHANCED_ID, imageAnalysis: SUGGESTION_ID },
    };
    expect(result.current.toSend()).toEqual(both);
    let used: ReturnType<typeof result.current.consume> = null;
    act(() => {
      used = result.current.consume();
    });
    expect(used).toEqual(both);
  });

  it('names the enhanced prompt alone when the description was typed', async () => {
    const { result } = renderEnhancement('A lake', {});
    act(() => result.current.toggle(true));
    await waitFor(() => expect(result.current.result).not.toBeNull());
    expect(result.current.toSend()).toEqual({
      text: 'A lake, golden hour',
      aiResultIds: { promptEnhancement: ENHANCED_ID },
    });
    act(() => result.current.toggle(false));
    expect(result.current.toSend()).toEqual({ text: 'A lake', aiResultIds: {} });
  });
});
