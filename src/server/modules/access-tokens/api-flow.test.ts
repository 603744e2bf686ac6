import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectJson, type TestApp } from '../../../../tests/support/app';
import { probeBytes } from '../../../../tests/support/media';
import { payingUser, startPipeline } from '../../../../tests/support/pipeline';
import type { GenerationRecord } from '../../../shared/generations';
import type { UploadComplete, UploadTarget } from '../../../shared/uploads';

const ASTRONAUT = readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/astronaut.png'));

let t: TestApp;
let stop: () => Promise<void>;
let base: string;
beforeAll(async () => {
  ({ t, stop } = await startPipeline({}));
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  base = `http://127.0.0.1:${address.port}`;
  // Opening the embedded database compiles PGlite first: slow on a busy machine.
}, 180_000);
afterAll(async () => {
  // This file's own fetch calls keep their connections open (keep-alive, and refused uploads whose
  // bodies were still being sent): end them, so closing the server does not wait on them.
  t.app.server.closeAllConnections();
  await stop();
});

/** A program's own HTTP calls, with nothing but its token (no cookie, no Origin). */
function client(token: string) {
  const call = (method: string, url: string, init: { body?: BodyInit; headers?: Record<string, string> } = {}) =>
    fetch(new URL(url, base), {
      method,
      headers: { authorization: `Bearer ${token}`, ...init.headers },
      body: init.body,
      signal: AbortSignal.timeout(20_000),
    });
  const json = (method: string, url: string, body: unknown) =>
    call(method, url, { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { call, json };
}

async function tokenFor(cookie: string, scopes: string[]): Promise<string> {
  const response = await injectJson(t.app, 'POST', '/api/account/tokens', {
    cookie,
    body: { name: 'render script', scopes },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ token: string }>().token;
}

/** Polls the list as a program would, until the video finished. */
async function waitForVideo(api: ReturnType<typeof client>, id: string, timeoutMs = 90_000): Promise<GenerationRecord> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = (await (await api.call('GET', '/api/video-generation')).json()) as GenerationRecord[];
    const record = list.find((r) => r.id === id);
    if (record && (record.status === 'completed' || record.status === 'failed')) return record;
    if (Date.now() > deadline) throw new Error(`video ${id} not finished: ${JSON.stringify(record)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a program with a token', () => {
  it('uploads an image in one request, generates from it, waits, downloads and gets a real MP4', async () => {
    const { cookie } = await payingUser(t, 1000);
    const api = client(await tokenFor(cookie, ['uploads:write', 'videos:write', 'videos:read']));

    const put = await api.call('PUT', '/api/uploads', { body: ASTRONAUT, headers: { 'content-type': 'image/png' } });
    expect(put.status).toBe(200);
    const upload = (await put.json()) as UploadComplete;
    expect(upload).toMatchObject({
      kind: 'image',
      contentType: 'image/png',
      size: ASTRONAUT.length,
      showsPeople: true,
    });

    const request = {
      prompt: 'Slowly zoom in on the astronaut',
      imageFile: upload.objectPath,
      duration: 4,
      isEconomy: true,
      hasAudio: false,
    };
    // A picture of a person: refused until the program's user confirms consent.
    const unconfirmed = await api.json('POST', '/api/video-generation', request);
    expect(unconfirmed.status).toBe(422);
    expect(((await unconfirmed.json()) as { code: string }).code).toBe('consent_required');
    const created = await api.json('POST', '/api/video-generation', { ...request, consentToLikeness: true });
    expect(created.status).toBe(201);
    const record = await waitForVideo(api, ((await created.json()) as GenerationRecord).id);
    expect(record.status).toBe('completed');
    expect(record.outputVideoUrl).toBeTruthy();

    const download = await api.call('GET', record.outputVideoUrl ?? '');
    expect(download.status).toBe(200);
    const info = await probeBytes(Buffer.from(await download.arrayBuffer()));
    expect(info.video).toMatchObject({ codec: 'h264', width: 854, height: 480 });
    expect(Math.abs(info.durationSeconds - 4)).toBeLessThanOrEqual(0.2);
  });

  it('uploads through the signed two-step flow and as a multipart form, and reads its input back', async () => {
    const { user, cookie } = await payingUser(t, 1000);
    const api = client(await tokenFor(cookie, ['uploads:write', 'videos:read']));
    const target = (await (await api.call('POST', '/api/objects/upload')).json()) as UploadTarget;
    const sent = await api.call(target.method, target.uploadURL, { body: ASTRONAUT });
    expect(sent.status).toBe(200);
    expect(((await sent.json()) as UploadComplete).objectPath).toBe(target.objectPath);

    const form = new FormData();
    form.append('file', new Blob([ASTRONAUT], { type: 'image/png' }), 'astronaut.png');
    const posted = await api.call('POST', '/api/uploads', { body: form });
    expect(posted.status).toBe(200);
    const { objectPath } = (await posted.json()) as UploadComplete;
    expect(objectPath).toMatch(new RegExp(`^/objects/uploads/${user.id}/`));
    const back = await api.call('GET', `/api${objectPath}`);
    expect(back.status).toBe(200);
    expect(Buffer.from(await back.arrayBuffer()).equals(ASTRONAUT)).toBe(true);
  });

  it('cannot upload without uploads:write, nor upload something that is not media', async () => {
    const { cookie } = await payingUser(t, 1000);
    const reader = client(await tokenFor(cookie, ['videos:read']));
    const refused = await reader.call('PUT', '/api/uploads', { body: ASTRONAUT });
    expect(refused.status).toBe(403);
    const writer = client(await tokenFor(cookie, ['uploads:write']));
    const junk = await writer.call('PUT', '/api/uploads', { body: Buffer.from('#!/bin/sh\necho not a picture\n') });
    expect(junk.status).toBe(415);
    const unsigned = await fetch(new URL('/api/uploads', base), { method: 'PUT', body: ASTRONAUT });
    expect(unsigned.status).toBe(401);
  });
});
