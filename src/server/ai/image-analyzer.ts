import { z } from 'zod';
import { type ImageAnalysis, imageAnalysisSchema, MAX_SHOWN_OBJECTS } from '../../shared/ai';
import type { Config } from '../config';
import { generateJson } from './gemini-text';
import { type ImageStats, lightingFor, measureImage, moodFor } from './image-stats';

export interface DetectedObject {
  name: string;
  /** Percent, 0-100. */
  confidence: number;
}
/** A real object detector, or one that says why it cannot detect (never an invented list). */
export type ObjectDetector = (image: Buffer) => Promise<{ objects: DetectedObject[]; note: string | null }>;

export const noDetector: ObjectDetector = async () => ({
  objects: [],
  note: 'Object detection is not available on this server, so no objects are listed.',
});

const listOf = (names: string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
const withArticle = (name: string) => (/^[aeiou]/i.test(name) ? `an ${name}` : `a ${name}`);

function orientation(stats: ImageStats): string {
  if (stats.width > stats.height * 1.15) return 'landscape';
  if (stats.height > stats.width * 1.15) return 'portrait';
  return 'square';
}

/** The local analysis: statistics for light and mood, the detector for objects, words built from both. */
export async function analyzeLocally(image: Buffer, detect: ObjectDetector): Promise<ImageAnalysis> {
  const [stats, detected] = await Promise.all([measureImage(image), detect(image)]);
  const lighting = lightingFor(stats);
  const mood = moodFor(stats);
  const objects = detected.objects.slice(0, MAX_SHOWN_OBJECTS);
  const subjects = objects.slice(0, 3).map((o) => withArticle(o.name));
  const brightness = stats.brightness < 60 ? 'dark' : stats.brightness > 185 ? 'bright' : 'evenly lit';
  const showing = subjects.length > 0 ? ` showing ${listOf(subjects)}` : '';
  const sceneDescription = `A ${brightness} ${orientation(stats)} image${showing}, dominated by ${stats.dominantColour} tones, in ${lighting.type}.`;
  const subject = subjects.length > 0 ? listOf(subjects) : `a scene in ${stats.dominantColour} tones`;
  const suggestedPrompt = `${capitalise(subject)} in ${lighting.type}, ${mood} mood, slow cinematic push-in, subtle natural motion, shallow depth of field.`;
  return { sceneDescription, objects, lighting, style: { mood }, suggestedPrompt, detectorNote: objects.length === 0 ? detected.note : null };
}

const geminiAnalysisSchema = imageAnalysisSchema.omit({ detectorNote: true }).extend({
  objects: z.array(z.object({ name: z.string(), confidence: z.number() })),
});

const ANALYSIS_JSON_SCHEMA = {
  type: 'object',
  properties: {
    sceneDescription: { type: 'string' },
    objects: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, confidence: { type: 'number' } }, required: ['name', 'confidence'] },
    },
    lighting: { type: 'object', properties: { type: { type: 'string' } }, required: ['type'] },
    style: { type: 'object', properties: { mood: { type: 'string' } }, required: ['mood'] },
    suggestedPrompt: { type: 'string' },
  },
  required: ['sceneDescription', 'objects', 'lighting', 'style', 'suggestedPrompt'],
};

/** Gemini vision when a key is set, the local analysis otherwise. */
export async function analyzeImage(
  config: Pick<Config, 'gemini'>,
  image: { bytes: Buffer; contentType: string },
  detect: ObjectDetector,
  retryDelayMs?: number,
): Promise<ImageAnalysis> {
  if (!config.gemini) return analyzeLocally(image.bytes, detect);
  const answer = await generateJson({
    apiKey: config.gemini.apiKey,
    baseUrl: config.gemini.baseUrl,
    model: config.gemini.textModel,
    systemInstruction:
      'You analyse a still image for a video generator. Describe only what is visible. Confidence is a percentage from 0 to 100. The suggested prompt describes a short video that starts from this image.',
    parts: [{ text: 'Analyse this image.' }, { inlineData: { mimeType: image.contentType, data: image.bytes.toString('base64') } }],
    responseJsonSchema: ANALYSIS_JSON_SCHEMA,
    schema: geminiAnalysisSchema,
    retryDelayMs,
  });
  return { ...answer, objects: answer.objects.slice(0, MAX_SHOWN_OBJECTS), detectorNote: null };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
