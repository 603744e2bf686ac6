import { LayoutList, RotateCw, Trash2, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

import type { StoryboardSummary } from '../../../../shared/storyboards';
import { formatVideoDate } from '../../../../shared/video-display';
import { Button } from '../../../components/ui/button';
import { ConfirmDeleteDialog } from '../../../components/ui/confirm-delete-dialog';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { useDeleteStoryboard } from '../api/delete-storyboard';

const BOX = 'flex flex-col items-center gap-3 rounded-xl border border-dashed border-border px-6 py-14 text-center';

export function StoryboardsLoading() {
  return (
    <div className="flex justify-center py-16">
      <Spinner label="Loading storyboards" />
    </div>
  );
}

export function StoryboardsError({ onRetry, isRetrying }: { onRetry: () => void; isRetrying: boolean }) {
  return (
    <div role="alert" className={BOX}>
      <TriangleAlert aria-hidden="true" className="size-7 text-destructive" />
      <h2 className="text-lg font-semibold">Storyboards unavailable</h2>
      <p className="max-w-sm text-sm text-muted-foreground">Your storyboards could not be loaded. Please try again.</p>
      <Button variant="outline" onClick={onRetry} disabled={isRetrying}>
        <RotateCw aria-hidden="true" className={isRetrying ? 'animate-spin' : undefined} /> Try Again
      </Button>
    </div>
  );
}

/** No boards yet: what a storyboard is, and the way to make one. */
export function StoryboardsEmpty({ action }: { action: ReactNode }) {
  return (
    <div className={BOX}>
      <span className="flex size-14 items-center justify-center rounded-full bg-linear-to-br from-violet-500/15 to-fuchsia-500/15 text-violet-700 dark:text-violet-300">
        <LayoutList aria-hidden="true" className="size-7" />
      </span>
      <h2 className="text-lg font-semibold">No storyboards yet</h2>
      <p className="max-w-sm text-sm text-muted-foreground">
        Plan a short film as shots in order, render each one, then join them into one video.
      </p>
      {action}
    </div>
  );
}

function DeleteBoardButton({ board }: { board: StoryboardSummary }) {
  const remove = useDeleteStoryboard();
  return (
    <ConfirmDeleteDialog
      trigger={
        <Button variant="ghost" size="icon" aria-label={`Delete ${board.name}`} title="Delete">
          <Trash2 aria-hidden="true" />
        </Button>
      }
      title="Delete this storyboard?"
      description={`“${board.name}” and its shots are deleted. Its takes and films stay among your videos.`}
      pending={remove.isPending}
      onConfirm={(close) =>
        remove.mutate(board.id, {
          onSuccess: () => toast({ title: 'Storyboard deleted', description: board.name }),
          onError: (error) =>
            toast({
              variant: 'destructive',
              title: 'Not deleted',
              description: getServerMessage(error) ?? 'The storyboard could not be deleted. Please try again.',
            }),
          onSettled: close,
        })
      }
    />
  );
}

/** The user's boards, the latest edited first: name, shots, how many are ready, when last edited. */
export function StoryboardList({ boards }: { boards: readonly StoryboardSummary[] }) {
  return (
    <ul aria-label="Storyboards" className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
      {boards.map((board) => (
        <li
          key={board.id}
          className="flex items-start gap-2 rounded-xl border border-border bg-card p-4 text-card-foreground shadow-sm"
        >
          <div className="grid min-w-0 flex-1 gap-1">
            <Link
              href={`/storyboards/${board.id}`}
              className="block truncate py-2 text-lg font-semibold underline-offset-4 sm:py-0 hover:underline focus-visible:underline focus-visible:outline-none"
            >
              {board.name}
            </Link>
            <p className="text-sm text-muted-foreground">
              {board.shots === 1 ? '1 shot' : `${board.shots} shots`} · {board.readyShots} ready
            </p>
            <p className="text-xs text-muted-foreground">Edited {formatVideoDate(board.updatedAt)}</p>
          </div>
          <DeleteBoardButton board={board} />
        </li>
      ))}
    </ul>
  );
}
