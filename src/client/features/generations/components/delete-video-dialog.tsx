import { Trash2, TriangleAlert } from 'lucide-react';
import { type ReactElement, useState } from 'react';

import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { useDeleteGeneration } from '../api/delete-generation';

interface DeleteVideoDialogProps {
  videoId: string;
  /** The button that opens the confirmation. */
  trigger: ReactElement;
  /** 'server' shows the server's message on failure (dashboard); 'generic' the media page's sentence. */
  failureText: 'server' | 'generic';
  onDeleted?: () => void;
}

/** Confirm, then delete: 'Deleting...' while pending, then the spec's success or failure toast. */
export function DeleteVideoDialog({ videoId, trigger, failureText, onDeleted }: DeleteVideoDialogProps) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteGeneration();
  // Through the promise, not mutate's callbacks: the live update of the deletion may remove this
  // dialog's video (and the dialog) before the answer arrives, and the toast must still show.
  const confirm = () =>
    remove.mutateAsync(videoId).then(
      () => {
        setOpen(false);
        toast({ title: 'Video Deleted', description: 'The video and its inputs have been permanently removed.' });
        onDeleted?.();
      },
      (error: unknown) => {
        setOpen(false);
        const description =
          failureText === 'server'
            ? (getServerMessage(error) ?? 'Unable to delete the video. Please try again.')
            : 'Unable to delete the video. Please try again.';
        toast({ title: 'Delete Failed', description, variant: 'destructive' });
      },
    );
  return (
    <Dialog open={open} onOpenChange={(next) => !remove.isPending && setOpen(next)}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent role="alertdialog" hideClose className="max-w-md">
        <div className="flex items-start gap-4">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-destructive/10 text-destructive">
            <TriangleAlert aria-hidden="true" className="size-5" />
          </span>
          <div className="grid gap-2">
            <DialogTitle>Delete this video?</DialogTitle>
            <DialogDescription>
              The video and its uploaded inputs will be permanently removed. This cannot be undone.
            </DialogDescription>
          </div>
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <DialogClose asChild>
            <Button variant="outline" disabled={remove.isPending}>
              Cancel
            </Button>
          </DialogClose>
          <Button variant="destructive" onClick={confirm} disabled={remove.isPending}>
            <Trash2 aria-hidden="true" /> {remove.isPending ? 'Deleting...' : 'Delete'}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
