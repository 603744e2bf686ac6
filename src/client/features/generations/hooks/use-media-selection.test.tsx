import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { GenerationRecord } from '../../../../shared/generations';
import { useMediaSelection } from './use-media-selection';

const video = (id: string, status: GenerationRecord['status'] = 'completed') =>
  ({ id, status, createdAt: '2026-11-29T08:00:00.000Z', expiresAt: '2099-01-01T00:00:00.000Z' }) as GenerationRecord;

describe('the media page selection', () => {
  const videos = [video('new', 'processing'), video('b'), video('a')];

  it('follows the video the address names, and the next one it names while the page stays open (Extend)', () => {
    const { result, rerender } = renderHook(({ follow }) => useMediaSelection(videos, follow), {
      initialProps: { follow: 'a' },
    });
    expect(result.current.selected?.id).toBe('a');
    rerender({ follow: 'new' });
    expect(result.current.selected?.id).toBe('new');
    // A pick on the page wins until the address names another video.
    act(() => result.current.select('b'));
    rerender({ follow: 'new' });
    expect(result.current.selected?.id).toBe('b');
  });

  it('selects the newest completed video by itself when the address names none', () => {
    const { result } = renderHook(() => useMediaSelection(videos, null));
    expect(result.current.selected?.id).toBe('b');
  });
});
