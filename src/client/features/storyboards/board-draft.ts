import { FILM_CARD_SECONDS, FILM_TRANSITION_SECONDS } from '../../../shared/films';
import { chosenModel, type AspectRatio, type ModelInfo, nearestOf, type Resolution } from '../../../shared/models';
import {
  type Shot,
  type Storyboard,
  type StoryboardRequest,
  type StoryboardShot,
  shotPriceHundredths,
  UNTITLED_STORYBOARD,
} from '../../../shared/storyboards';

// What the board editor holds while the user edits it, and the PUT body it becomes (issue 47).

/** The title card as edited: it may be switched on before it has words (then it is not sent). */
export interface TitleCardDraft {
  on: boolean;
  text: string;
  seconds: number;
  background: string;
}

export interface BoardDraft {
  name: string;
  aspectRatio: AspectRatio;
  resolution: Resolution;
  titleCard: TitleCardDraft;
  transitionSeconds: number;
  bedFile: string | null;
  shots: Shot[];
}

/** The stored fields of a shot, without what the server adds (state, takes, the take in use). */
export function shotOf(shot: StoryboardShot | Shot): Shot {
  return {
    id: shot.id,
    description: shot.description,
    model: shot.model ?? null,
    aspectRatio: shot.aspectRatio ?? null,
    resolution: shot.resolution ?? null,
    cameraMove: shot.cameraMove ?? null,
    duration: shot.duration,
    hasAudio: shot.hasAudio,
    imageFile: shot.imageFile ?? null,
    endImageFile: shot.endImageFile ?? null,
    referenceImageFiles: shot.referenceImageFiles,
    fromPrevious: shot.fromPrevious,
    chosenTakeId: shot.chosenTakeId ?? null,
    trimStart: shot.trimStart ?? null,
    trimEnd: shot.trimEnd ?? null,
    caption: shot.caption ?? null,
    transition: shot.transition,
  };
}

export function draftOf(board: Storyboard): BoardDraft {
  return {
    name: board.name,
    aspectRatio: board.aspectRatio,
    resolution: board.resolution,
    titleCard: {
      on: board.titleCard != null,
      text: board.titleCard?.text ?? '',
      seconds: board.titleCard?.seconds ?? FILM_CARD_SECONDS.default,
      background: board.titleCard?.background ?? '#111827',
    },
    transitionSeconds: board.transitionSeconds,
    bedFile: board.bedFile ?? null,
    shots: board.shots.map(shotOf),
  };
}

const clamp = (value: number, range: { min: number; max: number }, fallback: number) =>
  Number.isFinite(value) ? Math.min(range.max, Math.max(range.min, value)) : fallback;

/** The PUT body: the whole board, on the version it was edited from. */
export function bodyOf(draft: BoardDraft, version: number): StoryboardRequest {
  const title = draft.titleCard.text.trim();
  return {
    name: draft.name.trim() || UNTITLED_STORYBOARD,
    aspectRatio: draft.aspectRatio,
    resolution: draft.resolution,
    titleCard:
      draft.titleCard.on && title
        ? {
            text: title,
            seconds: clamp(draft.titleCard.seconds, FILM_CARD_SECONDS, FILM_CARD_SECONDS.default),
            background: draft.titleCard.background,
          }
        : null,
    transitionSeconds: clamp(draft.transitionSeconds, FILM_TRANSITION_SECONDS, FILM_TRANSITION_SECONDS.default),
    bedFile: draft.bedFile,
    shots: draft.shots.map((shot, index) => ({
      ...shot,
      caption: shot.caption?.trim() || null,
      // The first shot has no shot before it to start from.
      fromPrevious: index > 0 && shot.fromPrevious,
    })),
    version,
  };
}

/** A new shot, made like the one before it (its model, shape, length and sound), or for the board's shape. */
export function blankShot(board: Pick<BoardDraft, 'aspectRatio' | 'resolution'>, like?: Shot): Shot {
  return {
    id: crypto.randomUUID(),
    description: '',
    model: like?.model ?? null,
    aspectRatio: like ? (like.aspectRatio ?? null) : board.aspectRatio,
    resolution: like ? (like.resolution ?? null) : board.resolution,
    cameraMove: null,
    duration: like?.duration ?? 5,
    hasAudio: like?.hasAudio ?? false,
    imageFile: null,
    endImageFile: null,
    referenceImageFiles: [],
    fromPrevious: false,
    chosenTakeId: null,
    trimStart: null,
    trimEnd: null,
    caption: null,
    transition: 'cut',
  };
}

/** A copy of a shot to render anew: its words and controls, none of its takes. */
export function duplicateOf(shot: Shot): Shot {
  return { ...shot, id: crypto.randomUUID(), chosenTakeId: null };
}

/** The list with the item at `from` moved to `to` (both within the list). */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item === undefined) return next;
  next.splice(Math.max(0, Math.min(next.length, to)), 0, item);
  return next;
}

/** The model a shot renders on: the one it names, else the catalogue's default (as the server does). */
export function modelOfShot(models: readonly ModelInfo[] | undefined, shot: Pick<Shot, 'model'>) {
  return chosenModel(models, shot.model);
}

/** What rendering the shot costs, in hundredths of a credit; null while the catalogue is unknown. */
export function shotPrice(models: readonly ModelInfo[] | undefined, shot: Shot): number | null {
  const model = modelOfShot(models, shot);
  return model ? shotPriceHundredths(model, shot) : null;
}

/** A shot moved to a model: its shape and length fitted to what that model renders. */
export function fittedToModel(shot: Shot, model: ModelInfo): Shot {
  return {
    ...shot,
    model: model.id,
    aspectRatio: shot.aspectRatio && model.aspectRatios.includes(shot.aspectRatio) ? shot.aspectRatio : null,
    resolution: shot.resolution && model.resolutions.includes(shot.resolution) ? shot.resolution : null,
    cameraMove: shot.cameraMove && model.cameraMoves.includes(shot.cameraMove) ? shot.cameraMove : null,
    duration: nearestOf(model.durations, shot.duration),
    hasAudio: model.sound ? shot.hasAudio : false,
  };
}

/** Why the film cannot be made now, or null when it can. */
export function exportBlockedReason(shots: readonly { state: StoryboardShot['state'] }[]): string | null {
  if (shots.length === 0) return 'Add a shot and render it, then make the film.';
  const index = shots.findIndex((shot) => shot.state !== 'ready');
  const shot = shots[index];
  if (!shot) return null;
  if (shot.state === 'rendering')
    return `Shot ${index + 1} is still rendering. The film can be made once every shot has a finished take.`;
  return `Shot ${index + 1} has no finished take yet. Render it (or delete the shot), then make the film.`;
}
