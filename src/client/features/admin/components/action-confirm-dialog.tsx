import { Close, Content, Description, Overlay, Portal, Root, Title, Trigger } from '@radix-ui/react-dialog';
import type { LucideIcon } from 'lucide-react';
import { type ReactNode, useState } from 'react';

import { Button } from '../../../components/ui/button';

export interface ActionConfirmDialogProps {
  /** The button's and the confirmation's verb ("Refund", "Take down"). */
  label: string;
  /** The button's accessible name: the label and what it acts on. */
  name: string;
  icon: LucideIcon;
  /** Red confirmation (and a red button where `redTrigger`): the action removes or refuses something. */
  destructive: boolean;
  redTrigger?: boolean;
  title: string;
  explain: string;
  /** What the way out says ("Keep it", "Not now"). */
  cancel: string;
  /** Fields between the words and the buttons (a note to send with the decision). */
  children?: ReactNode;
  pending: boolean;
  /** Runs the action; `close` shuts the dialog once its answer is in, whatever it is. */
  onConfirm: (close: () => void) => void;
}

/**
 * An administrator's action behind a confirmation that says what will happen (the jobs console's and
 * the safety queue's): a modal alert dialog that an outside click does not close, whose buttons wait
 * while the action runs, and which cannot be closed half-way.
 */
export function ActionConfirmDialog({
  label,
  name,
  icon: Icon,
  destructive,
  redTrigger = false,
  title,
  explain,
  cancel,
  children,
  pending,
  onConfirm,
}: ActionConfirmDialogProps) {
  const [open, setOpen] = useState(false);
  return (
    <Root open={open} onOpenChange={(next) => (pending ? undefined : setOpen(next))}>
      <Trigger asChild>
        <Button
          variant="outline"
          size="sm"
          aria-label={name}
          className={redTrigger ? 'text-destructive hover:text-destructive' : undefined}
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
          {children}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Close asChild>
              <Button variant="outline" disabled={pending}>
                {cancel}
              </Button>
            </Close>
            <Button
              variant={destructive ? 'destructive' : 'default'}
              disabled={pending}
              onClick={() => onConfirm(() => setOpen(false))}
            >
              {pending ? 'Working...' : label}
            </Button>
          </div>
        </Content>
      </Portal>
    </Root>
  );
}
