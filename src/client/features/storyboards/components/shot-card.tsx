import { ArrowDown, ArrowUp, Copy, GripVertical, RefreshCw, Play, Trash2 } from 'lucide-react';
import { type ComponentProps, type ReactNode, useId } from 'react';

import { FILM_TRANSITION_LABELS, FILM_TRANSITIONS } from '../../../../shared/films';
import { MAX_PROMPT_LENGTH } from '../../../../shared/generations';
import type { ModelInfo } from '../../../../shared/models';
import { formatCreditCount, toCredits } from '../../../../shared/money/credits';
import type { Shot, ShotState, StoryboardShot } from '../../../../shared/storyboards';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Switch } from '../../../components/ui/switch';
import { Textarea } from '../../../components/ui/textarea';
import { cn } from '../../../lib/utils';
import { SecondsField, SelectField } from './fields';
import { ShotControls } from './shot-controls';
import { ShotTakes } from './shot-takes';

const STATES: Record<ShotState, { label: string; tone: 'neutral' | 'warning' | 'success' }> = {
  missing: { label: 'No take yet', tone: 'neutral' },
  rendering: { label: 'Rendering', tone: 'warning' },
  ready: { label: 'Ready', tone: 'success' },
};

export interface ShotCardProps {
  shot: Shot;
  index: number;
  count: number;
  /** The shot as the server has it (its state and takes); undefined until the new shot is saved. */
  stored: StoryboardShot | undefined;
  model: ModelInfo | undefined;
  models: readonly ModelInfo[];
  /** What a render costs, in hundredths of a credit; null while the catalogue loads. */
  price: number | null;
  onChange: (next: Shot, options?: { now?: boolean }) => void;
  onDuplicate: () => void;
  onDelete: () => void;
  onMove: (to: number) => void;
  onRender: () => void;
  rendering: boolean;
  /** The last render's refusal, in the server's words. */
  renderError: string | null;
  /** The drag handle's behaviour (hooks/use-reorder.ts). */
  handle: Omit<ComponentProps<'button'>, 'ref'> & { ref: (element: HTMLElement | null) => void };
  handleHelpId: string;
  dragging: boolean;
  /** The start image slot (the uploads feature's), when the shot's model takes an image. */
  startImage: ReactNode;
  /** The character slot (the characters feature's picker). */
  character?: ReactNode;
  /** A shot just added or duplicated: its description takes the focus. */
  autoFocus: boolean;
}

/** One shot of the board: its words, its controls, how it goes into the film, its takes and actions. */
export function ShotCard(props: ShotCardProps) {
  const { shot, index, count, stored, model, models, price, onChange } = props;
  const name = `Shot ${index + 1}`;
  const descriptionId = useId();
  const captionId = useId();
  const previousId = useId();
  const state = stored?.state ?? 'missing';
  const takes = stored?.takes ?? [];
  const trimInvalid = shot.trimStart != null && shot.trimEnd != null && shot.trimEnd <= shot.trimStart;
  return (
    <article
      aria-labelledby={`${descriptionId}-title`}
      className={cn(
        'grid grid-cols-[minmax(0,1fr)] gap-4 rounded-xl border border-border bg-card p-4 text-card-foreground shadow-sm sm:p-5',
        props.dragging && 'opacity-70 ring-2 ring-violet-600 dark:ring-violet-400',
      )}
    >
      <header className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          {...props.handle}
          aria-label={`Reorder ${name}`}
          aria-describedby={props.handleHelpId}
          className="-ml-1 inline-flex size-11 shrink-0 cursor-grab touch-none items-center justify-center rounded-lg text-muted-foreground outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring aria-pressed:bg-violet-600 aria-pressed:text-white sm:size-10"
        >
          <GripVertical aria-hidden="true" className="size-5" />
        </button>
        <h3 id={`${descriptionId}-title`} className="text-lg font-semibold">
          {name}
        </h3>
        <Badge tone={STATES[state].tone}>{STATES[state].label}</Badge>
        <span className="ml-auto text-sm text-muted-foreground tabular-nums">
          {price === null ? null : formatCreditCount(toCredits(price))}
        </span>
      </header>

      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <div className="grid content-start gap-3">
          <div className="grid gap-1.5">
            <Label htmlFor={descriptionId}>What happens in {name}</Label>
            <Textarea
              id={descriptionId}
              value={shot.description}
              maxLength={MAX_PROMPT_LENGTH}
              placeholder="The keeper climbs the spiral stairs with a lamp"
              autoFocus={props.autoFocus}
              onChange={(event) => onChange({ ...shot, description: event.target.value })}
            />
          </div>
          {index > 0 ? (
            <div className="flex items-center gap-3">
              <Switch
                id={previousId}
                checked={shot.fromPrevious}
                onCheckedChange={(fromPrevious) => onChange({ ...shot, fromPrevious }, { now: true })}
              />
              <label htmlFor={previousId} className="text-sm font-medium">
                Start from the previous shot’s last frame
              </label>
            </div>
          ) : null}
          {shot.fromPrevious && index > 0 ? null : props.startImage}
          {props.character}
          <div className="grid gap-1.5">
            <Label htmlFor={captionId}>Caption</Label>
            <Input
              id={captionId}
              value={shot.caption ?? ''}
              maxLength={200}
              placeholder="Words along the bottom of the shot (optional)"
              onChange={(event) => onChange({ ...shot, caption: event.target.value })}
            />
          </div>
          <div className="grid grid-cols-2 gap-3">
            <SecondsField
              label="Trim in (s)"
              value={shot.trimStart ?? null}
              min={0}
              max={60}
              placeholder="Start"
              onChange={(trimStart) => onChange({ ...shot, trimStart })}
            />
            <SecondsField
              label="Trim out (s)"
              value={shot.trimEnd ?? null}
              min={0.1}
              max={60}
              placeholder="End"
              hint={trimInvalid ? 'Trim out must come after trim in.' : undefined}
              onChange={(trimEnd) => onChange({ ...shot, trimEnd })}
            />
          </div>
        </div>
        <div className="grid content-start gap-3">
          <ShotControls shot={shot} model={model} models={models} onChange={onChange} />
          {index < count - 1 ? (
            <SelectField
              label={`Into ${`Shot ${index + 2}`}`}
              value={shot.transition}
              options={FILM_TRANSITIONS.map((kind) => ({ value: kind, label: FILM_TRANSITION_LABELS[kind] }))}
              onChange={(transition) => onChange({ ...shot, transition }, { now: true })}
            />
          ) : null}
        </div>
      </div>

      <div className="grid min-w-0 gap-2">
        <ShotTakes
          shotName={name}
          takes={takes}
          usedTakeId={stored?.usedTakeId ?? null}
          onChoose={(takeId) => onChange({ ...shot, chosenTakeId: takeId }, { now: true })}
        />
      </div>

      {props.renderError ? (
        <p role="alert" className="rounded-lg bg-destructive/10 px-3 py-2 text-sm text-destructive">
          {props.renderError}
        </p>
      ) : null}

      <footer className="flex flex-wrap items-center gap-2">
        <Button
          variant={takes.length > 0 ? 'outline' : 'brand'}
          onClick={props.onRender}
          disabled={props.rendering || shot.description.trim() === ''}
          title={shot.description.trim() === '' ? `Say what happens in ${name} first` : undefined}
          // The visible words first (WCAG 2.5.3), then which shot.
          aria-label={`${takes.length > 0 ? 'Render again' : 'Render'}${
            price === null ? '' : ` · ${formatCreditCount(toCredits(price))}`
          }, ${name}`}
        >
          {takes.length > 0 ? <RefreshCw aria-hidden="true" /> : <Play aria-hidden="true" />}
          {props.rendering ? 'Starting…' : takes.length > 0 ? 'Render again' : 'Render'}
          {price === null ? null : (
            <span className="font-normal opacity-80">· {formatCreditCount(toCredits(price))}</span>
          )}
        </Button>
        <div className="ml-auto flex flex-wrap gap-1">
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Move ${name} up`}
            title="Move up"
            disabled={index === 0}
            onClick={() => props.onMove(index - 1)}
          >
            <ArrowUp aria-hidden="true" />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Move ${name} down`}
            title="Move down"
            disabled={index === count - 1}
            onClick={() => props.onMove(index + 1)}
          >
            <ArrowDown aria-hidden="true" />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Duplicate ${name}`}
            title="Duplicate"
            onClick={props.onDuplicate}
          >
            <Copy aria-hidden="true" />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Delete ${name}`}
            title="Delete"
            className="text-muted-foreground hover:text-destructive"
            onClick={props.onDelete}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      </footer>
    </article>
  );
}
