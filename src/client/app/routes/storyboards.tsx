import { Plus } from 'lucide-react';
import { useLocation } from 'wouter';

import { UNTITLED_STORYBOARD } from '../../../shared/storyboards';
import { AppShell } from '../../components/layouts/app-shell';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/use-toast';
import { useCreateStoryboard } from '../../features/storyboards/api/create-storyboard';
import { useStoryboards } from '../../features/storyboards/api/get-storyboards';
import {
  StoryboardList,
  StoryboardsEmpty,
  StoryboardsError,
  StoryboardsLoading,
} from '../../features/storyboards/components/storyboard-list';
import { getServerMessage } from '../../lib/api-client';

/** "New storyboard": makes a board with one empty shot and opens its editor. */
function NewStoryboardButton() {
  const [, navigate] = useLocation();
  const create = useCreateStoryboard();
  return (
    <Button
      variant="brand"
      disabled={create.isPending}
      onClick={() =>
        create.mutate(
          {
            name: UNTITLED_STORYBOARD,
            shots: [{ id: crypto.randomUUID(), description: '', duration: 5, transition: 'cut' }],
          },
          {
            onSuccess: (board) => navigate(`/storyboards/${board.id}`),
            onError: (error) =>
              toast({
                variant: 'destructive',
                title: 'Storyboard not made',
                description: getServerMessage(error) ?? 'The storyboard could not be made. Please try again.',
              }),
          },
        )
      }
    >
      <Plus aria-hidden="true" /> {create.isPending ? 'Making…' : 'New storyboard'}
    </Button>
  );
}

/** /storyboards: the user's boards (issue 47), each opening its editor. */
export function StoryboardsPage() {
  const boards = useStoryboards();
  const hasBoards = (boards.data?.length ?? 0) > 0;
  return (
    <AppShell
      title="Storyboards"
      subtitle="Plan a film shot by shot, then make it"
      actions={hasBoards ? <NewStoryboardButton /> : null}
    >
      {boards.isPending ? (
        <StoryboardsLoading />
      ) : boards.isError ? (
        <StoryboardsError onRetry={() => void boards.refetch()} isRetrying={boards.isFetching} />
      ) : boards.data.length === 0 ? (
        <StoryboardsEmpty action={<NewStoryboardButton />} />
      ) : (
        <StoryboardList boards={boards.data} />
      )}
    </AppShell>
  );
}
