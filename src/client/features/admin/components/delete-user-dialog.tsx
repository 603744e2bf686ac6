import { Trash2 } from 'lucide-react';

import { ADMIN_DELETE_SUBSCRIPTION_WARNING, type AdminUser, adminDeleteConfirmation } from '../../../../shared/admin';
import { Button } from '../../../components/ui/button';
import { ConfirmDeleteDialog } from '../../../components/ui/confirm-delete-dialog';
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

/** The row's delete button and its confirmation. */
export function DeleteUserDialog({ user, pending, onConfirm, trigger = 'icon' }: DeleteUserDialogProps) {
  return (
    <ConfirmDeleteDialog
      trigger={
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
      }
      title="Delete User"
      description={adminDeleteConfirmation(user.email)}
      warning={user.hasStripeSubscription ? ADMIN_DELETE_SUBSCRIPTION_WARNING : null}
      pending={pending}
      onConfirm={onConfirm}
    />
  );
}
