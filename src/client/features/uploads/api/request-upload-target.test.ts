import { afterEach, describe, expect, it, vi } from 'vitest';

import { ApiError } from '../../../lib/api-client';
import { getUploadParameters, requestUploadTarget } from './request-upload-target';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function stubFetch(response: Response) {
  const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const localTarget = {
  uploadURL: '/api/uploads/tok_1?exp=1700000000&sig=abc',
  objectPath: '/objects/uploads/0b7f1c1e',
  method: 'PUT',
  fields: {},
  headers: {},
};

const s3Target = {
  uploadURL: 'https://bucket.s3.example.com/',
  objectPath: '/objects/uploads/5e2d9c8b',
  method: 'POST',
  fields: { key: 'uploads/5e2d9c8b', Policy: 'e30=', 'X-Amz-Signature': 'sig' },
  headers: {},
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('requestUploadTarget', () => {
  it('posts to /api/objects/upload with cookies and parses the answer', async () => {
    const fetchMock = stubFetch(jsonResponse(200, localTarget));

    await expect(requestUploadTarget()).resolves.toEqual(localTarget);
    expect(fetchMock).toHaveBeenCalledWith('/api/objects/upload', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
  });

  it("turns a 500 into 'Upload configuration failed. Please try again.'", async () => {
    stubFetch(jsonResponse(500, { code: 'internal', message: 'Storage is not configured' }));

    const error = (await requestUploadTarget().catch((e: unknown) => e)) as Error;

    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('Upload configuration failed. Please try again.');
    expect(error.cause).toBeInstanceOf(ApiError);
    expect((error.cause as ApiError).serverMessage).toBe('Storage is not configured');
  });

  it('rejects an answer of the wrong shape the same way', async () => {
    stubFetch(jsonResponse(200, { uploadURL: '/api/uploads/x' }));

    await expect(requestUploadTarget()).rejects.toThrow('Upload configuration failed. Please try again.');
  });
});

describe('getUploadParameters', () => {
  it('sends a raw PUT to our signed URL without form fields, keeping the object path', async () => {
    stubFetch(jsonResponse(200, localTarget));

    await expect(getUploadParameters()).resolves.toEqual({
      method: 'PUT',
      url: localTarget.uploadURL,
      fields: undefined,
      headers: {},
      meta: { objectPath: '/objects/uploads/0b7f1c1e' },
    });
  });

  it('sends an S3 presigned POST with its fields', async () => {
    stubFetch(jsonResponse(200, s3Target));

    await expect(getUploadParameters()).resolves.toEqual({
      method: 'POST',
      url: s3Target.uploadURL,
      fields: s3Target.fields,
      headers: {},
      meta: { objectPath: '/objects/uploads/5e2d9c8b' },
    });
  });
});
