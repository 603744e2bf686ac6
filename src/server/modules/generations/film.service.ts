import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { type CreateFilmBody, FILM_FPS, FILM_MODEL_ID, MAX_FILM_SECONDS } from '../../../shared/films';
import { retentionInWords } from '../../../shared/retention';
import type { ServiceContext } from '../../context';
import type { GenerationFilm, GenerationFilmPart, GenerationRow } from '../../db/schema';
import { frameSize } from '../../engines/local/render-plan';
import { badRequest, conflict, notFound } from '../../lib/app-error';
import { filmSeconds, planProblem } from '../../media/film-assembly';
import { ObjectNotFoundError } from '../../storage/storage';
import { refuseBlockedPrompt } from '../moderation/moderation.service';
import { resolveUploadRef } from '../uploads/uploads.service';
import { type CreatedGeneration, requireRoomForAnotherJob } from './generations.service';
import * as repo from './generations.repository';
import { userOutputsPrefix } from './lifecycle.service';
import { hasLiveOutput } from './output-life';

/** A measured length a few hundredths over the rendered one (an 8 s render probes as 8.02 s) is still that length. */
const LENGTH_TOLERANCE_SECONDS = 0.1;

/** Where the copy of a film's take, or of its bed, waits for the worker. */
const partKeyFor = (userId: string, extension: 'mp4' | 'audio') =>
  `${userOutputsPrefix(userId)}film-part-${randomUUID()}.${extension}`;

/**
 * A film (issue 47): the user's finished videos, each trimmed, and title cards, joined in order by
 * the worker (src/server/jobs/film-export.ts) into one new video of the chosen shape, with an
 * uploaded track under it. It is made free of charge (its shots were paid for) and counts as one
 * unfinished job. Every video is checked (its owner's, finished, still stored, the trim within it)
 * and every word screened before anything is copied; the copies let the takes expire meanwhile, and
 * nothing is left behind when it is refused.
 */
export async function createFilm(
  ctx: ServiceContext,
  userId: string,
  body: CreateFilmBody,
  log?: FastifyBaseLogger,
  /** The storyboard it is exported from, if any. */
  storyboardId?: string,
): Promise<CreatedGeneration> {
  const texts = [body.title, ...body.parts.map((part) => ('card' in part ? part.card.text : part.caption))].filter(
    (text): text is string => Boolean(text),
  );
  await refuseBlockedPrompt(ctx, texts, log);

  const transitions = body.transitions ?? body.parts.slice(1).map(() => 'cut' as const);
  const videos = new Map<string, GenerationRow>();
  const planned: (GenerationFilmPart & { source?: GenerationRow })[] = [];
  for (const [index, part] of body.parts.entries()) {
    if ('card' in part) {
      planned.push({ kind: 'card', ...part.card });
      continue;
    }
    const video = videos.get(part.video) ?? (await finishedVideo(ctx, userId, part.video, index));
    videos.set(video.id, video);
    const length = video.outputDuration ?? video.requestedDuration;
    const start = part.start ?? 0;
    const end = part.end ?? length;
    if (end > length + LENGTH_TOLERANCE_SECONDS)
      throw badRequest(
        `Part ${index + 1} ends at ${end} s, but its video lasts ${Math.round(length * 100) / 100} s.`,
        'trim_outside_video',
      );
    planned.push({
      kind: 'shot',
      key: '',
      videoId: video.id,
      start,
      end: Math.min(end, length),
      ...(part.caption ? { caption: part.caption } : {}),
      source: video,
    });
  }
  const { width, height } = frameSize({ aspectRatio: body.aspectRatio, resolution: body.resolution }, false);
  const shape = { parts: planned, transitions, transitionSeconds: body.transitionSeconds };
  const problem = planProblem(shape);
  if (problem) throw badRequest(problem, 'invalid_film');
  const seconds = filmSeconds(shape);
  if (seconds > MAX_FILM_SECONDS)
    throw badRequest(
      `A film lasts at most ${MAX_FILM_SECONDS / 60} minutes; this one would last ${seconds} s.`,
      'film_too_long',
    );
  const bed = body.bedFile ? await resolveUploadRef(ctx, userId, body.bedFile) : null;
  if (bed && bed.kind === 'image')
    throw badRequest(
      'bedFile must be a music or voice recording (or a video with sound); that upload is an image.',
      'wrong_input_kind',
    );

  const copied: string[] = [];
  const copy = async (key: string, to: string, contentType: string) => {
    const bytes = await ctx.storage.read(key).catch((error: unknown) => {
      throw error instanceof ObjectNotFoundError
        ? notFound('A video of this film was deleted meanwhile. Choose another take.', 'generation_not_found')
        : error;
    });
    await ctx.storage.put(to, bytes, contentType);
    copied.push(to);
    return to;
  };
  try {
    const parts: GenerationFilmPart[] = [];
    for (const { source, ...part } of planned) {
      if (part.kind === 'shot' && source?.outputKey)
        parts.push({ ...part, key: await copy(source.outputKey, partKeyFor(userId, 'mp4'), 'video/mp4') });
      else parts.push(part);
    }
    const film: GenerationFilm = {
      width,
      height,
      fps: FILM_FPS,
      parts,
      transitions,
      transitionSeconds: body.transitionSeconds,
      ...(bed ? { bedKey: await copy(bed.objectKey, partKeyFor(userId, 'audio'), bed.contentType) } : {}),
    };
    const shots = parts.filter((part) => part.kind === 'shot').length;
    return await ctx.db.transaction(async (tx) => {
      const locked = await repo.lockPayer(tx, userId);
      if (!locked) throw notFound('User not found', 'user_not_found');
      const { unfinished, waiting } = await repo.unfinishedAndPacks(tx, userId, ctx.now());
      requireRoomForAnotherJob(unfinished);
      const row = await repo.insertPaidGeneration(
        tx,
        {
          id: randomUUID(),
          userId,
          prompt: body.title ?? `A film of ${shots} ${shots === 1 ? 'shot' : 'shots'}`,
          model: FILM_MODEL_ID,
          requestedDuration: Math.max(1, Math.round(seconds)),
          hasAudio: true,
          isEconomy: false,
          settings: { aspectRatio: body.aspectRatio, resolution: body.resolution },
          inputs: {},
          endImage: null,
          referenceImages: [],
          progressStage: 'Waiting in queue',
          creditsUsedHundredths: 0,
          providerCostMicroUsd: null,
          paidWith: 'free',
          parentId: null,
          groupId: null,
          extension: null,
          consent: null,
          heldForReview: null,
          film,
          storyboardId: storyboardId ?? null,
        },
        { charge: null, eventKind: 'generation' },
      );
      return { row, queuePosition: waiting + 1, group: [row] };
    });
  } catch (error) {
    await Promise.all(copied.map((key) => ctx.storage.delete(key).catch(() => undefined)));
    throw error;
  }
}

/** One of the user's videos that a film can use: finished and still stored. */
async function finishedVideo(ctx: ServiceContext, userId: string, id: string, index: number): Promise<GenerationRow> {
  const video = await repo.findForUser(ctx.db, userId, id);
  if (!video)
    throw notFound(
      `Part ${index + 1} names no video of yours. It may have been deleted already.`,
      'generation_not_found',
    );
  if (video.status !== 'completed')
    throw conflict(`Part ${index + 1} is not finished yet. Make the film once it is ready.`, 'not_finished');
  if (!hasLiveOutput(video, ctx.now()) || !video.outputKey)
    throw badRequest(
      `Part ${index + 1} has expired (videos are kept for ${retentionInWords(ctx.config.retention.videoHours)}). Make it again, or choose another take.`,
      'video_expired',
    );
  return video;
}
