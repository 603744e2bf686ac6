import { z } from 'zod';
import { FILM_CARD_SECONDS, FILM_TRANSITION_SECONDS, FILM_TRANSITIONS } from './films';
import {
  DEFAULT_GENERATION_DURATION,
  generationRecordSchema,
  MAX_PROMPT_LENGTH,
  MAX_REFERENCE_IMAGES,
} from './generations';
import { ASPECT_RATIOS, CAMERA_MOVES, type ModelInfo, modelIdSchema, RESOLUTIONS, renderedShape } from './models';
import { modelPriceOf, priceHundredths } from './money/pricing';
import { multiLine, singleLine } from './text';

// Storyboards (issue 47): a named board of ordered shots, each with its own description and the
// generator's controls, its takes (the renders made of it) and the chosen one; exported into one film.

/** The most shots one board holds (a film joins at most 30 parts: the shots and a title card). */
export const MAX_SHOTS = 20;
/** The most boards one user keeps. */
export const MAX_STORYBOARDS = 100;
export const MAX_STORYBOARD_NAME_LENGTH = 100;
export const UNTITLED_STORYBOARD = 'Untitled storyboard';

const ref = z.string().trim().min(1).max(1000).check(singleLine);

/** One shot as the board stores it: what to render and how its take goes into the film. */
export const shotSchema = z.strictObject({
  /** Made by the client (crypto.randomUUID); its takes carry it. */
  id: z.uuid(),
  /** What happens in the shot (may stay empty while planning; a render needs it). */
  description: z
    .string()
    .max(MAX_PROMPT_LENGTH, `must be at most ${MAX_PROMPT_LENGTH} characters`)
    .check(multiLine)
    .default(''),
  /** The model (GET /api/models); absent: the server's default model. */
  model: modelIdSchema.nullish(),
  aspectRatio: z.enum(ASPECT_RATIOS).nullish(),
  resolution: z.enum(RESOLUTIONS).nullish(),
  cameraMove: z.enum(CAMERA_MOVES).nullish(),
  duration: z.number().int().min(1).max(60).default(DEFAULT_GENERATION_DURATION),
  hasAudio: z.boolean().default(false),
  /** Keyframes and references: uploads of the user's, as the generator sends them. */
  imageFile: ref.nullish(),
  endImageFile: ref.nullish(),
  referenceImageFiles: z
    .array(ref)
    .max(MAX_REFERENCE_IMAGES, `must have at most ${MAX_REFERENCE_IMAGES} images`)
    .default([]),
  /** A character of the user's library in this shot (as the shot's model keeps one). */
  characterId: z.uuid('must be the id of a character in your library').nullish(),
  /** Start from the last frame of the previous shot's chosen take (for continuity), instead of imageFile. */
  fromPrevious: z.boolean().default(false),
  /** The take the film uses; absent: the newest finished take. */
  chosenTakeId: z.uuid().nullish(),
  /** The part of the take the film uses, in seconds (absent: the whole take). */
  trimStart: z.number().min(0).max(60).nullish(),
  trimEnd: z.number().positive().max(60).nullish(),
  /** Words along the bottom of the shot in the film. */
  caption: z.string().trim().max(200).check(singleLine).nullish(),
  /** How this shot meets the next one in the film (the last shot's is not used). */
  transition: z.enum(FILM_TRANSITIONS).default('cut'),
});
export type Shot = z.output<typeof shotSchema>;
export type ShotInput = z.input<typeof shotSchema>;

/** A title card before the first shot: words over a plain colour. */
export const titleCardSchema = z.strictObject({
  text: z.string().trim().min(1).max(200).check(singleLine),
  seconds: z.number().min(FILM_CARD_SECONDS.min).max(FILM_CARD_SECONDS.max).default(FILM_CARD_SECONDS.default),
  background: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour as #rrggbb')
    .default('#111827'),
});

/** POST /api/storyboards and PUT /api/storyboards/:id: the whole board (a PUT replaces it). */
export const storyboardBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(MAX_STORYBOARD_NAME_LENGTH).check(singleLine).default(UNTITLED_STORYBOARD),
  shots: z
    .array(shotSchema)
    .max(MAX_SHOTS, `must have at most ${MAX_SHOTS} shots`)
    .default([])
    .refine((shots) => new Set(shots.map((shot) => shot.id)).size === shots.length, 'must not repeat a shot id'),
  /** The film's shape: shots of another shape are framed whole over a blurred fill. */
  aspectRatio: z.enum(ASPECT_RATIOS).default('16:9'),
  resolution: z.enum(RESOLUTIONS).default('720p'),
  titleCard: titleCardSchema.nullish(),
  transitionSeconds: z
    .number()
    .min(FILM_TRANSITION_SECONDS.min)
    .max(FILM_TRANSITION_SECONDS.max)
    .default(FILM_TRANSITION_SECONDS.default),
  /** An uploaded music or voice track under the whole film (its objectPath), or none. */
  bedFile: ref.nullish(),
  /**
   * The version the edit was made on (from the board as read): a PUT naming an older one is refused
   * (409 storyboard_changed) so an edit in another tab is not lost. Left out: the edit wins.
   */
  version: z.number().int().min(0).optional(),
});
export type StoryboardBody = z.output<typeof storyboardBodySchema>;
export type StoryboardRequest = z.input<typeof storyboardBodySchema>;

/** Where a shot stands: no take yet, a take rendering, or a finished take the film can use. */
export const SHOT_STATES = ['missing', 'rendering', 'ready'] as const;
export type ShotState = (typeof SHOT_STATES)[number];

export const storyboardShotSchema = shotSchema.extend({
  state: z.enum(SHOT_STATES),
  /** Renders of this shot, newest first (failed ones included, so the user sees why). */
  takes: z.array(generationRecordSchema),
  /** The take the film uses now: the chosen one, else the newest finished one; null when none is finished. */
  usedTakeId: z.uuid().nullable(),
});
export type StoryboardShot = z.infer<typeof storyboardShotSchema>;

export const storyboardSchema = storyboardBodySchema.omit({ shots: true, version: true }).extend({
  id: z.uuid(),
  version: z.number().int(),
  shots: z.array(storyboardShotSchema),
  /** Credits rendering every missing shot costs (the sum of their prices, each charged as it starts). */
  creditsToRender: z.number(),
  /** The films exported from this board, newest first. */
  films: z.array(generationRecordSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Storyboard = z.infer<typeof storyboardSchema>;

export const storyboardSummarySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  shots: z.number().int(),
  readyShots: z.number().int(),
  updatedAt: z.string(),
});
export const storyboardListSchema = z.object({ storyboards: z.array(storyboardSummarySchema) });
export type StoryboardSummary = z.infer<typeof storyboardSummarySchema>;

/** POST .../shots/:shotId/takes and POST .../render: the uploader's consent when an input shows a real person. */
export const renderShotsSchema = z.strictObject({ consentToLikeness: z.boolean().default(false) });

/** POST /api/storyboards/:id/render: what started, and each shot that could not start now, with why. */
export const renderedShotsSchema = z.object({
  started: z.array(z.object({ shotId: z.uuid(), take: generationRecordSchema })),
  waiting: z.array(z.object({ shotId: z.uuid(), reason: z.string() })),
});
export type RenderedShots = z.infer<typeof renderedShotsSchema>;

/**
 * What rendering a shot costs on its model, priced as the server charges it (the shape the model
 * renders, sound when on): the board's price before the click is the sum of these.
 */
export function shotPriceHundredths(
  model: Pick<
    ModelInfo,
    'aspectRatios' | 'resolutions' | 'durations' | 'credits' | 'economyCredits' | 'pricePer' | 'resolutionCredits'
  >,
  shot: Pick<Shot, 'aspectRatio' | 'resolution' | 'duration' | 'hasAudio'>,
): number {
  const shape = renderedShape(model, { ...shot, isEconomy: false });
  return priceHundredths(
    {
      hasAudio: shot.hasAudio,
      isEconomy: false,
      hasPromptEnhancement: false,
      hasImageAnalysis: false,
      duration: shape.duration,
      resolution: shape.resolution,
    },
    modelPriceOf(model),
  ).total;
}
