import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import type { GenerationRecord } from '../../../../shared/generations';
import type { CredentialsReport } from '../../../../shared/provenance';
import { CredentialsMark } from './credentials-mark';

afterEach(cleanup);

const report: CredentialsReport = {
  hasCredentials: true,
  intact: true,
  trusted: true,
  signedBy: 'Reelsmith at reelsmith.example',
  issuer: 'Reelsmith',
  signedAt: '2026-11-28T10:00:00.000Z',
  madeWith: 'Reelsmith 4.0.0',
  sourceType: 'trainedAlgorithmicMedia',
  model: 'Kling 2.5 Turbo',
  installation: 'https://reelsmith.example',
  ingredients: [
    {
      title: 'image upload',
      relationship: 'inputTo',
      format: 'image/png',
      sha256: 'ab'.repeat(32),
      hasCredentials: false,
    },
  ],
  edits: [],
  problems: [],
};

const video = (overrides: Partial<GenerationRecord>) =>
  ({
    id: 'v1',
    prompt: 'A fox',
    status: 'completed',
    outputVideoUrl: '/api/media/v1.mp4',
    credentials: report,
    ...overrides,
  }) as GenerationRecord;

describe('CredentialsMark', () => {
  it("names what made the video and who signed it, and opens the manifest's facts in place", () => {
    render(<CredentialsMark video={video({})} />);
    const mark = screen.getByRole('button', { name: /Content Credentials/ });
    expect(mark.textContent).toContain('Made by an AI model · signed by Reelsmith at reelsmith.example');
    expect(mark.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByText('Kling 2.5 Turbo')).toBeNull();

    fireEvent.click(mark);
    expect(mark.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText('Kling 2.5 Turbo')).toBeTruthy();
    expect(screen.getByText('https://reelsmith.example')).toBeTruthy();
    expect(screen.getByText(`SHA-256 ${'ab'.repeat(32)}`)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Check Content Credentials' }).getAttribute('href')).toBe('/verify');
  });

  it('shows nothing for a video without credentials (made before signing began) or not finished', () => {
    const { container, rerender } = render(<CredentialsMark video={video({ credentials: null })} />);
    expect(container.innerHTML).toBe('');
    rerender(<CredentialsMark video={video({ status: 'processing', outputVideoUrl: null })} />);
    expect(container.innerHTML).toBe('');
  });
});
