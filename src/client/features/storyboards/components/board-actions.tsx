import { Clapperboard, ExternalLink, Play } from 'lucide-react';
import { Link } from 'wouter';

import type { GenerationRecord } from '../../../../shared/generations';
import { formatCreditCount } from '../../../../shared/money/credits';
import type { RenderedShots } from '../../../../shared/storyboards';
import { Button, buttonVariants } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Progress } from '../../../components/ui/progress';
import { cn } from '../../../lib/utils';
import { isRunning } from '../api/get-storyboard';

export interface RenderMissing {
  /** Shots with no take yet, and what rendering them costs (credits). */
  count: number;
  credits: number | null;
  pending: boolean;
  onRender: () => void;
}

export interface MakeFilm {
  /** Why the film cannot be made now; null when it can. */
  blocked: string | null;
  pending: boolean;
  onMake: () => void;
}

/** Render missing shots (N), with the board's price on it. */
export function RenderMissingButton({ render, className }: { render: RenderMissing; className?: string }) {
  const price = render.credits === null || render.count === 0 ? '' : ` · ${formatCreditCount(render.credits)}`;
  return (
    <Button
      variant="brand"
      className={className}
      disabled={render.count === 0 || render.pending}
      onClick={render.onRender}
    >
      <Play aria-hidden="true" />
      {render.pending ? 'Starting…' : `Render missing shots (${render.count})${price}`}
    </Button>
  );
}

/** Make the film, disabled with its reason while a shot has no finished take. */
export function MakeFilmButton({
  film,
  reasonId,
  className,
}: {
  film: MakeFilm;
  reasonId: string;
  className?: string;
}) {
  return (
    <Button
      variant="outline"
      className={className}
      disabled={film.blocked !== null || film.pending}
      aria-describedby={film.blocked ? reasonId : undefined}
      onClick={film.onMake}
    >
      <Clapperboard aria-hidden="true" />
      {film.pending ? 'Starting the film…' : 'Make the film'}
    </Button>
  );
}

/** What the last "Render missing shots" started, and each shot still waiting with why. */
export function RenderOutcome({ outcome, nameOf }: { outcome: RenderedShots; nameOf: (shotId: string) => string }) {
  return (
    <div role="status" className="grid gap-1 rounded-lg bg-muted px-3 py-2 text-sm">
      {outcome.started.length > 0 ? <p>Started: {outcome.started.map((s) => nameOf(s.shotId)).join(', ')}.</p> : null}
      {outcome.waiting.map((wait) => (
        <p key={wait.shotId} className="text-muted-foreground">
          {wait.reason}
        </p>
      ))}
    </div>
  );
}

/** The newest film of the board: its progress, why it failed, or its player with a link to it on the media page. */
export function FilmResult({ film }: { film: GenerationRecord }) {
  if (isRunning(film)) {
    return (
      <div className="grid gap-2" role="status">
        <p className="text-sm font-medium">
          Making the film… {film.progressStage ? `${film.progressStage} · ` : ''}
          {Math.round(film.progress)}%
        </p>
        <Progress value={film.progress} label="Progress of the film" />
      </div>
    );
  }
  if (film.status === 'failed')
    return (
      <p role="alert" className="rounded-lg bg-destructive/10 px-3 py-2 text-sm text-destructive">
        The film could not be made. {film.errorMessage ?? ''}
      </p>
    );
  if (!film.outputVideoUrl) return <p className="text-sm text-muted-foreground">The film’s file is no longer kept.</p>;
  return (
    <div className="grid gap-2">
      <video
        controls
        playsInline
        preload="metadata"
        src={film.outputVideoUrl}
        poster={film.posterUrl ?? undefined}
        aria-label="The film"
        className="aspect-video w-full rounded-lg bg-black"
      />
      <Link
        href={`/media?video=${encodeURIComponent(film.id)}`}
        className={buttonVariants({ variant: 'outline', size: 'sm', className: 'justify-self-start' })}
      >
        <ExternalLink aria-hidden="true" /> Open in Media
      </Link>
    </div>
  );
}

interface BoardActionsProps {
  render: RenderMissing;
  film: MakeFilm;
  outcome: RenderedShots | null;
  nameOf: (shotId: string) => string;
  error: string | null;
  newestFilm: GenerationRecord | undefined;
  reasonId: string;
  /** The button the phone's bottom bar shows instead. */
  hideOnPhones: 'render' | 'film';
}

/** The board's own actions and their results: rendering what is missing, making the film, and the film. */
export function BoardActions({
  render,
  film,
  outcome,
  nameOf,
  error,
  newestFilm,
  reasonId,
  hideOnPhones,
}: BoardActionsProps) {
  return (
    <Card>
      <CardHeader className="pb-4">
        <CardTitle>Render and export</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <div className="grid gap-2">
          <RenderMissingButton render={render} className={cn(hideOnPhones === 'render' && 'max-lg:hidden')} />
          <MakeFilmButton film={film} reasonId={reasonId} className={cn(hideOnPhones === 'film' && 'max-lg:hidden')} />
        </div>
        {film.blocked ? (
          <p id={reasonId} className="text-sm text-muted-foreground">
            {film.blocked}
          </p>
        ) : null}
        {outcome ? <RenderOutcome outcome={outcome} nameOf={nameOf} /> : null}
        {error ? (
          <p role="alert" className="rounded-lg bg-destructive/10 px-3 py-2 text-sm text-destructive">
            {error}
          </p>
        ) : null}
        {newestFilm ? <FilmResult film={newestFilm} /> : null}
      </CardContent>
    </Card>
  );
}
