import { MonitorSmartphone } from 'lucide-react';

import { getServerMessage } from '../../lib/api-client';
import { useLogoutEverywhere } from '../../lib/auth';
import { Button } from '../ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '../ui/dialog';

interface SignOutEverywhereDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Asks before ending every session of the account; on success the browser goes to /login with a notice. */
export function SignOutEverywhereDialog({ open, onOpenChange }: SignOutEverywhereDialogProps) {
  const logoutEverywhere = useLogoutEverywhere();
  // After success the page is being replaced: keep the buttons off until it is.
  const busy = logoutEverywhere.isPending || logoutEverywhere.isSuccess;
  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <DialogContent role="alertdialog" hideClose className="max-w-md">
        <div className="flex items-start gap-4">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-destructive/10 text-destructive">
            <MonitorSmartphone aria-hidden="true" className="size-5" />
          </span>
          <div className="grid gap-2">
            <DialogTitle>Sign out everywhere?</DialogTitle>
            <DialogDescription>
              This signs your account out on every device and browser, this one included. Use it if you signed in on a
              shared or lost device. You will need your password to sign in again.
            </DialogDescription>
          </div>
        </div>
        {logoutEverywhere.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {getServerMessage(logoutEverywhere.error) ?? 'We could not sign you out everywhere.'} Please try again.
          </p>
        ) : null}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <DialogClose asChild>
            <Button variant="outline" disabled={busy}>
              Cancel
            </Button>
          </DialogClose>
          <Button variant="destructive" onClick={() => logoutEverywhere.mutate()} disabled={busy}>
            {busy ? 'Signing out...' : 'Sign out everywhere'}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
