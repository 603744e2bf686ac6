import { describe, expect, it } from 'vitest';

import { summarizeUpload } from './upload-result';

describe('summarizeUpload', () => {
  it('reads the object path kept in the uploaded file’s meta, and the file’s name', () => {
    const summary = summarizeUpload({
      successful: [{ id: 'f1', name: 'cat.png', meta: { name: 'cat.png', objectPath: '/objects/uploads/abc' } }],
      failed: [],
    });

    expect(summary).toEqual({ objectPath: '/objects/uploads/abc', name: 'cat.png', failedMessages: [] });
  });

  it('has no object path when nothing was uploaded, and lists what failed', () => {
    const summary = summarizeUpload({
      successful: [],
      failed: [{ id: 'f1', error: 'File too large', meta: { objectPath: '/objects/uploads/abc' } }],
    });

    expect(summary).toEqual({ objectPath: null, name: null, failedMessages: ['File too large'] });
  });

  it('ignores a successful file without an object path', () => {
    expect(summarizeUpload({ successful: [{ id: 'f1', meta: { objectPath: '' } }] }).objectPath).toBeNull();
    expect(summarizeUpload({}).objectPath).toBeNull();
  });
});
