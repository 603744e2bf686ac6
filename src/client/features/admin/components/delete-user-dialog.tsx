import { Trash2 } from 'lucide-react';

import { ADMIN_DELETE_SUBSCRIPTION_WARNING, type AdminUser, adminDeleteConfirmation } from '../../../../shared/admin';
import { Button } from '../../../components/ui/button';
import { ConfirmDeleteDialog } from '../../../components/ui/confirm-delete-dialog';

interface DeleteUserDialogProps {
  user: AdminUser;
  /** True while this user's delete call is under way. */
  pending: boolean;
  /** Sends the delete call; `closeDialog` closes the dialog once the call has settled. */
  onConfirm: (closeDialog: () => void) => void;
}

/** The row's delete button and its confirmation. */
export function DeleteUserDialog({ user, pending, onConfirm }: DeleteUserDialogProps) {
  return (
    <ConfirmDeleteDialog
      trigger={
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Delete ${user.email}`}
          className="size-8 text-destructive hover:bg-destructive/10"
        >
          <Trash2 aria-hidden="true" />
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
