import { Close, Content, Description, Overlay, Portal, Root, Title, Trigger } from '@radix-ui/react-dialog';
import { Trash2, TriangleAlert } from 'lucide-react';
import { useState } from 'react';

import { ADMIN_DELETE_SUBSCRIPTION_WARNING, type AdminUser, adminDeleteConfirmation } from '../../../../shared/admin';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';

interface DeleteUserDialogProps {
  user: AdminUser;
  /** True while this user's delete call is under way. */
  pending: boolean;
  /** Sends the delete call; `closeDialog` closes the dialog once the call has settled. */
  onConfirm: (closeDialog: () => void) => void;
  /** An icon in the table's Actions cell, or a worded 44 px button on a phone's card. */
  trigger?: 'icon' | 'labelled';
}

/** The row's delete button and its confirmation, in the style of an alert dialog. */
export function DeleteUserDialog({ user, pending, onConfirm, trigger = 'icon' }: DeleteUserDialogProps) {
  const [open, setOpen] = useState(false);
  return (
    <Root
      open={open}
      onOpenChange={(next) => {
        // The dialog stays open while the delete call is under way.
        if (!pending) setOpen(next);
      }}
    >
      <Trigger asChild>
        <Button
          variant="ghost"
          size={trigger === 'icon' ? 'icon' : 'default'}
          aria-label={`Delete ${user.email}`}
          title="Delete"
          className={cn(
            'text-destructive hover:bg-destructive/10',
            trigger === 'icon' ? 'size-9' : 'h-11 border border-destructive/30',
          )}
        >
          <Trash2 aria-hidden="true" />
          {trigger === 'labelled' ? 'Delete' : null}
        </Button>
      </Trigger>
      <Portal>
        <Overlay className="fixed inset-0 z-50 bg-black/50 backdrop-blur-[2px]" />
        <Content
          role="alertdialog"
          // An alert dialog is not dismissed by a click outside it; Cancel or Escape closes it.
          onPointerDownOutside={(event) => event.preventDefault()}
          onInteractOutside={(event) => event.preventDefault()}
          className="fixed top-1/2 left-1/2 z-50 grid w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 rounded-xl border border-border bg-card p-6 text-card-foreground shadow-xl outline-none"
        >
          <div className="flex items-start gap-4">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-destructive/10 text-destructive">
              <TriangleAlert aria-hidden="true" className="size-5" />
            </span>
            <div className="grid gap-2">
              <Title className="text-lg leading-tight font-semibold">Delete User</Title>
              <Description className="text-sm break-words text-muted-foreground">
                {adminDeleteConfirmation(user.email)}
              </Description>
              {user.hasStripeSubscription ? (
                <p role="alert" className="rounded-lg bg-warning px-3 py-2 text-sm font-medium text-warning-foreground">
                  {ADMIN_DELETE_SUBSCRIPTION_WARNING}
                </p>
              ) : null}
            </div>
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Close asChild>
              <Button variant="outline" disabled={pending}>
                Cancel
              </Button>
            </Close>
            <Button variant="destructive" disabled={pending} onClick={() => onConfirm(() => setOpen(false))}>
              {pending ? 'Deleting...' : 'Delete'}
            </Button>
          </div>
        </Content>
      </Portal>
    </Root>
  );
}
