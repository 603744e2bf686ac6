import { type FormEvent, type ReactNode, useId, useState } from 'react';

import { DECISION_HOURS, newAppealSchema } from '../../../../shared/safety';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { getServerMessage } from '../../../lib/api-client';
import type { useAppealTakedown } from '../api/appeal-takedown';

interface AppealDialogProps {
  reportId: string;
  /** The banner's mutation, so the banner can say the appeal was sent once the dialog closes. */
  appeal: ReturnType<typeof useAppealTakedown>;
  trigger: ReactNode;
}

/** The owner's one appeal against a takedown: why the video should not have been taken down. */
export function AppealDialog({ reportId, appeal, trigger }: AppealDialogProps) {
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const id = useId();
  const failure = appeal.isError
    ? (getServerMessage(appeal.error) ?? 'The appeal could not be sent. Please try again.')
    : null;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = newAppealSchema.safeParse({ message });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'Say why the video should not have been taken down.');
      document.getElementById(id)?.focus();
      return;
    }
    setFieldError(null);
    appeal.mutate({ reportId, message: parsed.data.message }, { onSuccess: () => setOpen(false) });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (appeal.isPending) return;
        setOpen(next);
        if (next) appeal.reset();
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogTitle>Appeal the takedown</DialogTitle>
        <DialogDescription>
          Say why the video should not have been taken down. An administrator reads it and decides within{' '}
          {DECISION_HOURS} hours. You can appeal once.
        </DialogDescription>
        <form onSubmit={handleSubmit} noValidate className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor={id}>Your appeal</Label>
            <Textarea
              id={id}
              name="message"
              rows={5}
              maxLength={2000}
              value={message}
              onChange={(event) => setMessage(event.target.value)}
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={fieldError ? `${id}-error` : undefined}
            />
            {fieldError ? (
              <p id={`${id}-error`} className="text-sm font-medium text-destructive">
                {fieldError}
              </p>
            ) : null}
          </div>
          {failure ? (
            <p role="alert" className="text-sm font-medium text-destructive">
              {failure}
            </p>
          ) : null}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button variant="outline" disabled={appeal.isPending}>
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={appeal.isPending}>
              {appeal.isPending ? 'Sending...' : 'Send Appeal'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
