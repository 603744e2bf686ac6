import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectJson, type TestApp } from '../../../tests/support/app';
import { type FakeFal, startFakeFal } from '../../../tests/support/fake-fal';
import { type FakeReplicate, startFakeReplicate } from '../../../tests/support/fake-replicate';
import { makeMediaFixtures, probeBytes } from '../../../tests/support/media';
import { followJob, payingUser, startGeneration, startPipeline } from '../../../tests/support/pipeline';
import type { GenerationRecord } from '../../shared/generations';

// The shape, length and camera controls through the whole pipeline: the exact input each provider's
// stand-in (fal.ai's queue, Replicate's predictions: tests/support) receives, in that provider's own
// field names (fal model pages' input schemas; Replicate model schemas), and the local engine's
// output measured with ffprobe.

let fal: FakeFal;
let replicate: FakeReplicate;
let t: TestApp;
let stop: () => Promise<void>;

beforeAll(async () => {
  const { video } = await makeMediaFixtures();
  fal = await startFakeFal(video);
  fal.stepMs = 30;
  replicate = await startFakeReplicate(video);
  replicate.stepMs = 30;
  ({ t, stop } = await startPipeline({
    FAL_KEY: fal.key,
    FAL_BASE_URL: fal.baseUrl,
    REPLICATE_API_TOKEN: replicate.token,
    REPLICATE_BASE_URL: replicate.baseUrl,
    PUBLIC_URL: 'https://reelsmith.example',
  }));
}, 120_000);
afterAll(async () => {
  await stop();
  await fal.close();
  await replicate.close();
});

const camera = (sentence: string) => `A cat surfing\n\nCamera: ${sentence}`;

describe('the controls reach each provider in its own field names', () => {
  it.each([
    [
      'fal-veo3',
      { aspectRatio: '9:16', resolution: '1080p', duration: 6, cameraMove: 'pan-left', jsonPrompt: '{"seed": 9}' },
      'fal-ai/veo3',
      {
        prompt: camera('The camera pans slowly to the left.'),
        aspect_ratio: '9:16',
        duration: '6s',
        resolution: '1080p',
        generate_audio: false,
        seed: 9,
      },
    ],
    [
      'fal-kling-2.1',
      { aspectRatio: '1:1', duration: 10, cameraMove: 'crane' },
      'fal-ai/kling-video/v2.1/master/text-to-video',
      {
        prompt: camera('Crane shot: the camera rises smoothly upward.'),
        duration: '10',
        aspect_ratio: '1:1',
        cfg_scale: 0.5,
      },
    ],
    [
      'fal-wan-2.2',
      { aspectRatio: '9:16', duration: 5, cameraMove: 'dolly-in' },
      'fal-ai/wan/v2.2-5b/text-to-video',
      {
        prompt: camera('Slow dolly in: the camera moves forward toward the subject.'),
        aspect_ratio: '9:16',
        resolution: '720p',
        num_frames: 121,
        frames_per_second: 24,
      },
    ],
  ] as const)('%s gets %j as its documented input', async (model, controls, endpoint, input) => {
    const { cookie } = await payingUser(t);
    const record = await startGeneration(t, cookie, { model, ...controls });
    const { row } = await followJob(t, record.id);
    expect(row?.status).toBe('completed');
    // The saved task names the request id (in the JSON of its status, result and cancel URLs).
    const submitted = fal.requests.find((r) => row?.providerTaskId?.includes(r.id));
    expect(submitted?.endpoint).toBe(endpoint);
    expect(submitted?.input).toEqual(input);
  });

  it('replicate-kling-2.1 gets the shape, the length and the camera move in its prediction input', async () => {
    const { cookie } = await payingUser(t);
    const record = await startGeneration(t, cookie, {
      model: 'replicate-kling-2.1',
      aspectRatio: '9:16',
      duration: 5,
      cameraMove: 'handheld',
    });
    const { row } = await followJob(t, record.id);
    expect(row?.status).toBe('completed');
    const prediction = replicate.predictions.find((p) => p.id === row?.providerTaskId);
    expect(prediction?.input).toEqual({
      prompt: camera('Handheld camera with a slight natural shake.'),
      duration: 5,
      aspect_ratio: '9:16',
    });
  });
});

describe('the local engine through the pipeline', () => {
  it('renders 1:1 at 480p for 3 s with a tilt, as asked', async () => {
    const { cookie } = await payingUser(t);
    const record = await startGeneration(t, cookie, {
      model: 'local',
      aspectRatio: '1:1',
      resolution: '480p',
      duration: 3,
      cameraMove: 'tilt-up',
    });
    const { row } = await followJob(t, record.id, 120_000);
    expect(row?.status).toBe('completed');
    const [listed] = (await injectJson(t.app, 'GET', '/api/video-generation', { cookie })).json<GenerationRecord[]>();
    const output = await t.app.inject({ method: 'GET', url: listed?.outputVideoUrl ?? '' });
    const info = await probeBytes(output.rawPayload);
    expect(info.video).toMatchObject({ width: 480, height: 480 });
    expect(Math.abs(info.durationSeconds - 3)).toBeLessThanOrEqual(0.1);
  }, 180_000);
});
