import type { LucideIcon } from 'lucide-react';
import { useId, useState } from 'react';

import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { type SafetyActionTarget, useSafetyAction } from '../api/act-on-safety-item';
import { ActionConfirmDialog } from './action-confirm-dialog';

/** What a safety action's button and confirmation say. */
export interface SafetyActionWords {
  label: string;
  /** The button's accessible name: the label and what it acts on. */
  name: string;
  title: string;
  explain: string;
  icon: LucideIcon;
  destructive: boolean;
  /** The label of an optional note sent with the decision; no note field without it. */
  note?: string;
}

/**
 * One safety action behind a confirmation that says what will happen; a report's or appeal's decision
 * takes an optional note for the people it tells. The server's answer is told in a toast, and the queue
 * refetched.
 */
export function SafetyActionDialog({
  words,
  request,
}: {
  words: SafetyActionWords;
  request: (note: string) => SafetyActionTarget;
}) {
  const [note, setNote] = useState('');
  const noteId = useId();
  const mutation = useSafetyAction();
  const { label, name, title, explain, icon, destructive, note: noteLabel } = words;
  return (
    <ActionConfirmDialog
      label={label}
      name={name}
      icon={icon}
      destructive={destructive}
      redTrigger={destructive}
      title={title}
      explain={explain}
      cancel="Not now"
      pending={mutation.isPending}
      onConfirm={(close) =>
        mutation.mutate(request(note.trim()), {
          onSuccess: (answer) => {
            setNote('');
            toast({ title: answer.message });
          },
          onError: (error) =>
            toast({
              title: `${label} failed`,
              description: getServerMessage(error) ?? error.message,
              variant: 'destructive',
            }),
          onSettled: close,
        })
      }
    >
      {noteLabel ? (
        <div className="grid gap-1.5">
          <Label htmlFor={noteId}>{noteLabel}</Label>
          <Textarea
            id={noteId}
            className="min-h-20"
            maxLength={1000}
            value={note}
            disabled={mutation.isPending}
            onChange={(event) => setNote(event.target.value)}
          />
        </div>
      ) : null}
    </ActionConfirmDialog>
  );
}
