import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';

const PNG = readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/chelsea.png'));

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  cookie = await signIn(t.app, await createUser(t.db));
});
afterAll(async () => {
  await t.close();
});

async function signedUrl(): Promise<string> {
  const response = await injectJson(t.app, 'POST', '/api/objects/upload', { cookie });
  expect(response.statusCode).toBe(200);
  return response.json<{ uploadURL: string }>().uploadURL;
}

const post = (url: string, contentType: string, payload: Buffer | string) =>
  t.app.inject({ method: 'POST', url, headers: { 'content-type': contentType }, payload });

describe('form uploads to a signed URL', () => {
  it('stores the file part of a well-formed form', async () => {
    const boundary = 'reelsmith-boundary';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const response = await post(await signedUrl(), `multipart/form-data; boundary=${boundary}`, body);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ kind: 'image', contentType: 'image/png', size: PNG.length });
  });

  it.each([
    ['no boundary', 'multipart/form-data', 'anything'],
    [
      'a header line without a colon',
      'multipart/form-data; boundary=x',
      '--x\r\nthis is not a header\r\n\r\nbody\r\n--x--\r\n',
    ],
    [
      'a part that never ends',
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nno closing boundary',
    ],
    [
      'an oversized header block',
      'multipart/form-data; boundary=x',
      `--x\r\nX-Long: ${'a'.repeat(100_000)}\r\n\r\nbody\r\n--x--\r\n`,
    ],
    [
      'a form without a file',
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue\r\n--x--\r\n',
    ],
    ['a body that is not a form', 'multipart/form-data; boundary=x', Buffer.from([0, 1, 2, 3, 255, 254])],
    [
      'a file part cut off in the middle',
      'multipart/form-data; boundary=x',
      Buffer.concat([
        Buffer.from('--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n'),
        PNG.subarray(0, 5000),
      ]),
    ],
  ])('answers 400 to %s, stores nothing and keeps serving', async (_name, contentType, payload) => {
    const url = await signedUrl();
    const response = await post(url, contentType, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
