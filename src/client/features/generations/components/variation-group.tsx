import { Check, Layers } from 'lucide-react';

import type { GenerationRecord } from '../../../../shared/generations';
import { isPlayable } from '../../../../shared/video-display';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/utils';
import { useModels } from '../api/get-models';
import { isUnfinished } from '../format';
import { GenerationProgress } from './generation-progress';
import { StatusBadge } from './status-badge';
import { VideoPoster } from './video-poster';

/** The videos of the selected video's group (variations), oldest first; empty when it has none. */
export function groupOf(videos: GenerationRecord[] | undefined, selected: GenerationRecord | null): GenerationRecord[] {
  const groupId = selected?.groupId;
  if (!groupId || !videos) return [];
  const members = videos.filter((video) => video.groupId === groupId);
  return members.length > 1 ? [...members].sort((a, b) => a.createdAt.localeCompare(b.createdAt)) : [];
}

interface VariationGroupProps {
  videos: GenerationRecord[] | undefined;
  selected: GenerationRecord | null;
  /** Shows that variation in the player, with its Remix and Extend. */
  onPick: (id: string) => void;
}

/**
 * Variations made together, side by side with live progress each; 'Pick this one' shows a finished
 * one in the player, where Remix and Extend carry on from it.
 */
export function VariationGroup({ videos, selected, onPick }: VariationGroupProps) {
  const group = groupOf(videos, selected);
  const models = useModels();
  if (group.length === 0) return null;
  // Compare with another model: the group is one video per model, each named by its model.
  const compared = new Set(group.map((video) => video.model)).size > 1;
  const modelName = (id: string) => models.data?.find((m) => m.id === id)?.name ?? id;
  const done = group.filter((video) => video.status === 'completed').length;
  return (
    <Card role="region" aria-labelledby="variations-heading" className="p-4 sm:p-5">
      <div className="mb-3 flex items-baseline justify-between gap-3">
        <h2 id="variations-heading" className="flex items-center gap-2 text-base font-semibold">
          <Layers aria-hidden="true" className="size-5 text-violet-600 dark:text-violet-400" /> Variations (
          {group.length})
        </h2>
        <p className="text-xs text-muted-foreground tabular-nums">
          {done} of {group.length} ready
        </p>
      </div>
      <ul aria-label="Variations" className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {group.map((video, index) => {
          const current = video.id === selected?.id;
          const label = `Variation ${index + 1}`;
          return (
            <li
              key={video.id}
              aria-label={label}
              className={cn(
                'flex min-w-0 flex-col overflow-hidden rounded-xl border bg-card',
                current ? 'border-violet-500 ring-2 ring-violet-500/30' : 'border-border',
              )}
            >
              <VideoPoster video={video} size="small" />
              <div className="grid gap-2 p-2.5">
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <span className="text-sm font-medium whitespace-nowrap">{label}</span>
                  {isUnfinished(video.status) ? null : (
                    <StatusBadge status={video.status} expiresAt={video.expiresAt} />
                  )}
                </div>
                {compared ? (
                  <span className="text-xs font-medium break-words" data-testid="variation-model">
                    {modelName(video.model)}
                  </span>
                ) : null}
                {video.settings?.seed !== undefined ? (
                  <span className="text-xs text-muted-foreground tabular-nums">Seed {video.settings.seed}</span>
                ) : null}
                {isUnfinished(video.status) ? (
                  <GenerationProgress
                    variant="stage-row"
                    progress={video.progress}
                    stage={video.progressStage}
                    label={`Progress of ${label}`}
                  />
                ) : current ? (
                  <p className="flex h-8 items-center gap-1 text-xs font-medium text-violet-700 dark:text-violet-300">
                    <Check aria-hidden="true" className="size-4" /> In the player
                  </p>
                ) : (
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={!isPlayable(video)}
                    onClick={() => onPick(video.id)}
                    aria-label={`Pick this one: ${label}`}
                  >
                    Pick this one
                  </Button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
