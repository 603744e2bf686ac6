import { Check, TriangleAlert } from 'lucide-react';

import type { GenerationRecord } from '../../../../shared/generations';
import type { StoryboardShot } from '../../../../shared/storyboards';
import { describeStatus } from '../../../../shared/video-display';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Progress } from '../../../components/ui/progress';
import { isRunning } from '../api/get-storyboard';

interface ShotTakesProps {
  shotName: string;
  takes: StoryboardShot['takes'];
  usedTakeId: string | null;
  onChoose: (takeId: string) => void;
}

/** A take's progress in words: its stage, or its place in the queue. */
function progressWords(take: GenerationRecord): string {
  if (take.status === 'pending')
    return take.queuePosition ? `Waiting, ${take.queuePosition} in the queue` : 'Waiting to start';
  return `${take.progressStage ?? 'Rendering'} · ${Math.round(take.progress)}%`;
}

/**
 * A shot's renders, newest first: a picture of each finished one (the one the film uses marked,
 * the others offered in its place), the progress of one being made, why one failed.
 */
export function ShotTakes({ shotName, takes, usedTakeId, onChoose }: ShotTakesProps) {
  if (takes.length === 0) return <p className="text-sm text-muted-foreground">No takes yet.</p>;
  return (
    <ul aria-label={`Takes of ${shotName}`} className="flex snap-x gap-3 overflow-x-auto pb-1">
      {takes.map((take, index) => {
        const number = takes.length - index;
        const name = `Take ${number}`;
        const used = take.id === usedTakeId;
        return (
          <li
            key={take.id}
            aria-label={`${name}${used ? ', in use' : ''}`}
            className="grid w-36 shrink-0 snap-start content-start gap-1.5 text-xs sm:w-40"
          >
            <div
              className={
                used
                  ? 'relative aspect-video overflow-hidden rounded-lg bg-muted ring-2 ring-violet-600 dark:ring-violet-400'
                  : 'relative aspect-video overflow-hidden rounded-lg border border-border bg-muted'
              }
            >
              {take.status === 'completed' && take.posterUrl ? (
                <img src={take.posterUrl} alt={`${name} of ${shotName}`} className="size-full object-cover" />
              ) : take.status === 'failed' ? (
                <div className="flex size-full items-center justify-center text-destructive">
                  <TriangleAlert aria-hidden="true" className="size-5" />
                </div>
              ) : isRunning(take) ? (
                <div className="flex size-full flex-col justify-end gap-1 p-2">
                  <Progress value={take.progress} label={`Progress of ${name} of ${shotName}`} className="h-1.5" />
                </div>
              ) : null}
              {used ? (
                <Badge tone="brand" className="absolute top-1 left-1 bg-background/90">
                  <Check aria-hidden="true" /> In use
                </Badge>
              ) : null}
            </div>
            <div className="flex items-center justify-between gap-1">
              <span className="font-medium">{name}</span>
              <span className="text-muted-foreground">{describeStatus(take.status).label}</span>
            </div>
            {isRunning(take) ? <p className="text-muted-foreground">{progressWords(take)}</p> : null}
            {take.status === 'failed' ? (
              <p className="break-words text-destructive">{take.errorMessage ?? 'This take failed.'}</p>
            ) : null}
            {take.status === 'completed' && !used ? (
              <Button
                variant="outline"
                size="sm"
                className="h-8 text-xs"
                aria-label={`Use this take: ${name} of ${shotName}`}
                onClick={() => onChoose(take.id)}
              >
                Use this take
              </Button>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
