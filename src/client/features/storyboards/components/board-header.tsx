import { Check, CloudOff, RefreshCw } from 'lucide-react';
import { useId } from 'react';

import { MAX_STORYBOARD_NAME_LENGTH } from '../../../../shared/storyboards';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import type { SaveState } from '../hooks/board-saver';

interface BoardHeaderProps {
  name: string;
  onName: (name: string) => void;
  save: SaveState;
  onRetry: () => void;
  onReload: () => Promise<void>;
}

/** Says quietly how saving goes; a failure says why, with the way out. */
function SaveStatus({ save, onRetry, onReload }: Pick<BoardHeaderProps, 'save' | 'onRetry' | 'onReload'>) {
  if (save.kind === 'conflict' || save.kind === 'failed')
    return (
      <div
        role="alert"
        className="flex flex-wrap items-center gap-3 rounded-lg bg-warning px-3 py-2 text-sm text-warning-foreground"
      >
        <CloudOff aria-hidden="true" className="size-4 shrink-0" />
        <span className="min-w-0 flex-1">{save.message}</span>
        {save.kind === 'conflict' ? (
          <Button size="sm" variant="outline" onClick={() => void onReload()}>
            <RefreshCw aria-hidden="true" /> Reload
          </Button>
        ) : (
          <Button size="sm" variant="outline" onClick={onRetry}>
            Try again
          </Button>
        )}
      </div>
    );
  return (
    <p role="status" className="flex h-6 items-center gap-1.5 text-sm text-muted-foreground">
      {save.kind === 'saved' ? (
        <>
          <Check aria-hidden="true" className="size-4" /> Saved
        </>
      ) : save.kind === 'saving' ? (
        'Saving…'
      ) : (
        'Unsaved changes'
      )}
    </p>
  );
}

/** The board's name, editable, and whether the board on screen is saved. */
export function BoardHeader({ name, onName, save, onRetry, onReload }: BoardHeaderProps) {
  const id = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>Storyboard name</Label>
      <Input
        id={id}
        value={name}
        maxLength={MAX_STORYBOARD_NAME_LENGTH}
        onChange={(event) => onName(event.target.value)}
        className="text-lg font-semibold sm:text-lg"
      />
      <SaveStatus save={save} onRetry={onRetry} onReload={onReload} />
    </div>
  );
}
