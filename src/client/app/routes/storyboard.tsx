import { ArrowLeft, RotateCw, TriangleAlert } from 'lucide-react';
import { Link, useParams } from 'wouter';

import { AppShell } from '../../components/layouts/app-shell';
import { Button, buttonVariants } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { CharacterPicker } from '../../features/characters/components/character-picker';
import { useModels } from '../../features/generations/api/get-models';
import { useStoryboard } from '../../features/storyboards/api/get-storyboard';
import { BoardEditor } from '../../features/storyboards/components/board-editor';
import { ImageSlot } from '../../features/uploads/components/keyframe-slots';
import { getServerMessage } from '../../lib/api-client';
import { AudioBedSlot } from './storyboard-bed';

function BackToBoards() {
  return (
    <Link href="/storyboards" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
      <ArrowLeft aria-hidden="true" /> All storyboards
    </Link>
  );
}

/**
 * /storyboards/:id: one board's editor (issue 47), with the catalogue of the generations feature and
 * the upload slots of the uploads feature for each shot's start image and the film's audio bed.
 */
export function StoryboardPage() {
  const { id = '' } = useParams<{ id: string }>();
  const board = useStoryboard(id);
  const models = useModels();
  return (
    <AppShell
      title="Storyboard"
      subtitle="Shots in order, rendered, then one film"
      width="wide"
      actions={<BackToBoards />}
    >
      {board.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner label="Loading the storyboard" />
        </div>
      ) : board.isError ? (
        <div
          role="alert"
          className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-border px-6 py-14 text-center"
        >
          <TriangleAlert aria-hidden="true" className="size-7 text-destructive" />
          <p className="max-w-md">
            {getServerMessage(board.error) ?? 'The storyboard could not be loaded. Please try again.'}
          </p>
          <Button variant="outline" onClick={() => void board.refetch()} disabled={board.isFetching}>
            <RotateCw aria-hidden="true" /> Try Again
          </Button>
        </div>
      ) : (
        <BoardEditor
          key={board.data.id}
          board={board.data}
          models={models.data}
          startImageSlot={(_shotName, value, onChange) => (
            <ImageSlot
              label="Start frame"
              objectPath={value ?? undefined}
              onUploaded={onChange}
              onRemove={() => onChange(null)}
            />
          )}
          characterSlot={(shotName, value, onChange, model) => (
            <CharacterPicker
              value={value}
              onChange={onChange}
              mode={model?.character}
              label={`Character in ${shotName.toLowerCase()}`}
            />
          )}
          bedSlot={(value, onChange) => <AudioBedSlot objectPath={value} onChange={onChange} />}
        />
      )}
    </AppShell>
  );
}
