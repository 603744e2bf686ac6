import { Close, Content, Description, Overlay, Portal, Root, Title, Trigger } from '@radix-ui/react-dialog';
import { TriangleAlert } from 'lucide-react';
import { type ReactNode, useState } from 'react';

import { Button } from './button';

interface ConfirmDeleteDialogProps {
  /** The button that opens the dialog. */
  trigger: ReactNode;
  title: string;
  /** What will be deleted, in a sentence. */
  description: ReactNode;
  /** A warning shown under the sentence (a subscription that will be cancelled). */
  warning?: ReactNode;
  /** Fields the deletion needs (a password), between the sentence and the buttons. */
  children?: ReactNode;
  /** True while the delete call is under way: the dialog stays open and its buttons wait. */
  pending: boolean;
  /** Sends the delete call; `closeDialog` closes the dialog once the call has settled. */
  onConfirm: (closeDialog: () => void) => void;
  /** Told when the dialog opens or closes (to clear its fields). */
  onOpenChange?: (open: boolean) => void;
  /** The confirming button's words, and while it waits ('Delete', 'Deleting...' unless given). */
  confirmLabel?: string;
  pendingLabel?: string;
}

/**
 * The one confirmation before deleting something for good, in the style of an alert dialog: the
 * administrator's user deletion and a user's own account deletion. Enter in a field confirms.
 */
export function ConfirmDeleteDialog({
  trigger,
  title,
  description,
  warning,
  children,
  pending,
  onConfirm,
  onOpenChange,
  confirmLabel = 'Delete',
  pendingLabel = 'Deleting...',
}: ConfirmDeleteDialogProps) {
  const [open, setOpen] = useState(false);
  const close = () => {
    setOpen(false);
    onOpenChange?.(false);
  };
  return (
    <Root
      open={open}
      onOpenChange={(next) => {
        // The dialog stays open while the delete call is under way.
        if (pending) return;
        setOpen(next);
        onOpenChange?.(next);
      }}
    >
      <Trigger asChild>{trigger}</Trigger>
      <Portal>
        <Overlay className="fixed inset-0 z-50 bg-black/50 backdrop-blur-[2px]" />
        <Content
          role="alertdialog"
          // An alert dialog is not dismissed by a click outside it; Cancel or Escape closes it.
          onPointerDownOutside={(event) => event.preventDefault()}
          onInteractOutside={(event) => event.preventDefault()}
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl border border-border bg-card p-6 text-card-foreground shadow-xl outline-none"
        >
          <form
            className="grid gap-4"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              if (!pending) onConfirm(close);
            }}
          >
            <div className="flex items-start gap-4">
              <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-destructive/10 text-destructive">
                <TriangleAlert aria-hidden="true" className="size-5" />
              </span>
              <div className="grid min-w-0 gap-2">
                <Title className="text-lg leading-tight font-semibold">{title}</Title>
                <Description className="text-sm break-words text-muted-foreground">{description}</Description>
                {warning ? (
                  <p
                    role="alert"
                    className="rounded-lg bg-warning px-3 py-2 text-sm font-medium text-warning-foreground"
                  >
                    {warning}
                  </p>
                ) : null}
              </div>
            </div>
            {children}
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Close asChild>
                <Button variant="outline" disabled={pending}>
                  Cancel
                </Button>
              </Close>
              <Button type="submit" variant="destructive" disabled={pending}>
                {pending ? pendingLabel : confirmLabel}
              </Button>
            </div>
          </form>
        </Content>
      </Portal>
    </Root>
  );
}
