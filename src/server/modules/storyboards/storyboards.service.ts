import type { FastifyBaseLogger } from 'fastify';
import type { CreateFilmBody } from '../../../shared/films';
import { type GenerationRecord, MAX_PROMPT_LENGTH } from '../../../shared/generations';
import {
  MAX_STORYBOARDS,
  type RenderedShots,
  type Shot,
  type ShotState,
  shotPriceHundredths,
  type Storyboard,
  type StoryboardBody,
  type StoryboardSummary,
} from '../../../shared/storyboards';
import { toCredits } from '../../../shared/money/price-list';
import type { ServiceContext } from '../../context';
import type { GenerationRow, StoryboardFilmSettings, StoryboardRow } from '../../db/schema';
import { AppError, badRequest, conflict, notFound } from '../../lib/app-error';
import { createFilm } from '../generations/film.service';
import {
  type CreatedGeneration,
  createGeneration,
  hasLiveOutput,
  listStoryboardVideos,
  type NewGeneration,
  presentRecords,
} from '../generations/generations.service';
import { lastFrameUpload } from '../generations/last-frame.service';
import { discardUploads, resolveUploadRef } from '../uploads/uploads.service';
import * as repo from './storyboards.repository';

// Storyboards (issue 47): boards of shots stored whole as the user edits them; each shot's takes are
// generations made through createGeneration (charged as any video), and the board exports its
// chosen takes through createFilm (free). Nothing here prices or charges on its own.

const boardNotFound = () =>
  notFound('This storyboard was not found. It may have been deleted.', 'storyboard_not_found');

const filmSettingsOf = (body: StoryboardBody): StoryboardFilmSettings => ({
  aspectRatio: body.aspectRatio,
  resolution: body.resolution,
  titleCard: body.titleCard ?? null,
  transitionSeconds: body.transitionSeconds,
  bedFile: body.bedFile ?? null,
});

/** A shot's place as people count it ("Shot 2"). */
const shotName = (index: number) => `Shot ${index + 1}`;

export async function listStoryboards(ctx: ServiceContext, userId: string): Promise<StoryboardSummary[]> {
  const rows = await repo.listForUser(ctx.db, userId, MAX_STORYBOARDS);
  const videos = await listStoryboardVideos(
    ctx,
    userId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const takes = videos.filter((video) => video.storyboardId === row.id);
    return {
      id: row.id,
      name: row.name,
      shots: row.shots.length,
      readyShots: row.shots.filter((shot) => usedTake(ctx, shot, takesOf(takes, shot))).length,
      updatedAt: row.updatedAt.toISOString(),
    };
  });
}

export async function createStoryboard(ctx: ServiceContext, userId: string, body: StoryboardBody): Promise<Storyboard> {
  if ((await repo.countForUser(ctx.db, userId)) >= MAX_STORYBOARDS)
    throw badRequest(
      `You can keep up to ${MAX_STORYBOARDS} storyboards. Delete one you no longer need, then make a new one.`,
      'too_many_storyboards',
    );
  // A new board has no takes yet: a chosen take can only be one made for it.
  checkChosenTakes(body.shots, []);
  const row = await repo.insert(ctx.db, userId, {
    name: body.name,
    shots: body.shots,
    film: filmSettingsOf(body),
  });
  return presentStoryboard(ctx, row, []);
}

export async function getStoryboard(ctx: ServiceContext, userId: string, id: string): Promise<Storyboard> {
  const row = await repo.findForUser(ctx.db, userId, id);
  if (!row) throw boardNotFound();
  return presentStoryboard(ctx, row, await listStoryboardVideos(ctx, userId, [row.id]));
}

/**
 * Replaces a board (its name, its shots in their order, its film settings). An edit made on an
 * older version than the stored one is refused, so an edit from another tab is not lost silently.
 */
export async function updateStoryboard(
  ctx: ServiceContext,
  userId: string,
  id: string,
  body: StoryboardBody,
): Promise<Storyboard> {
  const videos = await listStoryboardVideos(ctx, userId, [id]);
  checkChosenTakes(body.shots, videos);
  const row = await ctx.db.transaction(async (tx) => {
    const current = await repo.lockForUser(tx, userId, id);
    if (!current) throw boardNotFound();
    if (body.version !== undefined && body.version !== current.version)
      throw conflict(
        'This storyboard was changed in another window meanwhile. Reload it to see the changes, then edit again.',
        'storyboard_changed',
      );
    return repo.update(tx, id, { name: body.name, shots: body.shots, film: filmSettingsOf(body) }, ctx.now());
  });
  return presentStoryboard(ctx, row, videos);
}

export async function deleteStoryboard(ctx: ServiceContext, userId: string, id: string): Promise<void> {
  // Its takes and films stay among the user's videos (their link to it is cleared).
  if (!(await repo.deleteForUser(ctx.db, userId, id))) throw boardNotFound();
}

/**
 * Renders one shot (a first take, or another one beside the earlier ones): its description and
 * controls as a generation request, charged as any video, started from the previous shot's last
 * frame when the shot asks for it. The new take is the one the film uses once it is finished.
 */
export async function renderShot(
  ctx: ServiceContext,
  userId: string,
  boardId: string,
  shotId: string,
  consentToLikeness: boolean,
  log?: FastifyBaseLogger,
): Promise<CreatedGeneration> {
  const row = await repo.findForUser(ctx.db, userId, boardId);
  if (!row) throw boardNotFound();
  const index = row.shots.findIndex((shot) => shot.id === shotId);
  const shot = row.shots[index];
  if (!shot) throw notFound('This shot is not on the storyboard. It may have been deleted.', 'shot_not_found');
  const videos = await listStoryboardVideos(ctx, userId, [boardId]);
  const created = await renderOne(ctx, userId, row, index, videos, consentToLikeness, log);
  // The film uses the new take once it is finished (until then, the take it used before).
  if (shot.chosenTakeId) await clearChosenTakes(ctx, userId, boardId, [shotId]);
  return created;
}

/**
 * Renders every shot that has no take yet, in order, each charged as it starts. A shot that starts
 * from the previous shot's last frame waits until that shot has a finished take; a shot that cannot
 * start now (the limit of unfinished videos, the balance) is named with the reason, after the ones
 * that started. When nothing started, the first refusal (or the first shot's wait) is the answer.
 */
export async function renderMissingShots(
  ctx: ServiceContext,
  userId: string,
  boardId: string,
  consentToLikeness: boolean,
  log?: FastifyBaseLogger,
): Promise<{ started: { shotId: string; take: GenerationRecord }[]; waiting: RenderedShots['waiting'] }> {
  const row = await repo.findForUser(ctx.db, userId, boardId);
  if (!row) throw boardNotFound();
  const videos = await listStoryboardVideos(ctx, userId, [boardId]);
  const missing = row.shots.flatMap((shot, index) =>
    stateOf(ctx, shot, takesOf(videos, shot)) === 'missing' ? [{ shot, index }] : [],
  );
  if (missing.length === 0)
    throw badRequest(
      'Every shot already has a take. Render a shot again to make another take of it.',
      'nothing_to_render',
    );
  const started: { shotId: string; row: GenerationRow }[] = [];
  const waiting: RenderedShots['waiting'] = [];
  let firstRefusal: AppError | null = null;
  for (const { shot, index } of missing) {
    const previous = row.shots[index - 1];
    if (shot.fromPrevious && previous && !usedTake(ctx, previous, takesOf(videos, previous))) {
      waiting.push({
        shotId: shot.id,
        reason: `${shotName(index)} starts from the last frame of ${shotName(index - 1)}: render it once ${shotName(index - 1)} has a finished take.`,
      });
      continue;
    }
    try {
      const created = await renderOne(ctx, userId, row, index, videos, consentToLikeness, log);
      started.push({ shotId: shot.id, row: created.row });
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      firstRefusal ??= error;
      waiting.push({ shotId: shot.id, reason: `${shotName(index)}: ${error.message}` });
    }
  }
  if (started.length === 0)
    throw firstRefusal ?? conflict(waiting[0]?.reason ?? 'No shot can start now.', 'previous_shot_not_ready');
  const takes = await presentRecords(
    ctx,
    started.map((made) => made.row),
  );
  return { started: started.map((made, i) => ({ shotId: made.shotId, take: takes[i] as GenerationRecord })), waiting };
}

/**
 * Exports the board: the title card, then each shot's take in use (trimmed, captioned, meeting the
 * next by its transition) and the bed, as one film made by createFilm (free: the takes were paid for).
 */
export async function exportStoryboard(
  ctx: ServiceContext,
  userId: string,
  boardId: string,
  log?: FastifyBaseLogger,
): Promise<CreatedGeneration> {
  const row = await repo.findForUser(ctx.db, userId, boardId);
  if (!row) throw boardNotFound();
  if (row.shots.length === 0)
    throw badRequest('This storyboard has no shots yet. Add a shot and render it, then export.', 'no_shots');
  const videos = await listStoryboardVideos(ctx, userId, [boardId]);
  const parts: CreateFilmBody['parts'] = [];
  const transitions: CreateFilmBody['transitions'] = [];
  const { titleCard, aspectRatio, resolution, transitionSeconds, bedFile } = row.film;
  if (titleCard) parts.push({ card: titleCard });
  for (const [index, shot] of row.shots.entries()) {
    const take = usedTake(ctx, shot, takesOf(videos, shot));
    if (!take)
      throw conflict(
        `${shotName(index)} has no finished take yet. Render it (or delete the shot), then export.`,
        'shot_not_ready',
      );
    // The card cuts to the first shot; each shot meets the next by its own transition.
    if (parts.length > 0) transitions.push(index === 0 ? 'cut' : (row.shots[index - 1]?.transition ?? 'cut'));
    parts.push({
      video: take.id,
      ...(shot.trimStart != null ? { start: shot.trimStart } : {}),
      ...(shot.trimEnd != null ? { end: shot.trimEnd } : {}),
      ...(shot.caption ? { caption: shot.caption } : {}),
    });
  }
  return createFilm(
    ctx,
    userId,
    {
      title: row.name,
      aspectRatio,
      resolution,
      parts,
      transitions,
      transitionSeconds,
      ...(bedFile ? { bedFile } : {}),
    },
    log,
    boardId,
  );
}

/** One shot's take: the request its fields make, from the previous shot's last frame when asked. */
async function renderOne(
  ctx: ServiceContext,
  userId: string,
  row: StoryboardRow,
  index: number,
  videos: GenerationRow[],
  consentToLikeness: boolean,
  log?: FastifyBaseLogger,
): Promise<CreatedGeneration> {
  const shot = row.shots[index];
  if (!shot) throw new Error('renderOne: no shot at that index');
  const description = shot.description.trim();
  if (!description)
    throw badRequest(
      `${shotName(index)} has no description yet. Say what happens in it, then render it.`,
      'prompt_required',
    );
  if (description.length > MAX_PROMPT_LENGTH)
    throw badRequest(`A shot's description must be at most ${MAX_PROMPT_LENGTH} characters.`, 'prompt_too_long');
  let startFrame: string | null = shot.imageFile ?? null;
  let madeFrame: string | null = null;
  if (shot.fromPrevious) {
    const previous = row.shots[index - 1];
    if (!previous)
      throw badRequest(
        'The first shot has no shot before it to start from. Turn off "Start from the previous shot".',
        'no_previous_shot',
      );
    const take = usedTake(ctx, previous, takesOf(videos, previous));
    if (!take)
      throw conflict(
        `${shotName(index)} starts from the last frame of ${shotName(index - 1)}, which has no finished take yet. Render ${shotName(index - 1)} first.`,
        'previous_shot_not_ready',
      );
    madeFrame = (await lastFrameUpload(ctx, userId, take.id)).objectPath;
    startFrame = madeFrame;
  }
  const request: NewGeneration = {
    prompt: description,
    settings: {
      ...(shot.aspectRatio ? { aspectRatio: shot.aspectRatio } : {}),
      ...(shot.resolution ? { resolution: shot.resolution } : {}),
      ...(shot.cameraMove ? { cameraMove: shot.cameraMove } : {}),
    },
    imageFile: startFrame,
    videoFile: null,
    audioFile: null,
    endImageFile: shot.endImageFile ?? null,
    referenceImageFiles: shot.referenceImageFiles,
    characterId: shot.characterId ?? null,
    hasAudio: shot.hasAudio,
    isEconomy: false,
    duration: shot.duration,
    model: shot.model ?? undefined,
    aiUse: { by: 'ids', ids: {} },
    consentToLikeness,
    draft: false,
  };
  try {
    return await createGeneration(ctx, userId, request, { shot: { storyboardId: row.id, shotId: shot.id }, log });
  } catch (error) {
    // The frame was made for this take only: a refused take leaves no upload behind.
    if (madeFrame) {
      const made = await resolveUploadRef(ctx, userId, madeFrame).catch(() => null);
      if (made) await discardUploads(ctx, userId, [made.id]);
    }
    throw error;
  }
}

async function clearChosenTakes(ctx: ServiceContext, userId: string, boardId: string, shotIds: string[]) {
  await ctx.db.transaction(async (tx) => {
    const current = await repo.lockForUser(tx, userId, boardId);
    if (!current) return;
    const shots = current.shots.map((shot) => (shotIds.includes(shot.id) ? { ...shot, chosenTakeId: null } : shot));
    await repo.update(tx, boardId, { shots }, ctx.now());
  });
}

/** A chosen take must be a finished take of that shot (another user's video, or another shot's, is refused). */
function checkChosenTakes(shots: Shot[], videos: GenerationRow[]): void {
  for (const [index, shot] of shots.entries()) {
    if (!shot.chosenTakeId) continue;
    const take = videos.find((video) => video.id === shot.chosenTakeId && video.shotId === shot.id);
    if (!take) throw badRequest(`${shotName(index)}’s chosen take is not a take of that shot.`, 'invalid_chosen_take');
    if (take.status !== 'completed')
      throw badRequest(`${shotName(index)}’s chosen take is not finished.`, 'invalid_chosen_take');
  }
}

const takesOf = (videos: GenerationRow[], shot: Pick<Shot, 'id'>) => videos.filter((video) => video.shotId === shot.id);

/** The take the film uses: the chosen one while it is stored, else the newest finished one still stored. */
function usedTake(ctx: ServiceContext, shot: Shot, takes: GenerationRow[]): GenerationRow | null {
  const live = takes.filter((take) => take.status === 'completed' && hasLiveOutput(take, ctx.now()));
  return live.find((take) => take.id === shot.chosenTakeId) ?? live[0] ?? null;
}

function stateOf(ctx: ServiceContext, shot: Shot, takes: GenerationRow[]): ShotState {
  if (usedTake(ctx, shot, takes)) return 'ready';
  if (takes.some((take) => take.status === 'pending' || take.status === 'processing')) return 'rendering';
  return 'missing';
}

/** Credits one render of a shot costs on its model (the default model when it names none, or one this server lacks: 0). */
function shotPrice(ctx: ServiceContext, shot: Shot): number {
  const model = ctx.engines.info(shot.model ?? ctx.engines.defaultModel);
  return model ? shotPriceHundredths(model, shot) : 0;
}

async function presentStoryboard(
  ctx: ServiceContext,
  row: StoryboardRow,
  videos: GenerationRow[],
): Promise<Storyboard> {
  const records = new Map((await presentRecords(ctx, videos)).map((record) => [record.id, record]));
  const recordsOf = (rows: GenerationRow[]) => rows.flatMap((video) => records.get(video.id) ?? []);
  const shots = row.shots.map((shot) => {
    const takes = takesOf(videos, shot);
    return {
      ...shot,
      state: stateOf(ctx, shot, takes),
      takes: recordsOf(takes),
      usedTakeId: usedTake(ctx, shot, takes)?.id ?? null,
    };
  });
  const toRender = shots.filter((shot) => shot.state === 'missing');
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    ...row.film,
    shots,
    creditsToRender: toCredits(toRender.reduce((sum, shot) => sum + shotPrice(ctx, shot), 0)),
    films: recordsOf(videos.filter((video) => video.shotId === null && video.film !== null)),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
