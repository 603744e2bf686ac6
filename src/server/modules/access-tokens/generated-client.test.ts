import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateClientTypes, TYPES_FILE } from '../../../../examples/generate-types';
import { makeAVideo } from '../../../../examples/make-a-video';
import { injectJson, type TestApp } from '../../../../tests/support/app';
import { probeBytes } from '../../../../tests/support/media';
import { payingUser, startPipeline } from '../../../../tests/support/pipeline';
import { startWebhookReceiver, type WebhookReceiver } from '../../../../tests/support/webhook-receiver';
import type { CreatedWebhook } from '../../../shared/webhooks';

// The example in examples/ (a client generated from GET /api/openapi.json with openapi-typescript
// and openapi-fetch) run as a program runs it: over HTTP against the app listening on a port, with a
// worker rendering on the local engine and a webhook receiver on this machine.

const ASTRONAUT = readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/astronaut.png'));

let t: TestApp;
let stop: () => Promise<void>;
let receiver: WebhookReceiver;
let base: string;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  ({ t, stop } = await startPipeline({ WEBHOOK_ALLOWED_PRIVATE_HOSTS: receiver.hostPort }));
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  base = `http://127.0.0.1:${address.port}`;
  // Opening the embedded database compiles PGlite first: slow on a busy machine.
}, 180_000);
afterAll(async () => {
  await stop?.();
  await receiver?.close();
});

async function tokenFor(cookie: string, scopes: string[]): Promise<string> {
  const response = await injectJson(t.app, 'POST', '/api/account/tokens', {
    cookie,
    body: { name: 'example script', scopes },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ token: string }>().token;
}

async function webhookEndpoint(cookie: string, hookPath: string): Promise<CreatedWebhook> {
  const response = await injectJson(t.app, 'POST', '/api/account/webhooks', {
    cookie,
    body: { url: receiver.url(hookPath), events: ['video.completed', 'video.failed'] },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedWebhook>();
}

describe('the generated client (examples/)', () => {
  it('is generated from this server’s document (examples/api.d.ts is current)', async () => {
    const document = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const generated = await generateClientTypes(document.json<object>());
    // Stale: run `npm run examples:types` against a server of this version (npm run dev).
    expect(generated === readFileSync(TYPES_FILE, 'utf8'), 'examples/api.d.ts is out of date').toBe(true);
  });

  it('uploads, makes a video with a token, verifies its webhook and downloads a real MP4', async () => {
    const { user, cookie } = await payingUser(t, 1000);
    const endpoint = await webhookEndpoint(cookie, '/made');
    const steps: string[] = [];
    const made = await makeAVideo({
      baseUrl: base,
      token: await tokenFor(cookie, ['uploads:write', 'videos:write', 'videos:read']),
      image: new Blob([ASTRONAUT], { type: 'image/png' }),
      prompt: 'Slowly zoom in on the astronaut',
      duration: 4,
      // The astronaut is a real person: the program's user confirms consent.
      consentToLikeness: true,
      webhookSecret: endpoint.secret,
      nextWebhook: () => receiver.next((request) => request.path === '/made', 120_000),
      log: (line) => steps.push(line),
    });

    expect(steps.map((line) => line.split(' ')[0])).toEqual(['uploaded', 'queued', 'webhook', 'downloaded']);
    expect(made.event).toMatchObject({ type: 'video.completed', data: { status: 'completed' } });
    expect(made.video.inputs?.image).toMatch(new RegExp(`^/objects/uploads/${user.id}/`));
    const info = await probeBytes(Buffer.from(made.file));
    expect(info.video).toMatchObject({ codec: 'h264', width: 854, height: 480 });
    expect(Math.abs(info.durationSeconds - 4)).toBeLessThanOrEqual(0.2);

    // Charged once, as the answer said.
    const balance = await injectJson(t.app, 'GET', '/api/credits/balance', { cookie });
    expect(balance.json<{ credits: number }>().credits).toBe(10 - made.video.creditsUsed);
  }, 180_000);

  it('surfaces the API’s error body: a token without videos:write cannot make a video', async () => {
    const { cookie } = await payingUser(t, 1000);
    const endpoint = await webhookEndpoint(cookie, '/never');
    await expect(
      makeAVideo({
        baseUrl: base,
        token: await tokenFor(cookie, ['uploads:write']),
        image: new Blob([ASTRONAUT], { type: 'image/png' }),
        prompt: 'Slowly zoom in on the astronaut',
        webhookSecret: endpoint.secret,
        nextWebhook: () => Promise.reject(new Error('no video, no webhook')),
      }),
    ).rejects.toThrow('generation refused: missing_scope: This access token does not have the "videos:write" scope');
  });
});
