import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { flag, optionalText } from './config-fields';
import { DEFAULT_TERMS } from './moderation/default-terms';
import type { ModerationApiConfig } from './moderation/moderation-api';
import type { CategoryActions, TermLists } from './moderation/term-moderator';

/**
 * Screening what may be made (issue 43): the local prompt moderator's lists and what each adult
 * category's match does. config.ts spreads `moderationEnv` into its schema and calls
 * readModerationConfig; nothing here reads process.env.
 */
const action = (fallback: 'block' | 'review' | 'allow') =>
  z
    .string()
    .optional()
    .transform((v) => v?.trim() || fallback)
    .pipe(z.enum(['block', 'review', 'allow'], { error: 'must be block, review or allow' }));

const score = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((v) => Number(v?.trim() || fallback))
    .pipe(z.number({ error: 'must be a number from 0 to 1' }).min(0).max(1));

export const moderationEnv = {
  /** A JSON file of term lists replacing the defaults for the categories it names. */
  MODERATION_TERMS_FILE: optionalText,
  /** What a description with sexual content gets: refused (block), held for review, or made (allow). */
  MODERATION_SEXUAL: action('block'),
  /** The same for graphic violence. */
  MODERATION_VIOLENCE: action('block'),
  /** The image classifier's score (0 to 1) of explicit content at which a picture or video is refused. */
  MODERATION_IMAGE_BLOCK_SCORE: score('0.85'),
  /** The score at which it is flagged for review instead. */
  MODERATION_IMAGE_REVIEW_SCORE: score('0.5'),
  /** An OpenAI-compatible moderation service (its base URL, e.g. https://api.openai.com/v1); unset: the local lists only. */
  MODERATION_API_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
  MODERATION_API_KEY: optionalText,
  MODERATION_API_MODEL: optionalText.transform((v) => v ?? 'omni-moderation-latest'),
  /** The service's score at which a description is refused (or handled as MODERATION_* says), and flagged. */
  MODERATION_API_BLOCK_SCORE: score('0.8'),
  MODERATION_API_REVIEW_SCORE: score('0.4'),
  /** Whether a video refused by the content policy after it was rendered gives its charge back. */
  REFUND_BLOCKED_GENERATIONS: flag('true'),
  /** Reports one address (and one account) may send per hour (issue 44). */
  SAFETY_REPORTS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(5),
  /** Warnings that suspend an account (0: a warning never suspends). */
  SAFETY_STRIKES_TO_SUSPEND: z.coerce.number().int().min(0).max(100).default(2),
  /** What a picture or video matching a taken-down video's frames gets: refused (block) or held (review). */
  SAFETY_MATCH_ACTION: z
    .string()
    .optional()
    .transform((v) => v?.trim() || 'block')
    .pipe(z.enum(['block', 'review'], { error: 'must be block or review' })),
  /** Days decided reports are kept for the audit before they are deleted. */
  SAFETY_RECORDS_DAYS: z.coerce.number().int().min(1).max(3650).default(730),
};

type ModerationEnv = z.output<z.ZodObject<typeof moderationEnv>>;

export interface ModerationConfig {
  terms: TermLists;
  actions: CategoryActions;
  /** The image classifier's thresholds (explicit content's score): refuse at `block`, flag at `review`. */
  imageScores: { block: number; review: number };
  refundBlocked: boolean;
  /** The operator's moderation service for descriptions, beside the local lists; null: none. */
  api: ModerationApiConfig | null;
  /** Reports and takedown (issue 44). */
  safety: {
    reportsPerHour: number;
    strikesToSuspend: number;
    matchAction: 'block' | 'review';
    recordsDays: number;
  };
}

const termList = z.array(z.string().min(1).max(200)).max(5000);
const categoryTerms = z.strictObject({ block: termList, review: termList.optional(), allow: termList.optional() });
/** The file's shape: any of the categories, each with its lists (minors also `context`). */
const termsFileSchema = z.strictObject({
  minors: categoryTerms.extend({ context: termList }).optional(),
  sexual: categoryTerms.optional(),
  violence: categoryTerms.optional(),
});

export function readModerationConfig(env: ModerationEnv): ModerationConfig {
  return {
    terms: env.MODERATION_TERMS_FILE ? readTermsFile(env.MODERATION_TERMS_FILE) : DEFAULT_TERMS,
    actions: { sexual: env.MODERATION_SEXUAL, violence: env.MODERATION_VIOLENCE },
    imageScores: { block: env.MODERATION_IMAGE_BLOCK_SCORE, review: env.MODERATION_IMAGE_REVIEW_SCORE },
    refundBlocked: env.REFUND_BLOCKED_GENERATIONS,
    safety: {
      reportsPerHour: env.SAFETY_REPORTS_PER_HOUR,
      strikesToSuspend: env.SAFETY_STRIKES_TO_SUSPEND,
      matchAction: env.SAFETY_MATCH_ACTION,
      recordsDays: env.SAFETY_RECORDS_DAYS,
    },
    api: env.MODERATION_API_URL
      ? {
          baseUrl: env.MODERATION_API_URL,
          apiKey: env.MODERATION_API_KEY,
          model: env.MODERATION_API_MODEL,
          scores: { block: env.MODERATION_API_BLOCK_SCORE, review: env.MODERATION_API_REVIEW_SCORE },
        }
      : null,
  };
}

/** The operator's lists over the defaults; a file that is not such lists stops the start with the reason. */
function readTermsFile(file: string): TermLists {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`MODERATION_TERMS_FILE: cannot read ${file} as JSON (${(error as Error).message})`);
  }
  const checked = termsFileSchema.safeParse(parsed);
  if (!checked.success)
    throw new Error(
      `MODERATION_TERMS_FILE: ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  for (const entry of Object.values(checked.data).flatMap((lists) => Object.values(lists ?? {}).flat())) {
    const pattern = /^\/(.+)\/$/.exec(entry);
    if (!pattern) continue;
    try {
      new RegExp(pattern[1] ?? '', 'u');
    } catch (error) {
      throw new Error(`MODERATION_TERMS_FILE: ${entry} is not a regular expression (${(error as Error).message})`);
    }
  }
  return { ...DEFAULT_TERMS, ...checked.data };
}
