import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { Toaster } from '../../../components/ui/toaster';
import { dismissToast } from '../../../components/ui/use-toast';
import type { UploadFile } from '../uploader-types';
import type { UploadButtonProps } from './upload-button';
import { MediaInputCard, type MediaInputValue } from './media-input-card';

// Uppy does not run in jsdom: this stand-in button runs one upload the way the dialog does, asking
// the host for the file's parameters and completing with the file (and its meta) as uploaded.
type Outcome = 'success' | 'nothing-uploaded';
const upload = vi.hoisted((): { outcome: Outcome } => ({ outcome: 'success' }));

vi.mock('./upload-button', () => ({
  UploadButton: ({ children, onGetUploadParameters, onComplete, allowedFileTypes }: UploadButtonProps) => (
    <button
      type="button"
      data-accept={allowedFileTypes?.join(',')}
      onClick={async () => {
        const file = { id: 'uppy-cat', name: 'cat.png', type: 'image/png', size: 3, meta: { name: 'cat.png' } };
        const parameters = await onGetUploadParameters(file as unknown as UploadFile);
        const uploaded = { ...file, meta: { ...file.meta, ...parameters.meta } };
        const result =
          upload.outcome === 'success' ? { successful: [uploaded], failed: [] } : { successful: [], failed: [] };
        onComplete?.(result as unknown as Parameters<NonNullable<UploadButtonProps['onComplete']>>[0]);
      }}
    >
      {children}
    </button>
  ),
}));

function stubUploadTarget() {
  const fetchMock = vi.fn<typeof fetch>(async () =>
    Response.json({
      uploadURL: '/api/uploads/tok_1?exp=1&sig=abc',
      objectPath: '/objects/uploads/0b7f1c1e',
      method: 'PUT',
      fields: {},
      headers: {},
    }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The card with its state held by a host, as the generator page does. */
function Host({ onValue }: { onValue: (value: MediaInputValue) => void }) {
  const [value, setValue] = useState<MediaInputValue>({});
  return (
    <MediaInputCard
      value={value}
      onChange={(next) => {
        setValue(next);
        onValue(next);
      }}
    />
  );
}

function renderCard() {
  const onValue = vi.fn();
  render(
    <>
      <Host onValue={onValue} />
      <Toaster />
    </>,
  );
  return { onValue, user: userEvent.setup() };
}

async function findToast(text: string) {
  const region = await screen.findByRole('region', { name: /Notifications/ });
  return within(region).findByText(text);
}

afterEach(() => {
  cleanup();
  dismissToast();
  upload.outcome = 'success';
  vi.unstubAllGlobals();
});

describe('MediaInputCard', () => {
  it('offers three optional pickers, each restricted to its kind', () => {
    renderCard();

    expect(screen.getByRole('heading', { name: 'Media Input' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Choose Image' }).dataset.accept).toBe('image/*,.jpg,.jpeg,.png,.gif');
    expect(screen.getByRole('button', { name: 'Choose Video' }).dataset.accept).toBe('video/*,.mp4,.mov,.avi');
    expect(screen.getByRole('button', { name: 'Choose Audio' }).dataset.accept).toBe('audio/*,.mp3,.wav');
  });

  it("shows '✓ Image Ready' and the 'Image Uploaded' toast after an upload, keeping its object path", async () => {
    const fetchMock = stubUploadTarget();
    const { onValue, user } = renderCard();

    await user.click(screen.getByRole('button', { name: 'Choose Image' }));

    expect(await screen.findByRole('button', { name: '✓ Image Ready' })).toBeDefined();
    expect(await findToast('Image Uploaded')).toBeDefined();
    expect(await findToast('Your image is ready for video generation')).toBeDefined();
    expect(onValue).toHaveBeenLastCalledWith({ image: '/objects/uploads/0b7f1c1e' });
    expect(fetchMock).toHaveBeenCalledWith('/api/objects/upload', expect.objectContaining({ method: 'POST' }));
    // The other pickers are untouched.
    expect(screen.getByRole('button', { name: 'Choose Video' })).toBeDefined();
  });

  it('uses the video and audio texts for those pickers', async () => {
    stubUploadTarget();
    const { onValue, user } = renderCard();

    await user.click(screen.getByRole('button', { name: 'Choose Video' }));
    expect(await screen.findByRole('button', { name: '✓ Video Ready' })).toBeDefined();
    expect(await findToast('Your video is ready for processing')).toBeDefined();

    await user.click(screen.getByRole('button', { name: 'Choose Audio' }));
    expect(await screen.findByRole('button', { name: '✓ Audio Ready' })).toBeDefined();
    expect(await findToast('Audio Uploaded')).toBeDefined();
    expect(await findToast('Your audio is ready for video generation')).toBeDefined();
    expect(onValue).toHaveBeenLastCalledWith({
      video: '/objects/uploads/0b7f1c1e',
      audio: '/objects/uploads/0b7f1c1e',
    });
  });

  it('clears an input with its remove button', async () => {
    stubUploadTarget();
    const { onValue, user } = renderCard();
    await user.click(screen.getByRole('button', { name: 'Choose Image' }));

    await user.click(await screen.findByRole('button', { name: 'Remove image' }));

    expect(screen.getByRole('button', { name: 'Choose Image' })).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Remove image' })).toBeNull();
    expect(onValue).toHaveBeenLastCalledWith({});
  });

  it("shows 'Upload Failed' when a completion has no uploaded file", async () => {
    stubUploadTarget();
    upload.outcome = 'nothing-uploaded';
    const { onValue, user } = renderCard();

    await user.click(screen.getByRole('button', { name: 'Choose Image' }));

    expect(await findToast('Upload Failed')).toBeDefined();
    expect(await findToast('No files were successfully uploaded')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Choose Image' })).toBeDefined();
    expect(onValue).not.toHaveBeenCalled();
  });
});
