import { randomInt, randomUUID } from 'node:crypto';
import path from 'node:path';
import WebSocket from 'ws';
import { z } from 'zod';
import { MAX_UPLOAD_BYTES } from '../../../shared/uploads';
import {
  AbortedError,
  EngineError,
  sleep,
  shouldCancelTask,
  type EngineContext,
  type EngineJob,
  type VideoEngine,
} from '../engine';
import {
  describeBody,
  downloadToFile,
  isTransientStatus,
  joinUrl,
  readInputBytes,
  requestJson,
  withDeadline,
  type ProviderPolicy,
} from '../provider-http';
import { QUEUED_PROGRESS, queuedStage, renderProgress } from '../provider-progress';
import { type ComfyTemplate, fillWorkflow, frameCount } from './templates';

export interface ComfyEngineOptions {
  /** http://127.0.0.1:8188 by default; a local server in tests. */
  url: string;
  authHeader: { name: string; value: string } | undefined;
  template: ComfyTemplate;
  pollIntervalMs: number;
  timeoutMs: number;
  retryBaseDelayMs?: number;
}

const UPLOAD_TIMEOUT_MS = 120_000;
const CANCEL_TIMEOUT_MS = 10_000;
const WS_HANDSHAKE_MS = 10_000;

const comfyPolicy: ProviderPolicy = {
  providerName: 'ComfyUI',
  shouldRetry: isTransientStatus,
  toError(status, body) {
    const detail = `HTTP ${status}: ${describeBody(body)}`;
    if (isTransientStatus(status))
      return new EngineError('ComfyUI is busy right now. Please try again later.', true, detail);
    if (status === 401 || status === 403)
      return new EngineError('ComfyUI refused our access (check COMFYUI_AUTH_HEADER).', false, detail, false, 'auth');
    return new EngineError(`ComfyUI refused the workflow. ${describeNodeErrors(body)}`.trim(), false, detail);
  },
};

/** A 400 from /prompt: {error: {message, details}, node_errors: {id: {errors: [{message, details}], class_type}}}. */
function describeNodeErrors(body: unknown): string {
  const parsed = z
    .object({
      error: z.object({ message: z.string().optional() }).passthrough().optional(),
      node_errors: z
        .record(
          z.string(),
          z.object({
            errors: z.array(z.object({ message: z.string().optional(), details: z.string().optional() })).optional(),
            class_type: z.string().optional(),
          }),
        )
        .optional(),
    })
    .safeParse(body);
  if (!parsed.success) return '';
  const nodes = Object.values(parsed.data.node_errors ?? {}).flatMap((n) =>
    (n.errors ?? []).map((e) => `${n.class_type ?? 'node'}: ${[e.message, e.details].filter(Boolean).join(' ')}`),
  );
  return [parsed.data.error?.message, ...nodes].filter(Boolean).join('; ');
}

const historyEntrySchema = z
  .object({
    outputs: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
    status: z
      .object({
        status_str: z.string().optional(),
        completed: z.boolean().optional(),
        messages: z.array(z.unknown()).optional(),
      })
      .optional(),
  })
  .passthrough();
type HistoryEntry = z.infer<typeof historyEntrySchema>;

const fileSchema = z.object({
  filename: z.string().min(1),
  subfolder: z.string().default(''),
  type: z.string().default('output'),
  format: z.string().optional(),
});

/** The job's ComfyUI task: its prompt id and the WebSocket client id that submitted it (to resume its progress). */
interface Task {
  promptId: string;
  clientId: string;
}

/** One workflow template on the operator's ComfyUI: upload, submit, follow (WebSocket, else /history), download. */
export function createComfyEngine(options: ComfyEngineOptions): VideoEngine {
  const headers: Record<string, string> = options.authHeader
    ? { [options.authHeader.name]: options.authHeader.value }
    : {};
  const call = (method: 'GET' | 'POST', apiPath: string, signal: AbortSignal, body?: unknown) =>
    requestJson({
      method,
      url: joinUrl(options.url, apiPath),
      headers,
      body,
      signal,
      policy: comfyPolicy,
      retryBaseDelayMs: options.retryBaseDelayMs,
    });
  const { mapping } = options.template;

  async function uploadImage(job: EngineJob, signal: AbortSignal, end = false): Promise<string | null> {
    const image = end ? job.endImage : job.inputs.image;
    const field = end ? mapping.fields.endImage : mapping.fields.image;
    if (!image || !mapping.inputs.includes('image') || !field || (end && !mapping.endFrame)) return null;
    const bytes = await readInputBytes(image, MAX_UPLOAD_BYTES, 'The image is too large (at most 50 MB).');
    const extension = image.contentType === 'image/png' ? 'png' : image.contentType === 'image/webp' ? 'webp' : 'jpg';
    const name = `reelsmith-${job.id}${end ? '-end' : ''}.${extension}`;
    // The upload overwrites the same name, so a rate-limited or failed try is safely sent again.
    let response: Response;
    for (let attempt = 1; ; attempt += 1) {
      const form = new FormData();
      form.append('image', new Blob([new Uint8Array(bytes)], { type: image.contentType }), name);
      form.append('overwrite', 'true');
      response = await fetch(joinUrl(options.url, 'upload/image'), {
        method: 'POST',
        headers,
        body: form,
        signal: AbortSignal.any([signal, AbortSignal.timeout(UPLOAD_TIMEOUT_MS)]),
      }).catch((error: unknown) => {
        if (signal.aborted) throw new AbortedError();
        throw new EngineError('Could not reach ComfyUI. Please try again.', true, String(error));
      });
      if (response.ok || !isTransientStatus(response.status) || attempt >= 4) break;
      await response.body?.cancel();
      await sleep((options.retryBaseDelayMs ?? 1000) * 2 ** (attempt - 1), signal);
    }
    const text = await response.text();
    if (!response.ok) throw comfyPolicy.toError(response.status, text);
    const parsed = z
      .object({ name: z.string().min(1), subfolder: z.string().default('') })
      .safeParse(JSON.parse(text || 'null') as unknown);
    if (!parsed.success) throw new EngineError('ComfyUI did not accept the image.', true, text.slice(0, 300));
    return parsed.data.subfolder ? `${parsed.data.subfolder}/${parsed.data.name}` : parsed.data.name;
  }

  function workflowFor(job: EngineJob, image: string | null, endImage: string | null) {
    const aspect = job.settings.aspectRatio ?? '16:9';
    const [width, height] = mapping.sizes[aspect] ?? Object.values(mapping.sizes)[0] ?? [1280, 720];
    return fillWorkflow(options.template, {
      prompt: job.prompt,
      negativePrompt: job.settings.negativePrompt?.trim() ? job.settings.negativePrompt : undefined,
      seed: job.settings.seed ?? randomInt(0, 2 ** 32 - 1),
      width,
      height,
      frames: frameCount(job.duration, mapping.fps, mapping.frameStep),
      fps: mapping.fps,
      image,
      endImage,
    });
  }

  async function waitUntilDone(task: Task, context: EngineContext, signal: AbortSignal): Promise<HistoryEntry> {
    const events = followSocket(options.url, headers, task, context, mapping.name);
    try {
      for (;;) {
        const raw = await call('GET', `history/${encodeURIComponent(task.promptId)}`, signal);
        const entry = z.record(z.string(), historyEntrySchema).safeParse(raw);
        const found = entry.success ? entry.data[task.promptId] : undefined;
        if (
          found &&
          (found.status?.completed || found.status?.status_str === 'error' || Object.keys(found.outputs).length > 0)
        )
          return found;
        if (!events.started()) {
          const position = await queuePosition(task.promptId, signal);
          if (position !== null) context.reportProgress(QUEUED_PROGRESS, queuedStage('ComfyUI', position));
        }
        await events.next(options.pollIntervalMs, signal);
      }
    } finally {
      events.close();
    }
  }

  /** 0 when running or next, N when N prompts wait before it, null when it is in neither list. */
  async function queuePosition(promptId: string, signal: AbortSignal): Promise<number | null> {
    const raw = await call('GET', 'queue', signal).catch((error: unknown) => {
      if (error instanceof AbortedError) throw error;
      return null;
    });
    const parsed = z
      .object({ queue_running: z.array(z.array(z.unknown())), queue_pending: z.array(z.array(z.unknown())) })
      .safeParse(raw);
    if (!parsed.success) return null;
    if (parsed.data.queue_running.some((item) => item[1] === promptId)) return null;
    const pending = [...parsed.data.queue_pending].sort((a, b) => Number(a[0]) - Number(b[0]));
    const index = pending.findIndex((item) => item[1] === promptId);
    return index < 0 ? null : index + parsed.data.queue_running.length;
  }

  async function cancel(task: Task): Promise<void> {
    const signal = AbortSignal.timeout(CANCEL_TIMEOUT_MS);
    // Pending: remove it from the queue; running: interrupt it (newer ComfyUI interrupts only this prompt).
    await call('POST', 'queue', signal, { delete: [task.promptId] }).catch(() => undefined);
    await call('POST', 'interrupt', signal, { prompt_id: task.promptId }).catch(() => undefined);
  }

  return {
    id: mapping.id,
    async render(job, context) {
      let task: Task | null = job.providerTaskId ? parseTask(job.providerTaskId) : null;
      try {
        const entry = await withDeadline(context.signal, options.timeoutMs, async (signal) => {
          if (!task) {
            const image = await uploadImage(job, signal);
            const endImage = await uploadImage(job, signal, true);
            const clientId = randomUUID();
            const raw = await call('POST', 'prompt', signal, {
              prompt: workflowFor(job, image, endImage),
              client_id: clientId,
            });
            const accepted = z
              .object({ prompt_id: z.string().min(1) })
              .passthrough()
              .safeParse(raw);
            if (!accepted.success)
              throw new EngineError('ComfyUI did not accept the workflow.', true, describeBody(raw));
            task = { promptId: accepted.data.prompt_id, clientId };
            await context.saveProviderTask(`${task.promptId}|${task.clientId}`);
            context.reportProgress(QUEUED_PROGRESS, queuedStage('ComfyUI', null));
          }
          return waitUntilDone(task, context, signal);
        });
        if (entry.status?.status_str === 'error')
          throw new EngineError(`ComfyUI could not make this video: ${errorOf(entry)}`, false);
        const file = videoFileOf(entry);
        context.reportProgress(90, 'Downloading video');
        const filePath = path.join(context.workDir, `comfyui-output${path.extname(file.filename) || '.mp4'}`);
        const query = new URLSearchParams({ filename: file.filename, subfolder: file.subfolder, type: file.type });
        await downloadToFile(joinUrl(options.url, `view?${query.toString()}`), headers, filePath, context.signal);
        return { filePath };
      } catch (error) {
        if (task && shouldCancelTask(job, context.signal, error)) await cancel(task);
        throw error;
      }
    },
  };
}

function parseTask(saved: string): Task {
  const [promptId = saved, clientId = randomUUID()] = saved.split('|');
  return { promptId, clientId };
}

/** The readable reason of a failed run: its execution_error's exception message. */
function errorOf(entry: HistoryEntry): string {
  for (const message of entry.status?.messages ?? []) {
    const parsed = z
      .tuple([
        z.literal('execution_error'),
        z.object({ exception_message: z.string().optional(), node_type: z.string().optional() }).passthrough(),
      ])
      .safeParse(message);
    if (parsed.success) return (parsed.data[1].exception_message ?? '').trim() || 'the workflow stopped with an error.';
  }
  return 'the workflow stopped with an error.';
}

/** The first video the run saved: SaveVideo lists it under `videos` or `images` (animated), VHS_VideoCombine under `gifs`. */
function videoFileOf(entry: HistoryEntry): z.infer<typeof fileSchema> {
  for (const output of Object.values(entry.outputs)) {
    for (const key of ['videos', 'gifs', 'images']) {
      const files = z.array(fileSchema).safeParse(output[key]);
      if (!files.success) continue;
      const video = files.data.find((f) => /\.(mp4|webm|mov|mkv)$/i.test(f.filename) || f.format?.startsWith('video/'));
      if (video) return video;
    }
  }
  throw new EngineError(
    'ComfyUI finished without a video: the workflow saves no video file.',
    false,
    describeBody(entry.outputs),
  );
}

/**
 * Follows the prompt on ComfyUI's WebSocket: `progress` (value/max) becomes the job's progress,
 * `executing` with node null (or an error) wakes the caller to read /history at once. When the socket
 * cannot connect or drops, the caller's /history polling carries on alone.
 */
function followSocket(
  baseUrl: string,
  headers: Record<string, string>,
  task: Task,
  context: EngineContext,
  name: string,
) {
  let started = false;
  let wake: (() => void) | null = null;
  const url = new URL(joinUrl(baseUrl, `ws?clientId=${encodeURIComponent(task.clientId)}`));
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  let socket: WebSocket | null = null;
  try {
    socket = new WebSocket(url, { headers, handshakeTimeout: WS_HANDSHAKE_MS, maxPayload: 4 * 1024 * 1024 });
  } catch {
    socket = null;
  }
  socket?.on('error', () => undefined);
  socket?.on('message', (data, isBinary) => {
    if (isBinary) return; // previews
    const parsed = z
      .object({
        type: z.string(),
        data: z
          .object({
            prompt_id: z.string().optional(),
            node: z.string().nullish(),
            value: z.number().optional(),
            max: z.number().optional(),
          })
          .passthrough(),
      })
      .safeParse(
        safeJson(
          Buffer.isBuffer(data)
            ? data.toString('utf8')
            : Array.isArray(data)
              ? Buffer.concat(data).toString('utf8')
              : Buffer.from(data).toString('utf8'),
        ),
      );
    if (!parsed.success) return;
    const { type, data: body } = parsed.data;
    if (body.prompt_id !== undefined && body.prompt_id !== task.promptId) return;
    if (type === 'execution_start' || (type === 'executing' && body.node)) {
      if (!started) context.reportProgress(renderProgress(0), `Generating with ${name}`);
      started = true;
    } else if (type === 'progress' && body.max && body.value !== undefined) {
      started = true;
      context.reportProgress(renderProgress((100 * body.value) / body.max), `Generating with ${name}`);
    }
    if (
      (type === 'executing' && body.node === null) ||
      type === 'execution_error' ||
      type === 'execution_interrupted' ||
      type === 'execution_success'
    ) {
      wake?.();
    }
  });
  return {
    started: () => started,
    /** Waits up to `ms`, or less when the socket says the run ended. */
    next(ms: number, signal: AbortSignal): Promise<void> {
      return new Promise((resolve, reject) => {
        if (signal.aborted) {
          reject(new AbortedError());
          return;
        }
        const finish = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          wake = null;
        };
        const timer = setTimeout(() => {
          finish();
          resolve();
        }, ms);
        const onAbort = () => {
          finish();
          reject(new AbortedError());
        };
        wake = () => {
          finish();
          resolve();
        };
        signal.addEventListener('abort', onAbort, { once: true });
      });
    },
    close: () => socket?.terminate(),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
