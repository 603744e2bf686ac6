import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { Toaster } from '../../../components/ui/toaster';
import { dismissToast } from '../../../components/ui/use-toast';
import type { Uploader, UploaderOptions, UploadFile } from '../uploader-types';
import { MediaInputCard, type MediaInputValue } from './media-input-card';

// Uppy does not run in jsdom: the dialog module is replaced by a stand-in whose open() runs one
// upload the way the dialog does, asking the host for the file's parameters and completing with
// the file (and its meta) as uploaded.
interface DialogStandIn {
  outcome: 'success' | 'nothing-uploaded';
  /** The next picked file's name. */
  fileName: string;
  created: UploaderOptions[];
  opened: number;
}
const dialog = vi.hoisted((): DialogStandIn => ({ outcome: 'success', fileName: 'cat.png', created: [], opened: 0 }));

vi.mock('../uploader', () => ({
  createUploader: (options: UploaderOptions): Uploader => {
    dialog.created.push(options);
    return {
      open: () => {
        dialog.opened += 1;
        void (async () => {
          const file = { id: 'uppy-1', name: dialog.fileName, type: 'image/png', size: 3, meta: {} };
          const parameters = await options.getUploadParameters(file as unknown as UploadFile);
          const uploaded = { ...file, meta: { ...file.meta, ...parameters.meta } };
          const result =
            dialog.outcome === 'success' ? { successful: [uploaded], failed: [] } : { successful: [], failed: [] };
          options.onComplete(result as unknown as Parameters<UploaderOptions['onComplete']>[0]);
        })();
      },
      setRestrictions: () => undefined,
      destroy: () => undefined,
    };
  },
}));

const USER = '7d6b2a52-2f4e-4b8e-9a51-1c2d3e4f5a6b';
const pathOf = (n: number) => `/objects/uploads/${USER}/00000000-0000-4000-8000-00000000000${n}`;

/** POST /api/objects/upload as the server answers it: a new object path each time. */
function stubUploadTarget() {
  let count = 0;
  const fetchMock = vi.fn<typeof fetch>(async () => {
    count += 1;
    return Response.json({
      uploadURL: `/api/uploads/tok_${count}?exp=1&sig=abc`,
      objectPath: pathOf(count),
      method: 'PUT',
      fields: {},
      headers: {},
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The card with its state held by a host, as the generator page does. */
function Host({ initial, onValue }: { initial: MediaInputValue; onValue: (value: MediaInputValue) => void }) {
  const [value, setValue] = useState<MediaInputValue>(initial);
  return (
    <MediaInputCard
      value={value}
      names={{ image: 'Last frame of your video' }}
      onChange={(next) => {
        setValue(next);
        onValue(next);
      }}
    />
  );
}

function renderCard(initial: MediaInputValue = {}) {
  const onValue = vi.fn();
  render(
    <>
      <Host initial={initial} onValue={onValue} />
      <Toaster />
    </>,
  );
  return { onValue, user: userEvent.setup() };
}

async function findToast(text: string) {
  const region = await screen.findByRole('region', { name: /Notifications/ });
  return within(region).findByText(text);
}

/** What a browser does once it has read a media file's header: its length is known. */
function loadMetadata(element: HTMLElement, seconds: number) {
  Object.defineProperty(element, 'duration', { configurable: true, value: seconds });
  fireEvent.loadedMetadata(element);
}

afterEach(() => {
  cleanup();
  dismissToast();
  dialog.outcome = 'success';
  dialog.fileName = 'cat.png';
  dialog.created = [];
  dialog.opened = 0;
  vi.unstubAllGlobals();
});

describe('MediaInputCard', () => {
  it('offers three optional pickers, each restricted to its kind', async () => {
    stubUploadTarget();
    dialog.outcome = 'nothing-uploaded';
    const { user } = renderCard();

    expect(screen.getByRole('heading', { name: 'Media Input' })).toBeDefined();
    for (const [name, types] of [
      ['Choose Image', ['image/*', '.jpg', '.jpeg', '.png', '.gif']],
      ['Choose Video', ['video/*', '.mp4', '.mov', '.avi']],
      ['Choose Audio', ['audio/*', '.mp3', '.wav']],
    ] as const) {
      await user.click(screen.getByRole('button', { name }));
      await waitFor(() => expect(dialog.created.at(-1)?.restrictions.allowedFileTypes).toEqual(types));
    }
  });

  it("shows the uploaded image itself with '✓ Image Ready', its name and the 'Image Uploaded' toast", async () => {
    const fetchMock = stubUploadTarget();
    const { onValue, user } = renderCard();

    await user.click(screen.getByRole('button', { name: 'Choose Image' }));

    const image = await screen.findByRole<HTMLImageElement>('img', { name: 'Image to use: cat.png' });
    // The owner's view of the upload: GET /api/objects/uploads/:userId/:id.
    expect(image.getAttribute('src')).toBe(`/api${pathOf(1)}`);
    expect(screen.getByText('✓ Image Ready')).toBeDefined();
    expect(screen.getByText('cat.png')).toBeDefined();
    expect(await findToast('Image Uploaded')).toBeDefined();
    expect(await findToast('Your image is ready for video generation')).toBeDefined();
    expect(onValue).toHaveBeenLastCalledWith({ image: pathOf(1) });
    expect(fetchMock).toHaveBeenCalledWith('/api/objects/upload', expect.objectContaining({ method: 'POST' }));
    // The other pickers are untouched.
    expect(screen.getByRole('button', { name: 'Choose Video' })).toBeDefined();
  });

  it("shows a video's first frame and length, and an audio file's length, once the browser has read them", async () => {
    stubUploadTarget();
    const { onValue, user } = renderCard();

    dialog.fileName = 'waves.mp4';
    await user.click(screen.getByRole('button', { name: 'Choose Video' }));
    expect(await screen.findByText('✓ Video Ready')).toBeDefined();
    expect(await findToast('Your video is ready for processing')).toBeDefined();
    const video = screen.getByLabelText('Video to use: waves.mp4');
    expect(video.tagName).toBe('VIDEO');
    expect(video.getAttribute('preload')).toBe('metadata');
    expect(video.getAttribute('src')).toBe(`/api${pathOf(1)}#t=0.1`);
    act(() => loadMetadata(video, 65.4));
    expect(screen.getByText('waves.mp4 · Length 1:05')).toBeDefined();

    dialog.fileName = 'song.mp3';
    await user.click(screen.getByRole('button', { name: 'Choose Audio' }));
    expect(await screen.findByText('✓ Audio Ready')).toBeDefined();
    expect(await findToast('Audio Uploaded')).toBeDefined();
    expect(await findToast('Your audio is ready for video generation')).toBeDefined();
    act(() => loadMetadata(screen.getByLabelText('Audio to use: song.mp3'), 7));
    expect(screen.getByText('song.mp3 · Length 0:07')).toBeDefined();
    expect(onValue).toHaveBeenLastCalledWith({ video: pathOf(1), audio: pathOf(2) });
  });

  it('clears an input with Remove and puts the focus on its Choose button', async () => {
    stubUploadTarget();
    const { onValue, user } = renderCard();
    await user.click(screen.getByRole('button', { name: 'Choose Image' }));

    await user.click(await screen.findByRole('button', { name: 'Remove image' }));

    const choose = screen.getByRole('button', { name: 'Choose Image' });
    expect(document.activeElement).toBe(choose);
    expect(screen.queryByRole('button', { name: 'Remove image' })).toBeNull();
    expect(screen.queryByRole('img', { name: /Image to use/ })).toBeNull();
    expect(screen.queryByText('✓ Image Ready')).toBeNull();
    expect(onValue).toHaveBeenLastCalledWith({});
  });

  it('replaces an input through the same upload dialog, showing the new file', async () => {
    stubUploadTarget();
    const { onValue, user } = renderCard();
    await user.click(screen.getByRole('button', { name: 'Choose Image' }));
    await screen.findByRole('img', { name: 'Image to use: cat.png' });

    dialog.fileName = 'dog.png';
    await user.click(screen.getByRole('button', { name: 'Replace image' }));

    const image = await screen.findByRole('img', { name: 'Image to use: dog.png' });
    expect(image.getAttribute('src')).toBe(`/api${pathOf(2)}`);
    expect(dialog.created).toHaveLength(1);
    expect(dialog.opened).toBe(2);
    expect(onValue).toHaveBeenLastCalledWith({ image: pathOf(2) });
  });

  it("names an input the host brought ('Last frame of your video') and says when its file cannot be loaded", () => {
    renderCard({ image: pathOf(9) });

    const image = screen.getByRole('img', { name: 'Image to use: Last frame of your video' });
    expect(screen.getByText('✓ Image Ready')).toBeDefined();
    fireEvent.error(image);

    expect(screen.queryByRole('img', { name: /Image to use/ })).toBeNull();
    expect(screen.getByText('No preview: the file could not be loaded.')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Replace image' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Remove image' })).toBeDefined();
  });

  it("shows 'Upload Failed' when a completion has no uploaded file", async () => {
    stubUploadTarget();
    dialog.outcome = 'nothing-uploaded';
    const { onValue, user } = renderCard();

    await user.click(screen.getByRole('button', { name: 'Choose Image' }));

    expect(await findToast('Upload Failed')).toBeDefined();
    expect(await findToast('No files were successfully uploaded')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Choose Image' })).toBeDefined();
    expect(onValue).not.toHaveBeenCalled();
  });
});
