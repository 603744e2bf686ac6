import { describe, expect, it, vi } from 'vitest';

import {
  type CompletedUpload,
  getFailureMessages,
  isRetryableUpload,
  plainUploadError,
  readStorageErrorMessage,
  settleUpload,
  UPLOAD_CONFIGURATION_FAILED,
} from './upload-outcome';

const uploaded = { id: 'f1', name: 'cat.png', error: null, meta: { objectPath: '/objects/uploads/1' } };
const failed = { id: 'f2', name: 'dog.png', error: UPLOAD_CONFIGURATION_FAILED, meta: {} };

function settle(result: CompletedUpload) {
  const actions = { onComplete: vi.fn(), close: vi.fn(), warn: vi.fn() };
  const completed = settleUpload(result, actions);
  return { completed, ...actions };
}

describe('settleUpload', () => {
  it('hands a fully successful upload to the host, then closes the dialog', () => {
    const result = { successful: [uploaded], failed: [] };
    const { completed, onComplete, close, warn } = settle(result);

    expect(completed).toBe(true);
    expect(onComplete).toHaveBeenCalledWith(result);
    expect(close).toHaveBeenCalledOnce();
    expect(onComplete.mock.invocationCallOrder[0]).toBeLessThan(close.mock.invocationCallOrder[0]!);
    expect(warn).not.toHaveBeenCalled();
  });

  it('only logs a completion with a failed file: no callback and the dialog stays open', () => {
    const { completed, onComplete, close, warn } = settle({
      successful: [uploaded],
      failed: [failed, { id: 'f3', error: '', meta: {} }],
    });

    expect(completed).toBe(false);
    expect(onComplete).not.toHaveBeenCalled();
    expect(close).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledWith('Upload failed: Upload configuration failed. Please try again., Upload failed');
  });

  it('completes an upload with no files at all, leaving the host to report it', () => {
    const { completed, onComplete } = settle({});

    expect(completed).toBe(true);
    expect(onComplete).toHaveBeenCalledWith({});
  });
});

describe('getFailureMessages', () => {
  it("uses each failed file's error, or 'Upload failed' when it has none", () => {
    expect(getFailureMessages({ failed: [failed, { id: 'x', meta: {} }] })).toEqual([
      UPLOAD_CONFIGURATION_FAILED,
      'Upload failed',
    ]);
    expect(getFailureMessages({ successful: [uploaded] })).toEqual([]);
  });
});

describe('isRetryableUpload', () => {
  it('offers Retry after a lost connection, a server failure, an expired link or a busy server, never for a refused file', () => {
    for (const status of [403, 408, 429, 500, 502, 503]) expect(isRetryableUpload({ status })).toBe(true);
    expect(isRetryableUpload(new Error('Network error'))).toBe(true);
    expect(isRetryableUpload(null)).toBe(true);
    for (const status of [400, 413, 415, 422]) expect(isRetryableUpload({ status })).toBe(false);
  });
});

describe('readStorageErrorMessage', () => {
  it("reads the message of our upload URL's JSON error answer", () => {
    const error = {
      message: 'S3 returned 413',
      body: JSON.stringify({ code: 'too_large', message: 'File too large' }),
    };
    expect(readStorageErrorMessage(error)).toBe('File too large');
  });

  it('leaves other answers to Uppy', () => {
    expect(
      readStorageErrorMessage({ message: 'S3 returned 403', body: '<Error><Code>AccessDenied</Code></Error>' }),
    ).toBeNull();
    expect(readStorageErrorMessage({ message: 'S3 returned 500', body: '{not json' })).toBeNull();
    expect(readStorageErrorMessage({ message: 'S3 returned 500', body: '{"code":"x"}' })).toBeNull();
    expect(readStorageErrorMessage(new Error('Network error'))).toBeNull();
    expect(readStorageErrorMessage(null)).toBeNull();
  });
});

describe('plainUploadError', () => {
  it("says our own sentence, else a plain one for the status, never the storage client's words", () => {
    const ours = { message: 'S3 returned 415', status: 415, body: '{"code":"unsupported_file_type","message":"No."}' };
    expect(plainUploadError(ours)).toBe('No.');
    // A browser can lose the body of an answer sent while the file was still going up.
    expect(plainUploadError({ message: 'S3 returned 415', status: 415, body: '' })).toBe(
      'Only images, videos and audio files can be uploaded.',
    );
    expect(plainUploadError({ message: 'S3 returned 413', status: 413, body: '' })).toBe(
      'This file is too large. Files can be up to 50 MB.',
    );
    expect(plainUploadError({ message: 'S3 returned 403', status: 403, body: '<Error/>' })).toMatch(/expired/);
    for (const error of [{ message: 'S3 returned 502', status: 502, body: '' }, new Error('Network error'), null]) {
      const words = plainUploadError(error);
      expect(words).toBe('The upload did not go through. Check your connection, then retry.');
      expect(words).not.toMatch(/S3|returned/);
    }
  });
});
