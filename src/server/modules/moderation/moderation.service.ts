import {
  CONTENT_POLICY_CODE,
  MODERATION_CATEGORIES,
  type ModerationDecision,
  pictureRefusal,
  type ReviewFinding,
  promptRefusal,
  videoRefusal,
  strictest,
} from '../../../shared/moderation';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { classifyPicture, detectFaces } from '../../ai/object-detector';
import type { Config } from '../../config';
import type { ServiceContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { sampleFrames } from '../../media/sample-frames';
import { moderateWithApi } from '../../moderation/moderation-api';
import { checkTakenDown, checkTakenDownPicture } from './taken-down.service';
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

/** Where screening notes what it refused or flagged (the request's logger). */
type ScreeningLog = { warn: (object: object, message: string) => void };

/**
 * The local lists' findings, and the operator's moderation service's when one is set. A service
 * that cannot answer in time leaves the decision to the lists (logged): the create path never waits
 * on it for more than MODERATION_API_TIMEOUT_MS.
 */
async function screenDescription(
  ctx: ServiceContext,
  texts: readonly (string | null | undefined)[],
  log?: ScreeningLog,
): Promise<Screening> {
  const local = screenTexts(ctx, texts);
  const api = ctx.config.moderation.api;
  const written = texts.filter((text): text is string => Boolean(text?.trim()));
  if (!api || written.length === 0) return local;
  try {
    const found = await moderateWithApi(api, ctx.config.moderation.actions, written);
    const findings = [...local.findings, ...found];
    return { decision: strictest(findings.map((finding) => finding.decision)), findings };
  } catch (error) {
    log?.warn({ err: error }, 'the moderation service did not answer; the local lists decided');
    return local;
  }
}

/**
 * Refuses, before anything is charged or stored, a description the content policy blocks: 422
 * `content_policy` with the rule it breaks (never the score or the term). Answers the screening
 * otherwise; a description held for review is logged for the operator.
 */
export async function refuseBlockedPrompt(
  ctx: ServiceContext,
  texts: readonly (string | null | undefined)[],
  log?: ScreeningLog,
): Promise<Screening> {
  const screening = await screenDescription(ctx, texts, log);
  const named = (findings: CategoryFinding[]) =>
    findings.map(({ category, matched, score }) => ({ category, matched, score }));
  if (screening.decision === 'block') {
    const blocked = screening.findings.filter((finding) => finding.decision === 'block');
    // The most serious rule first: minors, then sexual content, then violence.
    const category =
      MODERATION_CATEGORIES.find((name) => blocked.some((finding) => finding.category === name)) ?? 'sexual';
    log?.warn({ moderation: named(blocked) }, 'description refused');
    throw new AppError(422, CONTENT_POLICY_CODE, promptRefusal(category));
  }
  if (screening.decision === 'review')
    log?.warn({ moderation: named(screening.findings) }, 'description flagged for review');
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
  return facesIn(await buffer(await ctx.storage.read(objectKey)));
}

async function facesIn(image: Buffer): Promise<number | null> {
  const found = await detectFaces(image).catch(() => null);
  if (!found || found.note !== null) return null;
  return found.faces.filter((face) => face.score >= FACE_MIN_SCORE).length;
}

/**
 * What the local image classifier (NSFWJS's MobileNetV2) makes of a picture: explicit content is its
 * "porn" and "hentai" classes together, refused at MODERATION_IMAGE_BLOCK_SCORE (or what
 * MODERATION_SEXUAL says), flagged at MODERATION_IMAGE_REVIEW_SCORE (with "sexy" counted too). Null
 * when the classifier cannot run.
 */
export async function screenPicture(ctx: ServiceContext, image: Buffer): Promise<Screening | null> {
  const { scores } = await classifyPicture(image).catch(() => ({ scores: null }));
  if (!scores) return null;
  const { block, review } = ctx.config.moderation.imageScores;
  const action = ctx.config.moderation.actions.sexual;
  const explicit = scores.porn + scores.hentai;
  const findings: CategoryFinding[] = [];
  if (explicit >= block)
    findings.push({ category: 'sexual', score: explicit, decision: action, matched: 'image classifier' });
  else if (explicit + scores.sexy >= review)
    findings.push({
      category: 'sexual',
      score: explicit + scores.sexy,
      decision: action === 'allow' ? 'allow' : 'review',
      matched: 'image classifier',
    });
  return { decision: strictest(findings.map((finding) => finding.decision)), findings };
}

/** What an upload's screening found: the faces it shows (null: the detector could not run) and what it flagged for review. */
export interface UploadScreening {
  faces: number | null;
  /** Null: nothing flagged. A job made from a flagged upload waits for an administrator's decision. */
  flagged: ReviewFinding[] | null;
}

/** The findings of a screening that flagged for review, as kept (category and score); null when it did not. */
function flaggedOf(screening: Screening | null): ReviewFinding[] | null {
  if (screening?.decision !== 'review') return null;
  return screening.findings
    .filter((finding) => finding.decision === 'review')
    .map(({ category, score }) => ({ category, score }));
}

/**
 * Screens an uploaded picture as it completes: refused when the content policy blocks it (422
 * `content_policy` naming the rule; the caller removes the file). Answers the faces it shows and what
 * it flagged.
 */
export async function screenUploadedPicture(ctx: ServiceContext, objectKey: string): Promise<UploadScreening> {
  const image = await buffer(await ctx.storage.read(objectKey));
  const screening = await screenPicture(ctx, image);
  if (screening?.decision === 'block') throw new AppError(422, CONTENT_POLICY_CODE, pictureRefusal('sexual'));
  const match = await checkTakenDownPicture(ctx, image);
  return { faces: await facesIn(image), flagged: withMatch(flaggedOf(screening), match) };
}

/** Flagged findings with a taken-down match added (null: none of either). */
function withMatch(flagged: ReviewFinding[] | null, match: ReviewFinding | null): ReviewFinding[] | null {
  if (!match) return flagged;
  return [...(flagged ?? []), match];
}

/** A finished video the content policy stops: it is never stored, shown, downloaded or sent. */
export class ContentBlockedError extends Error {
  constructor(readonly findings: ReviewFinding[]) {
    super('the finished video was blocked by the content policy');
    this.name = 'ContentBlockedError';
  }
}

/** Frames looked at per finished video: one per 2.5 s, at least 3 and at most 8. */
export const framesToScreen = (durationSeconds: number) => Math.min(8, Math.max(3, Math.ceil(durationSeconds / 2.5)));

/**
 * Screens a rendered video before it is stored (the worker): frames spread over it go through the
 * image classifier and are compared with taken-down videos'; one that the policy blocks throws
 * ContentBlockedError. Answers what was flagged for review (null: nothing, or the classifier could
 * not run).
 */
export async function screenRenderedVideo(
  ctx: ServiceContext,
  video: string,
  options: { durationSeconds: number; signal: AbortSignal },
): Promise<ReviewFinding[] | null> {
  const frames = await sampleFrames(ctx.media, video, {
    durationSeconds: options.durationSeconds,
    count: framesToScreen(options.durationSeconds),
    dir: path.dirname(video),
    signal: options.signal,
  });
  const match = await checkTakenDown(ctx, frames, options.signal).catch((error: unknown) => {
    if (error instanceof AppError) throw new ContentBlockedError([{ category: 'taken_down', score: 1 }]);
    throw error;
  });
  let flagged: ReviewFinding[] | null = null;
  for (const frame of frames) {
    const screening = await screenPicture(ctx, await readFile(frame));
    if (!screening) break;
    if (screening.decision === 'block')
      throw new ContentBlockedError(screening.findings.map(({ category, score }) => ({ category, score })));
    flagged ??= flaggedOf(screening);
  }
  return withMatch(flagged, match);
}

/**
 * The most faces one of five frames spread over a video shows (lip-sync needs a mouth to move), or
 * null when the face detector cannot run here. The frames go in a folder of their own beside the video.
 */
export async function facesInVideo(ctx: ServiceContext, file: string, durationSeconds: number): Promise<number | null> {
  const dir = path.join(path.dirname(file), 'face-check');
  await mkdir(dir, { recursive: true });
  const frames = await sampleFrames(ctx.media, file, {
    durationSeconds,
    count: 5,
    dir,
    signal: AbortSignal.timeout(60_000),
  });
  let most = 0;
  for (const frame of frames) {
    const found = await facesIn(await readFile(frame));
    if (found === null) return null;
    most = Math.max(most, found);
  }
  return most;
}

/**
 * Screens an uploaded video as it is checked: frames spread over it (3) go through the image
 * classifier (a blocked one refuses the upload, 422 `content_policy`) and the face detector.
 * Answers the most faces one frame shows (null: the detector could not run) and what was flagged.
 */
export async function screenUploadedVideo(
  ctx: ServiceContext,
  file: string,
  durationSeconds: number,
): Promise<UploadScreening> {
  const frames = await sampleFrames(ctx.media, file, {
    durationSeconds,
    count: 3,
    dir: path.dirname(file),
    signal: AbortSignal.timeout(60_000),
  });
  let faces: number | null = 0;
  let flagged: ReviewFinding[] | null = null;
  for (const frame of frames) {
    const image = await readFile(frame);
    const screening = await screenPicture(ctx, image);
    if (screening?.decision === 'block') throw new AppError(422, CONTENT_POLICY_CODE, videoRefusal('sexual'));
    flagged ??= flaggedOf(screening);
    const found = await facesIn(image);
    faces = found === null || faces === null ? null : Math.max(faces, found);
  }
  const match = await checkTakenDown(ctx, frames, AbortSignal.timeout(60_000));
  return { faces, flagged: withMatch(flagged, match) };
}
