import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ExpiryCountdown } from './expiry-countdown';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('ExpiryCountdown', () => {
  it('gives the player and the card of one video the same time left, whenever each appeared', () => {
    const start = new Date('2026-03-01T12:00:00.000Z');
    vi.useFakeTimers({ now: start });
    // 2 h and 10 s left when the card appears: '2h 0m'; 20 s later it is '1h 59m' by the wall clock.
    const expiresAt = new Date(start.getTime() + 2 * 3_600_000 + 10_000).toISOString();
    render(
      <div data-testid="card">
        <ExpiryCountdown expiresAt={expiresAt} />
      </div>,
    );
    act(() => {
      vi.advanceTimersByTime(5_000);
    });
    vi.setSystemTime(new Date(start.getTime() + 20_000));
    render(
      <div data-testid="player">
        <ExpiryCountdown expiresAt={expiresAt} />
      </div>,
    );
    expect(screen.getByTestId('card').textContent).toBe(screen.getByTestId('player').textContent);

    // Both move on together.
    act(() => {
      vi.advanceTimersByTime(15_000);
    });
    expect(screen.getByTestId('card').textContent).toBe('Deletes in 1h 59m');
    expect(screen.getByTestId('player').textContent).toBe('Deletes in 1h 59m');
  });

  it('says Kept, with no countdown, for a video its owner keeps', () => {
    render(
      <div data-testid="kept">
        <ExpiryCountdown expiresAt={null} kept />
      </div>,
    );
    expect(screen.getByTestId('kept').textContent).toBe('Kept');
  });
});
