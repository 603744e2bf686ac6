import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { MAX_UPLOAD_BYTES, UPLOAD_ALLOWED_TYPES } from '../../../../shared/uploads';
import type { Uploader, UploaderOptions } from '../uploader-types';
import { UploadButton, UploadDialogButton, useUploadDialog } from './upload-button';

// Uppy itself does not run in jsdom; the dialog module is replaced by a recording stand-in.
const dialog = vi.hoisted(() => ({
  created: [] as UploaderOptions[],
  uploader: {
    open: vi.fn<Uploader['open']>(),
    setRestrictions: vi.fn<Uploader['setRestrictions']>(),
    destroy: vi.fn<Uploader['destroy']>(),
  },
}));

vi.mock('../uploader', () => ({
  createUploader: (options: UploaderOptions): Uploader => {
    dialog.created.push(options);
    dialog.uploader = {
      open: vi.fn<Uploader['open']>(),
      setRestrictions: vi.fn<Uploader['setRestrictions']>(),
      destroy: vi.fn<Uploader['destroy']>(),
    };
    return dialog.uploader;
  },
}));

afterEach(() => {
  cleanup();
  dialog.created = [];
});

describe('UploadButton', () => {
  it('loads the dialog on the first click, with one 50 MiB file of the allowed types by default', async () => {
    const user = userEvent.setup();
    render(<UploadButton onGetUploadParameters={vi.fn()}>Choose File</UploadButton>);

    await user.click(screen.getByRole('button', { name: 'Choose File' }));

    await waitFor(() => expect(dialog.uploader.open).toHaveBeenCalledOnce());
    expect(dialog.created).toHaveLength(1);
    expect(dialog.created[0]?.restrictions).toEqual({
      maxNumberOfFiles: 1,
      maxFileSize: MAX_UPLOAD_BYTES,
      allowedFileTypes: UPLOAD_ALLOWED_TYPES,
    });

    await user.click(screen.getByRole('button', { name: 'Choose File' }));
    expect(dialog.uploader.open).toHaveBeenCalledTimes(2);
    expect(dialog.created).toHaveLength(1);
  });

  it("passes the host's latest callbacks to the dialog and removes it on unmount", async () => {
    const user = userEvent.setup();
    const first = vi.fn();
    const latest = vi.fn();
    const getParameters = vi.fn(async () => ({ method: 'PUT' as const, url: '/api/uploads/t' }));
    const { rerender, unmount } = render(
      <UploadButton onGetUploadParameters={getParameters} onComplete={first} allowedFileTypes={['image/*']}>
        Choose Image
      </UploadButton>,
    );
    await user.click(screen.getByRole('button', { name: 'Choose Image' }));
    await waitFor(() => expect(dialog.created).toHaveLength(1));

    rerender(
      <UploadButton onGetUploadParameters={getParameters} onComplete={latest} allowedFileTypes={['video/*']}>
        Choose Image
      </UploadButton>,
    );
    const options = dialog.created[0]!;
    options.onComplete({ successful: [], failed: [] });
    await options.getUploadParameters({ id: 'f1' } as never);

    expect(first).not.toHaveBeenCalled();
    expect(latest).toHaveBeenCalledWith({ successful: [], failed: [] });
    expect(getParameters).toHaveBeenCalledWith({ id: 'f1' });
    expect(dialog.uploader.setRestrictions).toHaveBeenLastCalledWith({
      maxNumberOfFiles: 1,
      maxFileSize: MAX_UPLOAD_BYTES,
      allowedFileTypes: ['video/*'],
    });

    unmount();
    expect(dialog.uploader.destroy).toHaveBeenCalledOnce();
  });

  it('says while its dialog is on screen, for a host dialog to step aside meanwhile', async () => {
    const user = userEvent.setup();
    function Host() {
      const upload = useUploadDialog({ onGetUploadParameters: vi.fn() });
      return (
        <>
          <UploadDialogButton dialog={upload}>Choose Recording</UploadDialogButton>
          <p>{upload.showing ? 'Upload dialog open' : 'Upload dialog closed'}</p>
        </>
      );
    }
    render(<Host />);
    await user.click(screen.getByRole('button', { name: 'Choose Recording' }));
    await waitFor(() => expect(dialog.uploader.open).toHaveBeenCalledOnce());
    const options = dialog.created[0]!;
    expect(screen.getByText('Upload dialog closed')).toBeDefined();
    act(() => options.onShowingChange?.(true));
    expect(screen.getByText('Upload dialog open')).toBeDefined();
    act(() => options.onShowingChange?.(false));
    expect(screen.getByText('Upload dialog closed')).toBeDefined();
  });
});
