import { createHmac, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import {
  AbortedError,
  EngineError,
  shouldCancelTask,
  type EngineContext,
  type EngineJob,
  type VideoEngine,
} from './engine';
import {
  describeBody,
  downloadToFile,
  isTransientStatus,
  joinUrl,
  requestJson,
  withDeadline,
  type ProviderPolicy,
} from './provider-http';
import { QUEUED_PROGRESS, runningProgress } from './provider-progress';

export type ReplicateFamily = 'veo' | 'kling';

export interface ReplicateModel {
  id: string;
  name: string;
  family: ReplicateFamily;
  /** owner/name, e.g. google/veo-3. */
  slug: string;
}

export interface ReplicateEngineOptions {
  apiToken: string;
  /** https://api.replicate.com; a local server in tests. */
  baseUrl: string;
  model: ReplicateModel;
  /** Our webhook address (PUBLIC_URL set); polling alone without it. */
  webhookUrl: string | undefined;
  webhooks: ReplicateWebhooks;
  pollIntervalMs: number;
  timeoutMs: number;
  retryBaseDelayMs?: number;
}

const TYPICAL_RENDER_MS = 120_000;
const CANCEL_TIMEOUT_MS = 10_000;
/** A webhook older or newer than this is refused (replays). */
const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;
/** The signing secret is asked for again at most this often: after a failed fetch, or a signature that did not verify. */
const SECRET_REFETCH_MS = 60_000;

const predictionSchema = z.object({
  id: z.string().min(1),
  status: z.string(),
  output: z.unknown().optional(),
  error: z.unknown().optional(),
  logs: z.string().nullish(),
});
type Prediction = z.infer<typeof predictionSchema>;

const replicatePolicy: ProviderPolicy = {
  providerName: 'Replicate',
  shouldRetry: isTransientStatus,
  toError(status, body) {
    const detail = `HTTP ${status}: ${describeBody(body)}`;
    const parsed = z.object({ detail: z.string().optional(), title: z.string().optional() }).safeParse(body);
    const text = parsed.success ? (parsed.data.detail ?? parsed.data.title ?? '') : '';
    if (isTransientStatus(status))
      return new EngineError('Replicate is busy right now. Please try again later.', true, detail);
    if (status === 401 || status === 403)
      return new EngineError("Replicate refused this server's API token.", false, detail, false, 'auth');
    if (isPolicyText(text))
      return new EngineError(`Replicate refused this video: ${text}`, false, detail, false, 'policy');
    return new EngineError(`Replicate could not make this video. ${text}`.trim(), false, detail);
  },
};

/** Replicate's safety refusals: "flagged as sensitive (E005)", NSFW, content policy. */
const isPolicyText = (text: string) => /flagged|sensitive|nsfw|safety|content polic|E005/i.test(text);

/**
 * Replicate's webhooks in this process: verifies their signatures (Standard Webhooks: HMAC-SHA256 of
 * `${id}.${timestamp}.${body}` with the account's signing secret) and wakes the job waiting on that
 * prediction, which then reads the prediction itself. Other processes' jobs simply keep polling.
 */
export interface ReplicateWebhooks {
  /** True when the request is signed by Replicate; the caller answers 401 otherwise. */
  deliver(headers: Record<string, string | string[] | undefined>, rawBody: Buffer, nowMs?: number): Promise<boolean>;
  wait(predictionId: string, ms: number, signal: AbortSignal): Promise<void>;
}

export function createReplicateWebhooks(options: { apiToken: string; baseUrl: string }): ReplicateWebhooks {
  const waiting = new Map<string, Set<() => void>>();
  const fetchSecret = async () => {
    const raw = await requestJson({
      method: 'GET',
      url: joinUrl(options.baseUrl, 'v1/webhooks/default/secret'),
      headers: { authorization: `Bearer ${options.apiToken}` },
      signal: AbortSignal.timeout(15_000),
      policy: replicatePolicy,
      maxTries: 2,
    });
    const key = z.object({ key: z.string().min(1) }).parse(raw).key;
    return Buffer.from(key.replace(/^whsec_/, ''), 'base64');
  };

  // The account's signing secret: fetched at the first webhook, and again (at most once a minute) when a
  // signature does not verify, because Replicate may have rotated it. Concurrent webhooks share one fetch;
  // a failed fetch keeps the secret we had.
  let secret: Buffer | null = null;
  let fetching: Promise<Buffer | null> | null = null;
  let fetchAgainAt = 0;
  const fetchOnce = (): Promise<Buffer | null> => {
    fetching ??= fetchSecret()
      .then(
        (key) => {
          secret = key;
          return key;
        },
        () => {
          // Replicate did not give the secret: ask again in a minute rather than on every call.
          fetchAgainAt = Date.now() + SECRET_REFETCH_MS;
          return secret;
        },
      )
      .finally(() => {
        fetching = null;
      });
    return fetching;
  };
  /** A secret other than `stale`, if one is known or may be fetched now; null otherwise. */
  const newerSecret = async (stale: Buffer): Promise<Buffer | null> => {
    if (secret && !secret.equals(stale)) return secret;
    if (!fetching) {
      if (Date.now() < fetchAgainAt) return null;
      fetchAgainAt = Date.now() + SECRET_REFETCH_MS;
    }
    const key = await fetchOnce();
    return key && !key.equals(stale) ? key : null;
  };

  return {
    async deliver(headers, rawBody, nowMs = Date.now()) {
      const header = (name: string) => {
        const value = headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      const id = header('webhook-id');
      const timestamp = header('webhook-timestamp');
      const signatures = header('webhook-signature');
      if (!id || !timestamp || !signatures || !/^\d{1,12}$/.test(timestamp)) return false;
      if (Math.abs(nowMs / 1000 - Number(timestamp)) > WEBHOOK_TOLERANCE_SECONDS) return false;
      const signedWith = (key: Buffer) => {
        const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(rawBody).digest();
        return signatures.split(' ').some((entry) => {
          const [version, value] = entry.split(',');
          if (version !== 'v1' || !value) return false;
          const given = Buffer.from(value, 'base64');
          return given.length === expected.length && timingSafeEqual(given, expected);
        });
      };
      const fetchedNow = !secret;
      const key = secret ?? (fetching || Date.now() >= fetchAgainAt ? await fetchOnce() : null);
      if (!key) return false;
      let valid = signedWith(key);
      if (!valid && !fetchedNow) {
        // Verify once more with the secret Replicate gives now (it may have been rotated).
        const newer = await newerSecret(key);
        valid = newer !== null && signedWith(newer);
      }
      if (!valid) return false;
      let body: unknown = null;
      try {
        body = JSON.parse(rawBody.toString('utf8')) as unknown;
      } catch {
        // Signed but not JSON: accepted (it is Replicate's), nothing to wake.
      }
      const parsed = z.object({ id: z.string() }).safeParse(body);
      if (parsed.success) for (const wake of waiting.get(parsed.data.id) ?? []) wake();
      return true;
    },
    wait(predictionId, ms, signal) {
      return new Promise((resolve, reject) => {
        if (signal.aborted) {
          reject(new AbortedError());
          return;
        }
        const set = waiting.get(predictionId) ?? new Set<() => void>();
        waiting.set(predictionId, set);
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          set.delete(done);
          if (set.size === 0) waiting.delete(predictionId);
        };
        const wake = () => {
          done();
          resolve();
        };
        const onAbort = () => {
          done();
          reject(new AbortedError());
        };
        const timer = setTimeout(wake, ms);
        set.add(wake);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}

/** A model on Replicate: create a prediction, poll it (woken early by its webhook), download the output. */
export function createReplicateEngine(options: ReplicateEngineOptions): VideoEngine {
  const headers = { authorization: `Bearer ${options.apiToken}` };
  const call = (method: 'GET' | 'POST', apiPath: string, signal: AbortSignal, body?: unknown) =>
    requestJson({
      method,
      url: joinUrl(options.baseUrl, apiPath),
      headers,
      body,
      signal,
      policy: replicatePolicy,
      retryBaseDelayMs: options.retryBaseDelayMs,
    });
  const { model } = options;

  const read = (raw: unknown): Prediction => {
    const parsed = predictionSchema.safeParse(raw);
    if (!parsed.success) throw new EngineError('Replicate sent an answer we could not read.', true, describeBody(raw));
    return parsed.data;
  };

  async function waitUntilDone(id: string, context: EngineContext, signal: AbortSignal): Promise<Prediction> {
    const startedAt = Date.now();
    for (;;) {
      const prediction = read(await call('GET', `v1/predictions/${encodeURIComponent(id)}`, signal));
      if (['succeeded', 'failed', 'canceled', 'aborted'].includes(prediction.status)) return prediction;
      if (prediction.status === 'starting') context.reportProgress(QUEUED_PROGRESS, 'Starting at Replicate');
      else {
        const logs = (prediction.logs ?? '').split(/[\r\n]+/);
        context.reportProgress(
          runningProgress(logs, Date.now() - startedAt, TYPICAL_RENDER_MS),
          `Generating with ${model.name}`,
        );
      }
      await options.webhooks.wait(id, options.pollIntervalMs, signal);
    }
  }

  return {
    id: model.id,
    async render(job, context) {
      let id = job.providerTaskId;
      try {
        const prediction = await withDeadline(context.signal, options.timeoutMs, async (signal) => {
          if (!id) {
            const body = {
              input: buildInput(model.family, job),
              ...(options.webhookUrl
                ? { webhook: options.webhookUrl, webhook_events_filter: ['start', 'logs', 'completed'] }
                : {}),
            };
            const created = read(await call('POST', `v1/models/${model.slug}/predictions`, signal, body));
            id = created.id;
            // Saved before waiting: a retried job resumes this prediction instead of paying for another.
            await context.saveProviderTask(id);
            context.reportProgress(QUEUED_PROGRESS, 'Starting at Replicate');
          }
          return waitUntilDone(id, context, signal);
        });
        const url = outputUrl(prediction);
        context.reportProgress(90, 'Downloading video');
        const filePath = path.join(context.workDir, 'replicate-output.mp4');
        // Output files are served from Replicate's file host; the token is not sent there.
        await downloadToFile(url, {}, filePath, context.signal);
        return { filePath };
      } catch (error) {
        if (id && shouldCancelTask(job, context.signal, error)) {
          await call(
            'POST',
            `v1/predictions/${encodeURIComponent(id)}/cancel`,
            AbortSignal.timeout(CANCEL_TIMEOUT_MS),
          ).catch(() => undefined);
        }
        throw error;
      }
    },
  };
}

function outputUrl(prediction: Prediction): string {
  if (prediction.status === 'succeeded') {
    const output = prediction.output;
    const url =
      typeof output === 'string' ? output : Array.isArray(output) && typeof output[0] === 'string' ? output[0] : null;
    if (url) return url;
    throw new EngineError('Replicate finished without a video.', false, describeBody(prediction));
  }
  if (prediction.status === 'canceled' || prediction.status === 'aborted')
    throw new EngineError('The video was canceled at Replicate.', false);
  const reason =
    typeof prediction.error === 'string'
      ? prediction.error.trim()
      : prediction.error
        ? describeBody(prediction.error)
        : '';
  if (isPolicyText(reason))
    throw new EngineError(`Replicate refused this video: ${reason}`, false, undefined, false, 'policy');
  throw new EngineError(
    reason ? `Replicate could not make this video: ${reason}` : 'Replicate could not make this video.',
    false,
  );
}

function buildInput(family: ReplicateFamily, job: EngineJob): Record<string, unknown> {
  const aspect = job.settings.aspectRatio ?? '16:9';
  const negative = job.settings.negativePrompt?.trim() ? { negative_prompt: job.settings.negativePrompt } : {};
  const seed = job.settings.seed === undefined ? {} : { seed: job.settings.seed };
  if (family === 'veo') {
    // Sent explicitly: the model's own defaults (sound on, 8 s, 1080p) would render, and bill, what the user did not ask for.
    return {
      prompt: job.prompt,
      aspect_ratio: aspect === '1:1' ? '16:9' : aspect,
      duration: job.duration,
      resolution: job.settings.resolution === '1080p' ? '1080p' : '720p',
      generate_audio: job.hasAudio,
      ...negative,
      ...seed,
      ...(job.inputs.image ? { image: job.inputs.image.url } : {}),
    };
  }
  return {
    prompt: job.prompt,
    duration: job.duration,
    aspect_ratio: aspect,
    ...negative,
    ...(job.inputs.image ? { start_image: job.inputs.image.url } : {}),
  };
}
