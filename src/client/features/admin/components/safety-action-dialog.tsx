import { Close, Content, Description, Overlay, Portal, Root, Title, Trigger } from '@radix-ui/react-dialog';
import type { LucideIcon } from 'lucide-react';
import { useId, useState } from 'react';

import { Button } from '../../../components/ui/button';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { type SafetyActionTarget, useSafetyAction } from '../api/act-on-safety-item';

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
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState('');
  const noteId = useId();
  const mutation = useSafetyAction();
  const { label, name, title, explain, icon: Icon, destructive, note: noteLabel } = words;
  const handleConfirm = () =>
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
      onSettled: () => setOpen(false),
    });
  return (
    <Root open={open} onOpenChange={(next) => (mutation.isPending ? undefined : setOpen(next))}>
      <Trigger asChild>
        <Button
          variant="outline"
          size="sm"
          aria-label={name}
          className={destructive ? 'text-destructive hover:text-destructive' : undefined}
        >
          <Icon aria-hidden="true" /> {label}
        </Button>
      </Trigger>
      <Portal>
        <Overlay className="fixed inset-0 z-50 bg-black/50 backdrop-blur-[2px]" />
        <Content
          role="alertdialog"
          onPointerDownOutside={(event) => event.preventDefault()}
          className="fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-xl border border-border bg-card p-6 text-card-foreground shadow-xl outline-none"
        >
          <Title className="text-lg leading-tight font-semibold break-words">{title}</Title>
          <Description className="text-sm break-words text-muted-foreground">{explain}</Description>
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
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Close asChild>
              <Button variant="outline" disabled={mutation.isPending}>
                Not now
              </Button>
            </Close>
            <Button
              variant={destructive ? 'destructive' : 'default'}
              disabled={mutation.isPending}
              onClick={handleConfirm}
            >
              {mutation.isPending ? 'Working...' : label}
            </Button>
          </div>
        </Content>
      </Portal>
    </Root>
  );
}
