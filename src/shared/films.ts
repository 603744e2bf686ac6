import { z } from 'zod';
import { ASPECT_RATIOS, RESOLUTIONS } from './models';
import { singleLine } from './text';

// A film (issue 47): finished videos of the user's, trimmed, and title cards, joined in order into
// one new video, made free of charge (its shots were paid for). POST /api/films takes it.

export const FILM_TRANSITIONS = ['cut', 'crossfade', 'fade-black'] as const;
export type FilmTransitionKind = (typeof FILM_TRANSITIONS)[number];

export const FILM_TRANSITION_LABELS: Record<FilmTransitionKind, string> = {
  cut: 'Cut',
  crossfade: 'Crossfade',
  'fade-black': 'Fade through black',
};

/** The most parts (shots and cards) one film joins. */
export const MAX_FILM_PARTS = 30;
/** The longest film, in seconds (ten minutes). */
export const MAX_FILM_SECONDS = 600;
/** A title card's length, in seconds. */
export const FILM_CARD_SECONDS = { min: 1, max: 10, default: 3 } as const;
/** A crossfade's or a fade through black's length, in seconds. */
export const FILM_TRANSITION_SECONDS = { min: 0.1, max: 2, default: 0.5 } as const;
/** Every film is made at this frame rate, whatever its shots' own. */
export const FILM_FPS = 24;
/** The model id a film's record carries: not a model of the catalogue, the server's own assembly. */
export const FILM_MODEL_ID = 'film';

const words = (max: number) => z.string().trim().min(1).max(max).check(singleLine);

/** One of the user's finished videos, or the part of it from `start` to `end` (seconds). */
export const filmShotSchema = z.strictObject({
  video: z.uuid('must be the id of one of your videos'),
  start: z.number().min(0).max(MAX_FILM_SECONDS).optional(),
  end: z.number().positive().max(MAX_FILM_SECONDS).optional(),
  /** Words along the bottom of the shot. */
  caption: words(200).optional(),
});

/** A title card: words over a plain colour. */
export const filmCardSchema = z.strictObject({
  card: z.strictObject({
    text: words(200),
    seconds: z.number().min(FILM_CARD_SECONDS.min).max(FILM_CARD_SECONDS.max).default(FILM_CARD_SECONDS.default),
    background: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour as #rrggbb')
      .default('#111827'),
  }),
});

export const createFilmSchema = z.strictObject({
  /** The film's name, shown where its description would be. */
  title: words(200).optional(),
  aspectRatio: z.enum(ASPECT_RATIOS).default('16:9'),
  resolution: z.enum(RESOLUTIONS).default('720p'),
  parts: z
    .array(z.union([filmShotSchema, filmCardSchema]))
    .min(1)
    .max(MAX_FILM_PARTS),
  /** How each part meets the next (one fewer than the parts); all cuts when left out. */
  transitions: z
    .array(z.enum(FILM_TRANSITIONS))
    .max(MAX_FILM_PARTS - 1)
    .optional(),
  transitionSeconds: z
    .number()
    .min(FILM_TRANSITION_SECONDS.min)
    .max(FILM_TRANSITION_SECONDS.max)
    .default(FILM_TRANSITION_SECONDS.default),
  /** An uploaded music or voice track under the whole film (its objectPath), or none. */
  bedFile: z.string().trim().min(1).max(1000).check(singleLine).optional(),
});
export type CreateFilmBody = z.output<typeof createFilmSchema>;
export type CreateFilmRequest = z.input<typeof createFilmSchema>;
