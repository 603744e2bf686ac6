// Makes a video with Reelsmith's API: uploads an image, starts a video from it with an access
// token, waits for the signed `video.completed` webhook, and downloads the MP4.
//
//   REELSMITH_URL=https://reelsmith.example.com REELSMITH_TOKEN=rs_... REELSMITH_WEBHOOK_SECRET=whsec_... \
//     npx tsx examples/make-a-video.ts astronaut.png "Slowly zoom in on the astronaut"
//
// See examples/README.md: the token needs the uploads:write, videos:write and videos:read scopes,
// and a webhook endpoint (account page) must point at this script's receiver (WEBHOOK_PORT, 8787).
import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import createClient from 'openapi-fetch';
import { Webhook } from 'standardwebhooks';
import type { paths, webhooks } from './api';

/** A video as the API lists it (and as each webhook event's `data` carries it). */
export type Video = paths['/api/video-generation']['get']['responses'][200]['content']['application/json'][number];

/** The body of one of the document's webhook events: Standard Webhooks' `type`, `timestamp` and `data`. */
type EventBody<T extends keyof webhooks> = webhooks[T]['post']['requestBody']['content']['application/json'];
export type VideoEvent = EventBody<'video.completed'> | EventBody<'video.failed'> | EventBody<'video.progress'>;

/** One request your webhook endpoint received: its headers and exact body (the signature covers its bytes). */
export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface MakeAVideoOptions {
  /** The server, e.g. https://reelsmith.example.com */
  baseUrl: string;
  /** A personal access token (`rs_...`) with uploads:write, videos:write and videos:read. */
  token: string;
  /** The image to start from (its type: image/png, image/jpeg or image/webp). */
  image: Blob;
  prompt: string;
  /** Seconds. */
  duration?: number;
  /**
   * Your user confirms they are the person the image shows, or have that person's consent: required
   * when it shows a person (the upload's answer says `showsPeople`), else the server answers 422
   * `consent_required`.
   */
  consentToLikeness?: boolean;
  /** The signing secret (`whsec_...`) shown when the webhook endpoint was added. */
  webhookSecret: string;
  /** The next request your webhook endpoint receives. */
  nextWebhook: () => Promise<ReceivedWebhook>;
  /** Called as each step finishes. */
  log?: (line: string) => void;
}

export interface MadeVideo {
  video: Video;
  /** The verified `video.completed` event. */
  event: VideoEvent;
  /** The MP4's bytes. */
  file: Uint8Array;
}

const header = (headers: IncomingHttpHeaders, name: string) => String(headers[name] ?? '');

/** Upload, generate, wait for the webhook, download: the whole path of a program using the API. */
export async function makeAVideo(options: MakeAVideoOptions): Promise<MadeVideo> {
  const log = options.log ?? (() => undefined);
  const api = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { Authorization: `Bearer ${options.token}` },
  });

  // 1. The image, as the body of one request. The answer's objectPath is what a generation takes.
  const upload = await api.PUT('/api/uploads', {
    body: options.image,
    bodySerializer: (file) => file,
    headers: { 'content-type': options.image.type || 'application/octet-stream' },
  });
  if (!upload.data) throw new Error(`upload refused: ${upload.error?.code}: ${upload.error?.message}`);
  log(`uploaded ${upload.data.objectPath}`);

  // 2. The video. The Idempotency-Key makes a retry of this request safe: it is charged once.
  const created = await api.POST('/api/video-generation', {
    params: { header: { 'Idempotency-Key': randomUUID() } },
    body: {
      prompt: options.prompt,
      imageFile: upload.data.objectPath,
      duration: options.duration ?? 4,
      isEconomy: true,
      hasAudio: false,
      // A picture of a person needs the uploader's consent (the answer's `showsPeople` says when):
      // this program's user confirms they are that person, or have their consent.
      ...(upload.data.showsPeople ? { consentToLikeness: options.consentToLikeness ?? false } : {}),
    },
  });
  if (!created.data) throw new Error(`generation refused: ${created.error?.code}: ${created.error?.message}`);
  const id = created.data.id;
  log(`queued video ${id} (${created.data.creditsUsed} credits)`);

  // 3. Its webhook: verified with the endpoint's secret (Standard Webhooks), anything else ignored.
  const verifier = new Webhook(options.webhookSecret);
  let event: VideoEvent;
  for (;;) {
    const request = await options.nextWebhook();
    event = verifier.verify(request.body, {
      'webhook-id': header(request.headers, 'webhook-id'),
      'webhook-timestamp': header(request.headers, 'webhook-timestamp'),
      'webhook-signature': header(request.headers, 'webhook-signature'),
    }) as VideoEvent;
    if (event.data.id !== id) continue;
    if (event.type === 'video.failed') throw new Error(`video failed: ${event.data.errorMessage ?? 'no reason given'}`);
    if (event.type === 'video.completed') break;
  }
  log(`webhook ${event.type} verified`);

  // 4. The file: outputVideoUrl is a signed link (the link itself is the permission).
  const link = event.data.outputVideoUrl;
  if (!link) throw new Error('the finished video has no outputVideoUrl');
  const download = await fetch(new URL(link, options.baseUrl));
  if (!download.ok) throw new Error(`download answered ${download.status}`);
  const file = new Uint8Array(await download.arrayBuffer());
  log(`downloaded ${file.byteLength} bytes`);
  return { video: event.data, event, file };
}

/** A webhook receiver on this machine: each request is queued for `next`. */
function startReceiver(port: number) {
  const queued: ReceivedWebhook[] = [];
  const waiting: ((request: ReceivedWebhook) => void)[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      response.writeHead(204).end();
      const received = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      const waiter = waiting.shift();
      if (waiter) waiter(received);
      else queued.push(received);
    });
  });
  server.listen(port);
  return {
    next: () =>
      new Promise<ReceivedWebhook>((resolve) => {
        const first = queued.shift();
        if (first) resolve(first);
        else waiting.push(resolve);
      }),
    close: () => server.close(),
  };
}

async function main(): Promise<void> {
  // eslint-disable-next-line no-restricted-properties -- a standalone example reads its own environment
  const env = process.env;
  const [imagePath, prompt = 'Slowly zoom in'] = process.argv.slice(2);
  if (!imagePath || !env.REELSMITH_URL || !env.REELSMITH_TOKEN || !env.REELSMITH_WEBHOOK_SECRET) {
    console.error(
      'usage: REELSMITH_URL=... REELSMITH_TOKEN=rs_... REELSMITH_WEBHOOK_SECRET=whsec_... npx tsx examples/make-a-video.ts image.png "prompt"',
    );
    process.exit(2);
  }
  const type = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp' }[
    path.extname(imagePath).toLowerCase()
  ];
  const receiver = startReceiver(Number(env.WEBHOOK_PORT ?? 8787));
  try {
    const { video, file } = await makeAVideo({
      baseUrl: env.REELSMITH_URL,
      token: env.REELSMITH_TOKEN,
      image: new Blob([await readFile(imagePath)], { type }),
      prompt,
      // REELSMITH_CONSENT=yes: you are the person in the picture, or have their consent.
      consentToLikeness: env.REELSMITH_CONSENT === 'yes',
      webhookSecret: env.REELSMITH_WEBHOOK_SECRET,
      nextWebhook: receiver.next,
      log: (line) => console.log(line),
    });
    await writeFile(`${video.id}.mp4`, file);
    console.log(`saved ${video.id}.mp4`);
  } finally {
    receiver.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
