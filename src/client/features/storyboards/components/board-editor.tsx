import { useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { type ReactNode, useCallback, useId, useRef, useState } from 'react';

import type { ModelInfo } from '../../../../shared/models';
import { takesInput } from '../../../../shared/models';
import { toCredits } from '../../../../shared/money/credits';
import { MAX_SHOTS, type RenderedShots, type Shot, type Storyboard } from '../../../../shared/storyboards';
import { Button } from '../../../components/ui/button';
import { getServerMessage } from '../../../lib/api-client';
import { isRunning, storyboardQueryOptions } from '../api/get-storyboard';
import { useExportStoryboard, useRenderMissingShots, useRenderShot } from '../api/render-shots';
import {
  blankShot,
  type BoardDraft,
  duplicateOf,
  exportBlockedReason,
  modelOfShot,
  moved,
  shotPrice,
} from '../board-draft';
import { useBoardEditor } from '../hooks/use-board-editor';
import { useReorder } from '../hooks/use-reorder';
import { BoardActions, MakeFilmButton, RenderMissingButton } from './board-actions';
import { BoardHeader } from './board-header';
import { FilmSettings } from './film-settings';
import { ShotCard } from './shot-card';

export interface BoardEditorProps {
  board: Storyboard;
  /** The catalogue (GET /api/models); undefined while it loads. */
  models: readonly ModelInfo[] | undefined;
  /** A shot's start image slot, for a model that takes an image (the page brings the uploads feature's). */
  startImageSlot?: (shotName: string, value: string | null, onChange: (objectPath: string | null) => void) => ReactNode;
  /** A shot's character slot (the page brings the characters feature's picker), with how the shot's model keeps one. */
  characterSlot?: (
    shotName: string,
    value: string | null,
    onChange: (characterId: string | null) => void,
    model: ModelInfo | undefined,
  ) => ReactNode;
  /** The film's audio bed slot. */
  bedSlot?: (value: string | null, onChange: (objectPath: string | null) => void) => ReactNode;
}

const FAILED = 'That did not work. Check your connection, then try again.';

/**
 * The storyboard editor (issue 47): the board's name, its shots in order (each edited, rendered,
 * moved, duplicated or deleted), the film's settings, and rendering every missing shot and making
 * the film. Edits save themselves (hooks/board-saver.ts).
 */
export function BoardEditor({ board, models, startImageSlot, characterSlot, bedSlot }: BoardEditorProps) {
  const queryClient = useQueryClient();
  const { draft, save, saver } = useBoardEditor(board);
  const [announcement, setAnnouncement] = useState('');
  const [shotErrors, setShotErrors] = useState<Record<string, string>>({});
  const [boardError, setBoardError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<RenderedShots | null>(null);
  const [focusShot, setFocusShot] = useState<string | null>(null);
  const actionsRef = useRef<HTMLDivElement>(null);
  const shotsHeading = useRef<HTMLHeadingElement>(null);
  const helpId = useId();
  const reasonId = useId();
  const renderShot = useRenderShot(board.id);
  const renderMissing = useRenderMissingShots(board.id);
  const makeFilm = useExportStoryboard(board.id);
  const available = (models ?? []).filter((model) => model.available);

  const edit = useCallback(
    (change: (d: BoardDraft) => BoardDraft, options?: { now?: boolean }) => saver.edit(change, options),
    [saver],
  );
  const editShot = (id: string, next: Shot, options?: { now?: boolean }) =>
    edit((d) => ({ ...d, shots: d.shots.map((shot) => (shot.id === id ? next : shot)) }), options);
  const onMove = useCallback(
    (from: number, to: number) => edit((d) => ({ ...d, shots: moved(d.shots, from, to) }), { now: true }),
    [edit],
  );
  const reorder = useReorder({ ids: draft.shots.map((shot) => shot.id), onMove, announce: setAnnouncement });

  const storedOf = (id: string) => board.shots.find((shot) => shot.id === id);
  const nameOf = (id: string) => `Shot ${draft.shots.findIndex((shot) => shot.id === id) + 1}`;
  const missing = draft.shots.filter((shot) => (storedOf(shot.id)?.state ?? 'missing') === 'missing');
  const localPrices = missing.map((shot) => shotPrice(models, shot));
  const localCredits = localPrices.includes(null)
    ? null
    : toCredits(localPrices.reduce<number>((sum, price) => sum + (price ?? 0), 0));
  // The server's figure once the board on screen is the saved one; the same sum meanwhile.
  const credits = save.kind === 'saved' ? board.creditsToRender : localCredits;
  const newestFilm = board.films[0];
  const filmBlocked =
    newestFilm && isRunning(newestFilm)
      ? 'The film is being made.'
      : exportBlockedReason(draft.shots.map((shot) => ({ state: storedOf(shot.id)?.state ?? 'missing' })));

  const showActions = () => actionsRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });

  const addShot = () => {
    const shot = blankShot(draft, draft.shots.at(-1));
    edit((d) => ({ ...d, shots: [...d.shots, shot] }), { now: true });
    setFocusShot(shot.id);
    setAnnouncement(`Shot ${draft.shots.length + 1} added.`);
  };
  const duplicateShot = (index: number) => {
    const source = draft.shots[index];
    if (!source) return;
    const copy = duplicateOf(source);
    edit((d) => ({ ...d, shots: [...d.shots.slice(0, index + 1), copy, ...d.shots.slice(index + 1)] }), { now: true });
    setFocusShot(copy.id);
    setAnnouncement(`Shot ${index + 1} duplicated as Shot ${index + 2}.`);
  };
  const deleteShot = (index: number) => {
    edit((d) => ({ ...d, shots: d.shots.filter((_, i) => i !== index) }), { now: true });
    setAnnouncement(`Shot ${index + 1} deleted.`);
    shotsHeading.current?.focus();
  };

  const onRenderShot = async (id: string) => {
    setShotErrors(({ [id]: _gone, ...rest }) => rest);
    if (!(await saver.flush())) return;
    renderShot.mutate(id, {
      onError: (error) => setShotErrors((all) => ({ ...all, [id]: getServerMessage(error) ?? FAILED })),
    });
  };
  const onRenderMissing = async () => {
    setBoardError(null);
    setOutcome(null);
    if (!(await saver.flush())) return;
    renderMissing.mutate(undefined, {
      onSuccess: setOutcome,
      onError: (error) => setBoardError(getServerMessage(error) ?? FAILED),
      onSettled: showActions,
    });
  };
  const onMakeFilm = async () => {
    setBoardError(null);
    if (!(await saver.flush())) return;
    makeFilm.mutate(undefined, {
      onSuccess: () => setOutcome(null),
      onError: (error) => setBoardError(getServerMessage(error) ?? FAILED),
      onSettled: showActions,
    });
  };

  const render = {
    count: missing.length,
    credits,
    pending: renderMissing.isPending,
    onRender: () => void onRenderMissing(),
  };
  const film = { blocked: filmBlocked, pending: makeFilm.isPending, onMake: () => void onMakeFilm() };
  // Phones: the next step sits in a bar at the bottom; the panel keeps the other.
  const barAction = missing.length > 0 ? 'render' : 'film';

  return (
    <div className="grid gap-6 pb-24 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start lg:pb-0">
      <div className="grid min-w-0 gap-4">
        <BoardHeader
          name={draft.name}
          onName={(name) => edit((d) => ({ ...d, name }))}
          save={save}
          onRetry={() => void saver.flush()}
          onReload={async () => saver.reload(await queryClient.fetchQuery(storyboardQueryOptions(board.id)))}
        />
        <h2 ref={shotsHeading} tabIndex={-1} className="text-xl font-semibold outline-none">
          Shots <span className="text-base font-normal text-muted-foreground">({draft.shots.length})</span>
        </h2>
        <p id={helpId} className="sr-only">
          Press Alt and the up or down arrow to move the shot. Or press Space to pick it up, the arrow keys to move it,
          and Space to drop it.
        </p>
        {draft.shots.length === 0 ? (
          <p className="rounded-xl border border-dashed border-border p-6 text-center text-muted-foreground">
            No shots yet. Add the first shot and say what happens in it.
          </p>
        ) : (
          <ol aria-label="Shots" className="grid gap-4">
            {draft.shots.map((shot, index) => {
              const model = modelOfShot(models, shot);
              const drag = reorder.drag;
              const dropHere = drag && drag.id !== shot.id && drag.to !== drag.from && dropsBefore(drag, index);
              return (
                <li key={shot.id} ref={reorder.registerCard(shot.id)} className="grid gap-2">
                  {dropHere ? <div aria-hidden="true" className="h-1 rounded-full bg-violet-600" /> : null}
                  <ShotCard
                    shot={shot}
                    index={index}
                    count={draft.shots.length}
                    stored={storedOf(shot.id)}
                    model={model}
                    models={available}
                    price={shotPrice(models, shot)}
                    autoFocus={focusShot === shot.id}
                    onChange={(next, options) => editShot(shot.id, next, options)}
                    onDuplicate={() => duplicateShot(index)}
                    onDelete={() => deleteShot(index)}
                    onMove={(to) => reorder.move(shot.id, to)}
                    onRender={() => void onRenderShot(shot.id)}
                    rendering={renderShot.isPending && renderShot.variables === shot.id}
                    renderError={shotErrors[shot.id] ?? null}
                    handle={reorder.handleProps(shot.id, index, `Shot ${index + 1}`)}
                    handleHelpId={helpId}
                    dragging={drag?.id === shot.id}
                    startImage={
                      startImageSlot && model && takesInput(model, 'image')
                        ? startImageSlot(`Shot ${index + 1}`, shot.imageFile ?? null, (imageFile) =>
                            editShot(shot.id, { ...shot, imageFile }, { now: true }),
                          )
                        : null
                    }
                    character={
                      characterSlot
                        ? characterSlot(
                            `Shot ${index + 1}`,
                            shot.characterId ?? null,
                            (characterId) => editShot(shot.id, { ...shot, characterId }, { now: true }),
                            model,
                          )
                        : null
                    }
                  />
                  {drag &&
                  drag.id !== shot.id &&
                  drag.to === draft.shots.length - 1 &&
                  index === draft.shots.length - 1 ? (
                    <div aria-hidden="true" className="h-1 rounded-full bg-violet-600" />
                  ) : null}
                </li>
              );
            })}
          </ol>
        )}
        <Button
          variant="outline"
          className="justify-self-start"
          disabled={draft.shots.length >= MAX_SHOTS}
          onClick={addShot}
        >
          <Plus aria-hidden="true" /> Add shot
        </Button>
        {draft.shots.length >= MAX_SHOTS ? (
          <p className="text-sm text-muted-foreground">A storyboard holds up to {MAX_SHOTS} shots.</p>
        ) : null}
      </div>

      <section className="grid min-w-0 gap-6" aria-label="Film and export">
        <div ref={actionsRef} className="grid scroll-mb-40 gap-6">
          <BoardActions
            render={render}
            film={film}
            outcome={outcome}
            nameOf={nameOf}
            error={boardError}
            newestFilm={newestFilm}
            reasonId={reasonId}
            hideOnPhones={barAction}
          />
        </div>
        <FilmSettings
          draft={draft}
          onChange={edit}
          bed={bedSlot ? bedSlot(draft.bedFile, (bedFile) => edit((d) => ({ ...d, bedFile }), { now: true })) : null}
        />
      </section>

      <div className="fixed inset-x-0 bottom-[calc(4rem+env(safe-area-inset-bottom))] z-30 border-t border-border bg-background/95 px-4 py-2 backdrop-blur md:bottom-0 lg:hidden">
        {barAction === 'render' ? (
          <RenderMissingButton render={render} className="w-full" />
        ) : (
          <MakeFilmButton film={film} reasonId={reasonId} className="w-full" />
        )}
      </div>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </div>
  );
}

/** Whether the drop line goes before the shot at `index` (the dragged shot lands at `drag.to`). */
function dropsBefore(drag: { from: number; to: number }, index: number): boolean {
  // Moving down, the shot lands after the one now at `to`; moving up, before the one at `to`.
  return drag.to < drag.from ? index === drag.to : index === drag.to + 1;
}
