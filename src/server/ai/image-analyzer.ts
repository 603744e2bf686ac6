import { z } from 'zod';
import { type ImageAnalysis, MAX_SHOWN_OBJECTS } from '../../shared/ai';
import type { Config } from '../config';
import { badRequest } from '../lib/app-error';
import type { AiCallOptions } from './ai-request';
import { type ImageStats, lightingFor, measureImage, moodFor } from './image-stats';
import type { Detection } from './object-detector';
import { textModelOf } from './text-model';

/** A real object detector (`detectObjects` of ./object-detector), or one that says why it cannot detect: never an invented list. */
export type ObjectDetector = (image: Buffer) => Promise<Detection>;

export const noDetector: ObjectDetector = async () => ({
  objects: [],
  note: 'Object detection is not available on this server, so no objects are listed.',
});

export interface AnalysisOptions extends AiCallOptions {
  /** False: the answer's suggestedPrompt is empty. */
  generatePrompt?: boolean;
  /** A hint for the model ('comprehensive' unless set); the local analysis always does everything. */
  analysisType?: string;
}

/** The raw size that stays under Gemini's ~20 MB request (and OpenAI's 20 MB image) once base64-encoded. */
const MAX_INLINE_BYTES = 14 * 1024 * 1024;

const listOf = (names: string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
const withArticle = (name: string) => (/^[aeiou]/i.test(name) ? `an ${name}` : `a ${name}`);
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function orientationOf(stats: ImageStats): 'landscape' | 'portrait' | 'square' {
  if (stats.width > stats.height * 1.15) return 'landscape';
  if (stats.height > stats.width * 1.15) return 'portrait';
  return 'square';
}

const GENTLE_MOVES = {
  landscape: 'slow cinematic pan across the frame',
  portrait: 'gentle upward tilt',
  square: 'slow cinematic push-in',
};

/** The local analysis: statistics for light and mood, the detector for objects, words built from both. */
export async function analyzeLocally(
  image: Buffer,
  detect: ObjectDetector,
  options: AnalysisOptions = {},
): Promise<ImageAnalysis> {
  const [stats, detected] = await Promise.all([
    measureImage(image).catch(() => {
      throw badRequest(
        'This image could not be read for analysis. Please try a PNG, JPEG or WebP image.',
        'unreadable_image',
      );
    }),
    // The detector reports its own failures as a note; this only guards against one that throws.
    detect(image).catch((): Detection => ({
      objects: [],
      note: 'Object detection failed on this image, so no objects are listed.',
    })),
  ]);
  const lighting = lightingFor(stats);
  const mood = moodFor(stats);
  const objects = detected.objects.slice(0, MAX_SHOWN_OBJECTS);
  const subjects = objects.slice(0, 3).map((o) => withArticle(o.name));
  const brightness =
    stats.brightness < 60 ? 'dark' : stats.brightness < 100 ? 'dim' : stats.brightness > 170 ? 'bright' : 'evenly lit';
  const temperature = stats.warmth > 25 ? ', warm' : stats.warmth < -25 ? ', cool' : '';
  const orientation = orientationOf(stats);
  const showing = subjects.length > 0 ? ` showing ${listOf(subjects)}` : '';
  const sceneDescription = `${capitalise(withArticle(`${brightness}${temperature} ${orientation}`))} image${showing}, dominated by ${stats.dominantColour} tones.`;
  const subject = subjects.length > 0 ? listOf(subjects) : `a scene dominated by ${stats.dominantColour} tones`;
  const suggestedPrompt =
    options.generatePrompt === false
      ? ''
      : `${capitalise(subject)} in ${lighting.type}, ${mood} atmosphere, ${GENTLE_MOVES[orientation]}, subtle natural motion, shallow depth of field.`;
  return { sceneDescription, objects, lighting, style: { mood }, suggestedPrompt, detectorNote: detected.note };
}

const percent = z.number().transform((n) => Math.round(Math.min(100, Math.max(0, n))));

/** What the model must send, tidied: names trimmed, fractions read as percentages, most confident first, at most 6. */
const analysisAnswerSchema = z.object({
  sceneDescription: z.string().trim().min(1),
  objects: z.array(z.object({ name: z.string().trim(), confidence: z.number() })).transform((list) => {
    const fractions = list.length > 0 && list.every((o) => o.confidence <= 1);
    return list
      .filter((o) => o.name.length > 0)
      .map((o) => ({ name: o.name, confidence: percent.parse(fractions ? o.confidence * 100 : o.confidence) }))
      .sort((a, b) => b.confidence - a.confidence)
      .slice(0, MAX_SHOWN_OBJECTS);
  }),
  lighting: z.object({ type: z.string().trim().min(1) }),
  style: z.object({ mood: z.string().trim().min(1) }),
  suggestedPrompt: z.string().trim(),
});

const ANALYSIS_JSON_SCHEMA = {
  type: 'object',
  properties: {
    sceneDescription: { type: 'string', description: 'One or two sentences on what the image shows.' },
    objects: {
      type: 'array',
      maxItems: MAX_SHOWN_OBJECTS,
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, confidence: { type: 'integer', minimum: 0, maximum: 100 } },
        required: ['name', 'confidence'],
      },
    },
    lighting: { type: 'object', properties: { type: { type: 'string' } }, required: ['type'] },
    style: { type: 'object', properties: { mood: { type: 'string' } }, required: ['mood'] },
    suggestedPrompt: { type: 'string' },
  },
  required: ['sceneDescription', 'objects', 'lighting', 'style', 'suggestedPrompt'],
};

const SYSTEM_INSTRUCTION = [
  'You analyse a still image for an AI video generator. Describe only what is visible; never guess at what is not.',
  `List at most ${MAX_SHOWN_OBJECTS} clearly visible objects, each with a confidence percentage from 0 to 100.`,
  'Lighting type is a short phrase (for example "soft window light"); mood is one or two words.',
].join(' ');

/**
 * The configured model's vision (an OpenAI-compatible server, or Gemini), the local analysis
 * without one. Images the model cannot take inline (GIF, AVIF, TIFF... or over ~14 MB) are
 * analysed locally even then, rather than refused.
 */
export async function analyzeImage(
  config: Pick<Config, 'gemini' | 'llm'>,
  image: { bytes: Buffer; contentType: string },
  detect: ObjectDetector,
  options: AnalysisOptions = {},
): Promise<ImageAnalysis> {
  const model = textModelOf(config);
  if (!model || !model.imageTypes.has(image.contentType) || image.bytes.length > MAX_INLINE_BYTES) {
    return analyzeLocally(image.bytes, detect, options);
  }
  const wantsPrompt = options.generatePrompt !== false;
  const task = wantsPrompt
    ? 'The suggested prompt describes a short video that starts from this image: subject, a gentle camera move, lighting and mood.'
    : 'Leave the suggested prompt empty.';
  const answer = await model.askJson({
    name: 'image_analysis',
    systemInstruction: SYSTEM_INSTRUCTION,
    parts: [
      { text: `Analyse this image (${options.analysisType ?? 'comprehensive'} analysis). ${task}` },
      { inlineData: { mimeType: image.contentType, data: image.bytes.toString('base64') } },
    ],
    responseJsonSchema: ANALYSIS_JSON_SCHEMA,
    schema: analysisAnswerSchema,
    retryDelayMs: options.retryDelayMs,
    signal: options.signal,
  });
  return { ...answer, suggestedPrompt: wantsPrompt ? answer.suggestedPrompt : '', detectorNote: null };
}
