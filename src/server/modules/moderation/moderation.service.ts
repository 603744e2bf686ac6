import {
  CONTENT_POLICY_CODE,
  MODERATION_CATEGORIES,
  type ModerationDecision,
  promptRefusal,
  strictest,
} from '../../../shared/moderation';
import { buffer } from 'node:stream/consumers';
import { detectFaces } from '../../ai/object-detector';
import type { Config } from '../../config';
import type { ServiceContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { type CategoryFinding, createTermModerator, type TermModerator } from '../../moderation/term-moderator';

/** What screening a text decided, and what each moderator found. */
export interface Screening {
  decision: ModerationDecision;
  findings: CategoryFinding[];
}

const moderators = new WeakMap<Config['moderation'], TermModerator>();

function termModerator(ctx: ServiceContext): TermModerator {
  let found = moderators.get(ctx.config.moderation);
  if (!found) {
    found = createTermModerator(ctx.config.moderation.terms, ctx.config.moderation.actions);
    moderators.set(ctx.config.moderation, found);
  }
  return found;
}

/** Screens texts a user wrote (or an AI wrote for them) with the local moderator; blank texts pass. */
export function screenTexts(ctx: ServiceContext, texts: readonly (string | null | undefined)[]): Screening {
  const moderator = termModerator(ctx);
  const findings = texts.flatMap((text) => (text?.trim() ? moderator.screen(text) : []));
  return { decision: strictest(findings.map((finding) => finding.decision)), findings };
}

/**
 * Refuses, before anything is charged or stored, a description the content policy blocks: 422
 * `content_policy` with the rule it breaks (never the score or the term). Answers the screening
 * otherwise; a description held for review is logged for the operator.
 */
export function refuseBlockedPrompt(
  ctx: ServiceContext,
  texts: readonly (string | null | undefined)[],
  log?: { warn: (object: object, message: string) => void },
): Screening {
  const screening = screenTexts(ctx, texts);
  if (screening.decision === 'block') {
    const blocked = screening.findings.filter((finding) => finding.decision === 'block');
    // The most serious rule first: minors, then sexual content, then violence.
    const category =
      MODERATION_CATEGORIES.find((name) => blocked.some((finding) => finding.category === name)) ?? 'sexual';
    log?.warn(
      { moderation: blocked.map(({ category: c, matched }) => ({ category: c, matched })) },
      'description refused',
    );
    throw new AppError(422, CONTENT_POLICY_CODE, promptRefusal(category));
  }
  if (screening.decision === 'review')
    log?.warn(
      { moderation: screening.findings.map(({ category, matched }) => ({ category, matched })) },
      'description flagged for review',
    );
  return screening;
}

/**
 * A face counts when FaceBoxes is at least this sure: the astronaut of the shared fixtures scores
 * 0.98, the latte art of the coffee 0.59 and the cat 0.16.
 */
export const FACE_MIN_SCORE = 0.75;

/**
 * How many faces a stored image shows, by the local face detector (in its worker thread, about 0.1 s);
 * null when the detector cannot run or the image cannot be decoded (then the uploader is asked for
 * consent all the same).
 */
export async function countFaces(ctx: ServiceContext, objectKey: string): Promise<number | null> {
  const bytes = await buffer(await ctx.storage.read(objectKey));
  const found = await detectFaces(bytes).catch(() => null);
  if (!found || found.note !== null) return null;
  return found.faces.filter((face) => face.score >= FACE_MIN_SCORE).length;
}
