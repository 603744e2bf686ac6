import { randomUUID } from 'node:crypto';
import { MAX_UNFINISHED_JOBS } from '../../../shared/generations';
import {
  CONSENT_REQUIRED_CODE,
  CONSENT_REQUIRED_MESSAGE,
  LIKENESS_CONSENT_STATEMENT,
  LIKENESS_CONSENT_VERSION,
  HELD_FOR_REVIEW_STAGE,
  type LikenessConsent,
  type ReviewHold,
} from '../../../shared/moderation';
import { type ModelInfo, renderedShape } from '../../../shared/models';
import { draftChoice } from '../../../shared/drafts';
import { controlsRefusal, INPUT_WORDS, keyframesRefusal } from '../../../shared/model-fit';
import { priceHundredths } from '../../../shared/money/pricing';
import { effectiveSpendCap } from '../../../shared/money/spend-cap';
import { providerCostMicroUsd } from '../../engines/catalogue';
import type { UploadKind } from '../../../shared/uploads';
import type { ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import type { GenerationInput, GenerationInputs, GenerationRow } from '../../db/schema';
import { AppError, badRequest, conflict, notFound, tooManyRequests } from '../../lib/app-error';
import { publishGenerationChange, publishQueueMoved } from '../../bus/publish';
import type { GenerationExtension } from '../../db/schema';
import { characterModeOf, characterPromptLine } from '../../../shared/characters';
import { characterForRequest, characterUploads, discardCharacterUploads } from '../characters/characters.service';
import { payForGeneration, requireBatchAffordable } from '../money/charge-generation.service';
import { refuseBlockedPrompt } from '../moderation/moderation.service';
import { chargeableAiUse } from '../prompts/prompts.service';
import {
  discardUploads,
  type ResolvedUpload,
  resolveUploadRefs,
  uploadsShowingPeople,
} from '../uploads/uploads.service';
import type { NewGeneration } from './generation-request';
import * as repo from './generations.repository';
import { namedUploadIds } from './named-uploads';
import { checkBatchFits, variationSettings } from './variations';
import { userOutputsPrefix } from './lifecycle.service';
import { storedKeysOf } from './output-life';
import { withoutOperatorNames } from '../../lib/operator-wording';

export type { NewGeneration } from './generation-request';

// Presentation lives in generations.presenter.ts; other modules reach a module through its service.
export { presentCreated, presentRecord, presentRecords } from './generations.presenter';

/** Lists show at most this many generations (videos live 24 hours, so this is plenty). */
const LIST_LIMIT = 200;
export const RECENT_LIMIT = 3;

const INPUT_FIELDS: [UploadKind, 'imageFile' | 'videoFile' | 'audioFile'][] = [
  ['image', 'imageFile'],
  ['video', 'videoFile'],
  ['audio', 'audioFile'],
];

/**
 * The request's uploads (the inputs, the end frame and the reference images) as the user's own
 * finished uploads of the kind each field takes, read in one query.
 */
async function resolveInputs(ctx: ServiceContext, userId: string, body: NewGeneration) {
  const named: { field: string; kind: UploadKind; ref: string }[] = [
    ...INPUT_FIELDS.flatMap(([kind, field]) => (body[field] ? [{ field, kind, ref: body[field] }] : [])),
    ...(body.endImageFile ? [{ field: 'endImageFile', kind: 'image' as const, ref: body.endImageFile }] : []),
    ...body.referenceImageFiles.map((ref) => ({ field: 'referenceImageFiles', kind: 'image' as const, ref })),
  ];
  const uploads = await resolveUploadRefs(
    ctx,
    userId,
    named.map(({ ref }) => ref),
  );
  const inputs: GenerationInputs = {};
  let endImage: GenerationInput | null = null;
  const referenceImages: GenerationInput[] = [];
  for (const [index, { field, kind }] of named.entries()) {
    const upload = uploads[index];
    if (!upload) continue;
    if (upload.kind !== kind)
      throw badRequest(
        `${field} must be ${INPUT_WORDS[kind]}; that upload is ${INPUT_WORDS[upload.kind]}.`,
        'wrong_input_kind',
      );
    const input: GenerationInput = {
      uploadId: upload.id,
      objectKey: upload.objectKey,
      contentType: upload.contentType,
      expiresAt: upload.expiresAt.toISOString(),
    };
    if (field === 'endImageFile') endImage = input;
    else if (field === 'referenceImageFiles') referenceImages.push(input);
    else inputs[kind] = input;
  }
  return {
    inputs,
    endImage,
    referenceImages,
    consent: await likenessConsent(ctx, uploads, body.consentToLikeness),
    flagged: uploads.flatMap((upload) => upload.flagged ?? []),
  };
}

/**
 * Real people only with consent (issue 43): when an image input shows a face, the request must carry
 * the uploader's confirmation (422 consent_required before anything is charged); it is kept with the job.
 */
async function likenessConsent(
  ctx: ServiceContext,
  uploads: readonly ResolvedUpload[],
  confirmed: boolean,
): Promise<LikenessConsent | null> {
  const people = await uploadsShowingPeople(ctx, uploads);
  if (people.length === 0) return null;
  if (!confirmed) throw new AppError(422, CONSENT_REQUIRED_CODE, CONSENT_REQUIRED_MESSAGE);
  return {
    statement: LIKENESS_CONSENT_STATEMENT,
    version: LIKENESS_CONSENT_VERSION,
    confirmedAt: ctx.now().toISOString(),
    uploadIds: people,
  };
}

/** The model a request names (or the default), refused with a sentence when this server cannot run it. */
function modelFor(ctx: ServiceContext, requested: string | undefined): ModelInfo {
  const info = ctx.engines.info(requested ?? ctx.engines.defaultModel);
  if (!info)
    throw badRequest(
      `This server has no model called "${requested ?? ''}". Choose one of the models the generator lists.`,
      'unknown_model',
    );
  if (!info.available || !ctx.engines.get(info.id))
    throw badRequest(withoutOperatorNames(info.reason ?? 'This model is not available.'), 'model_unavailable');
  return info;
}

/**
 * Refuses inputs, shape, camera, keyframes and references the model cannot take, with the shared
 * rule's sentence (src/shared/model-fit.ts: the generator offers only what it passes).
 */
function checkModelTakes(model: ModelInfo, body: NewGeneration): void {
  const refusal = controlsRefusal(model, { ...body, ...body.settings }) ?? keyframesRefusal(model, body);
  if (refusal) throw badRequest(refusal.message, refusal.code);
}

/** Refuses a new job while the user has MAX_UNFINISHED_JOBS unfinished (read under their row lock). */
export function requireRoomForAnotherJob(unfinished: number): void {
  if (unfinished >= MAX_UNFINISHED_JOBS)
    throw tooManyRequests(
      `You already have ${MAX_UNFINISHED_JOBS} videos in progress. Wait for one to finish, then try again.`,
      30,
      'too_many_unfinished_jobs',
    );
}

/**
 * Starts a generation from a request in its one shape (generation-request.ts reads either wire
 * shape into it): checks what the schema cannot, prices on the server and, in one transaction
 * under the user's row lock, checks the unfinished-jobs limit, inserts the job and charges for it.
 * The worker picks the job up from the table. A character of the user's library goes in first:
 * copies of its pictures as reference images where the model keeps a character by them (issue 47),
 * else its name and description at the end of the prompt.
 */
export async function createGeneration(
  ctx: ServiceContext,
  userId: string,
  asked: NewGeneration,
  options: CreateOptions = {},
): Promise<CreatedGeneration> {
  const body = asked.draft ? asDraft(ctx, asked, options) : asked;
  if (!body.characterId) return startGeneration(ctx, userId, body, options);
  const character = await characterForRequest(ctx, userId, body.characterId);
  const models = [modelFor(ctx, body.model), ...(options.compareModel ? [ctx.engines.info(options.compareModel)] : [])];
  // Its pictures as reference images where every model of the request takes them beside the request's own.
  const byPictures = models.every(
    (model) =>
      model !== undefined &&
      characterModeOf(model) === 'references' &&
      model.referenceImages >= character.images.length + body.referenceImageFiles.length &&
      !(model.referencesAlone && (body.imageFile || body.endImageFile)),
  );
  if (!byPictures) {
    const prompt = `${body.prompt}\n\n${characterPromptLine(character)}`;
    return startGeneration(ctx, userId, { ...body, prompt }, options);
  }
  const copies = await characterUploads(ctx, userId, character);
  try {
    return await startGeneration(
      ctx,
      userId,
      {
        ...body,
        referenceImageFiles: [...copies, ...body.referenceImageFiles],
        // Its pictures of a real person were consented to when the character was made.
        consentToLikeness: body.consentToLikeness || character.consent !== null,
      },
      options,
    );
  } catch (error) {
    await discardCharacterUploads(ctx, userId, copies);
    throw error;
  }
}

/**
 * A draft (issue 48): the request on the cheapest model and resolution this server has for it
 * (`draftChoice`, the generator's own rule), whatever model and resolution it named.
 */
function asDraft(ctx: ServiceContext, body: NewGeneration, options: CreateOptions): NewGeneration {
  if (options.compareModel)
    throw badRequest(
      'A draft is made on the cheapest model, so it cannot be compared with another one. Turn Draft off to compare models.',
      'draft_with_compare',
    );
  const models = ctx.engines.list().filter((model) => model.available && ctx.engines.get(model.id));
  const choice = draftChoice(models, { ...body, ...body.settings });
  if (!choice)
    throw badRequest(
      'No model on this server takes this request as a draft. Remove an input, or turn Draft off.',
      'no_draft_model',
    );
  return { ...body, model: choice.model.id, settings: { ...body.settings, resolution: choice.resolution } };
}

/** createGeneration once the request holds its character (if any) as the model takes it. */
async function startGeneration(
  ctx: ServiceContext,
  userId: string,
  body: NewGeneration,
  options: CreateOptions,
): Promise<CreatedGeneration> {
  const count = options.variations ?? 1;
  const prompt = body.prompt;
  // The content policy first: a refused description costs nothing and leaves nothing (issue 43).
  const screening = await refuseBlockedPrompt(ctx, [prompt], options.log);
  const modelInfo = modelFor(ctx, body.model);
  checkModelTakes(modelInfo, body);
  const compareInfo = options.compareModel ? compareModelFor(ctx, modelInfo, options.compareModel, count) : null;
  if (compareInfo) checkModelTakes(compareInfo, body);
  // Each job's model, with its shape and price as that model renders the request.
  const plans = [modelInfo, ...(compareInfo ? [compareInfo] : [])].map((info) => {
    const shape = renderedShape(info, { ...body.settings, isEconomy: body.isEconomy, duration: body.duration });
    return {
      model: info.id,
      settings: { ...body.settings, aspectRatio: shape.aspectRatio, resolution: shape.resolution },
      duration: shape.duration,
      modelPrice: ctx.engines.price(info.id),
      // What the provider bills for it, fixed now so a later MODELS_CONFIG change keeps the cost view's history.
      providerCost: providerCostMicroUsd(ctx.engines.providerCost(info.id), shape.duration),
    };
  });
  const { inputs, endImage, referenceImages, consent, flagged } = await resolveInputs(ctx, userId, body);
  // Flagged, not refused (the description, or a picture or video it starts from): made and charged
  // as any job, and held until an administrator decides.
  const flaggedText = screening.findings
    .filter((finding) => finding.decision === 'review')
    .map(({ category, score }) => ({ category, score }));
  const heldForReview: ReviewHold | null =
    screening.decision === 'review' || flagged.length > 0
      ? {
          findings: [...flaggedText, ...flagged],
          heldAt: ctx.now().toISOString(),
          stage: screening.decision === 'review' ? 'description' : 'input',
        }
      : null;
  const hasAudio = body.hasAudio;
  // Enhancement and analysis are charged only when claimed and verified (decisions 012 and 016).
  const used = await chargeableAiUse(ctx, userId, body.aiUse);
  // Variations: N jobs of the one model with their own seeds; compare: one job on each model.
  const jobs = compareInfo
    ? plans
    : plans.flatMap((plan) => variationSettings(plan.settings, count).map((settings) => ({ ...plan, settings })));

  // One row lock, one read of what the rules need, then one statement per job: the job carrying its
  // payment, the credits and their ledger row, and one live event announcing both (the user's row
  // written once). The id is made here so an allowance used for it can name it first.
  return ctx.db.transaction(async (tx) => {
    const locked = await repo.lockPayer(tx, userId);
    if (!locked) throw notFound('User not found', 'user_not_found');
    const { unfinished, hasPackGenerations, waiting } = await repo.unfinishedAndPacks(tx, userId, ctx.now());
    if (jobs.length > 1) checkBatchFits(unfinished, jobs.length);
    requireRoomForAnotherJob(unfinished);
    const prices = jobs.map(
      (job) =>
        priceHundredths(
          {
            hasAudio,
            isEconomy: body.isEconomy,
            hasPromptEnhancement: used.promptEnhancement,
            hasImageAnalysis: used.imageAnalysis,
            duration: job.duration,
            resolution: job.settings.resolution,
          },
          job.modelPrice,
        ).total,
    );
    // The ledger row names what was priced, so the charge can be read against the estimate.
    const parts = [
      body.isEconomy ? 'economy' : null,
      hasAudio ? 'audio' : null,
      used.promptEnhancement ? 'AI prompt enhancement' : null,
      used.imageAnalysis ? 'image analysis' : null,
    ].filter(Boolean);
    const reason = parts.length > 0 ? `Video generation (${parts.join(', ')})` : 'Video generation';
    // Variations and compare: N jobs, each paid as one generation at its own model's price (one
    // ledger row naming it), all in this transaction: when the Nth cannot be paid, none of them is created.
    const payer = { ...locked, hasPackGenerations };
    const spendCapHundredths = effectiveSpendCap(
      locked.dailySpendCapHundredths,
      ctx.config.operations.dailySpendCapHundredths,
    );
    if (jobs.length > 1) requireBatchAffordable(payer, prices, compareInfo ? 'videos' : 'variations');
    const groupId = jobs.length > 1 ? randomUUID() : null;
    const rows: GenerationRow[] = [];
    for (const [index, job] of jobs.entries()) {
      const id = randomUUID();
      const paid = await payForGeneration(
        tx,
        payer,
        { userId, generationId: id, now: ctx.now() },
        { hundredths: prices[index] ?? 0, reason, spendCapHundredths },
      );
      payer.creditsHundredths -= paid.creditsHundredths;
      const row = await repo.insertPaidGeneration(
        tx,
        {
          id,
          userId,
          prompt,
          model: job.model,
          requestedDuration: job.duration,
          hasAudio,
          isEconomy: body.isEconomy,
          settings: job.settings,
          inputs,
          endImage,
          referenceImages,
          progressStage: heldForReview ? HELD_FOR_REVIEW_STAGE : 'Waiting in queue',
          creditsUsedHundredths: paid.creditsHundredths,
          providerCostMicroUsd: job.providerCost,
          paidWith: paid.paidWith,
          parentId: options.parentId ?? null,
          groupId,
          extension: options.extension ?? null,
          consent,
          heldForReview,
          isDraft: body.draft,
          ...(options.shot ? { storyboardId: options.shot.storyboardId, shotId: options.shot.shotId } : {}),
        },
        { charge: paid.charge, eventKind: paid.balanceChanged ? 'balance' : 'generation' },
      );
      rows.push(row);
    }
    const [row] = rows;
    if (!row) throw new Error('no generation was created');
    if (consent) await repo.recordConsent(tx, { userId, generationIds: rows.map((made) => made.id), consent });
    // The newest job waits behind every job waiting now (the live event then brings the exact place).
    return { row, queuePosition: waiting + 1, group: rows };
  });
}

/**
 * The second model of a side-by-side comparison, refused with a sentence when it is the first one,
 * unknown or unavailable, or asked with variations (compare makes one video on each model).
 */
function compareModelFor(ctx: ServiceContext, first: ModelInfo, requested: string, count: number): ModelInfo {
  if (count > 1)
    throw badRequest(
      'Compare with another model makes one video on each of two models, so it cannot be combined with variations. Choose 1 variation, or no second model.',
      'compare_with_variations',
    );
  const info = ctx.engines.info(requested);
  if (!info)
    throw badRequest(
      `This server has no model called "${requested}" to compare with. Choose one of the models the generator lists.`,
      'unknown_model',
    );
  if (info.id === first.id)
    throw badRequest(
      `Compare with another model needs a second model: ${first.name} is already the first one.`,
      'compare_same_model',
    );
  if (!info.available || !ctx.engines.get(info.id))
    throw badRequest(withoutOperatorNames(info.reason ?? `${info.name} is not available.`), 'model_unavailable');
  return info;
}

/** What a request adds beyond its fields: variations (jobs of one group), or Extend's parent and join. */
export interface CreateOptions {
  /** 1 to MAX_VARIATIONS jobs with different seeds, sharing a groupId when more than one. */
  variations?: number;
  /** A second model: the same request on it too, one job each, side by side in one group (not with variations). */
  compareModel?: string;
  parentId?: string;
  extension?: GenerationExtension;
  /** A storyboard's shot this job is a take of (issue 47). */
  shot?: { storyboardId: string; shotId: string };
  /** Where a refused or flagged description is logged for the operator. */
  log?: { warn: (object: object, message: string) => void };
}

/** A new generation and its place in the queue as it was created. */
export interface CreatedGeneration {
  row: GenerationRow;
  queuePosition: number;
  /** Every job the request started, the first being `row` (one unless variations were asked for). */
  group: GenerationRow[];
}

/** One of the user's generations; null when it is not theirs or is gone. */
export function findGeneration(ctx: ServiceContext, userId: string, id: string): Promise<GenerationRow | null> {
  return repo.findForUser(ctx.db, userId, id);
}

/** The takes and films made for these storyboards of the user's, newest first. */
export function listStoryboardVideos(ctx: ServiceContext, userId: string, storyboardIds: string[]) {
  return repo.listForStoryboards(ctx.db, userId, storyboardIds);
}

export function listGenerations(ctx: ServiceContext, userId: string, limit = LIST_LIMIT): Promise<GenerationRow[]> {
  return repo.listForUser(ctx.db, userId, limit);
}

/**
 * Deletes one of the user's generations with its output and inputs. A running job notices at its
 * next heartbeat (its row is gone) and stops its engine. Anyone else's id is a 404.
 */
/** Whether a video's file is there to play (for the watch page and reports), and a kept video's link expiry. */
export { hasLiveOutput, jobCopiesOf, keptLinkExpiry } from './output-life';

export async function deleteGeneration(ctx: ServiceContext, userId: string, id: string): Promise<void> {
  const row = await ctx.db.transaction(async (tx) => {
    const deleted = await repo.deleteForUser(tx, userId, id);
    if (deleted) await publishGenerationChange(tx, userId, id);
    return deleted;
  });
  if (!row) throw notFound('This video was not found. It may have been deleted already.', 'generation_not_found');
  if (row.status === 'pending') await publishQueueMoved(ctx);
  for (const key of storedKeysOf(row)) await ctx.storage.delete(key);
  // A remix reuses its original's inputs: those still named by another generation stay.
  const uploadIds = namedUploadIds(row);
  const stillUsed = await repo.uploadsStillUsed(ctx.db, userId, uploadIds);
  await discardUploads(
    ctx,
    userId,
    uploadIds.filter((id) => !stillUsed.has(id)),
  );
}

/**
 * Queues a finished job again as a new generation of the same owner with the same request, paid by
 * the operator (an administrator's free re-run): nothing is charged. Refused with a sentence when
 * this server can no longer run its model or its inputs were deleted (24 hours after upload).
 */
export async function rerunGeneration(
  ctx: ServiceContext,
  tx: Executor,
  original: GenerationRow,
): Promise<GenerationRow> {
  if (!ctx.engines.get(original.model))
    throw conflict(`This server can no longer run ${original.model}: the job cannot be re-run.`, 'model_unavailable');
  const now = ctx.now().getTime();
  const named: [string, GenerationInput][] = [
    ...Object.entries(original.inputs),
    ...(original.endImage ? [['end frame', original.endImage] as [string, GenerationInput]] : []),
    ...original.referenceImages.map((r): [string, GenerationInput] => ['reference image', r]),
  ];
  const gone = [
    ...new Set(
      named
        .filter(([, input]) => input.expiresAt !== undefined && Date.parse(input.expiresAt) <= now)
        .map(([kind]) => kind),
    ),
  ];
  if (gone.length > 0)
    throw conflict(
      `This job's ${gone.join(' and ')} input was deleted after 24 hours: it cannot be re-run.`,
      'inputs_expired',
    );
  // Once per failed job (the caller holds its row lock; the unique index on rerun_of holds it for any path).
  const earlier = await repo.findRerunOf(tx, original.id);
  if (earlier) throw conflict(`This job was re-run already: the re-run is job ${earlier}.`, 'already_rerun');
  const row = await repo.insertGeneration(tx, {
    rerunOf: original.id,
    userId: original.userId,
    prompt: original.prompt,
    model: original.model,
    requestedDuration: original.requestedDuration,
    hasAudio: original.hasAudio,
    isEconomy: original.isEconomy,
    settings: original.settings,
    inputs: original.inputs,
    endImage: original.endImage,
    referenceImages: original.referenceImages,
    progressStage: 'Waiting in queue',
    creditsUsedHundredths: 0,
    // The operator pays the provider for a re-run too, at today's price.
    providerCostMicroUsd: providerCostMicroUsd(ctx.engines.providerCost(original.model), original.requestedDuration),
    paidWith: 'operator',
  });
  await publishGenerationChange(tx, row.userId, row.id);
  return row;
}

/** The queue now: pending and running jobs, and the oldest runnable pending job's wait in seconds. */
export function queueSnapshot(ctx: ServiceContext) {
  return repo.queueSnapshot(ctx.db);
}

/** Deletes every generated file of a user (their account is being deleted). */
export async function deleteUserOutputs(ctx: ServiceContext, userId: string): Promise<void> {
  await ctx.storage.deletePrefix(userOutputsPrefix(userId));
}
