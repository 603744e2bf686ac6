import { ShieldCheck } from 'lucide-react';

import { useAuth } from '../../../lib/auth';

/** The footer of the payment screens (spec section 2: payments are secure). */
export function SecurePaymentsNote() {
  return (
    <p className="flex items-center justify-center gap-2 text-center text-xs text-muted-foreground">
      <ShieldCheck aria-hidden="true" className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400" />
      Payments are secure and processed by Stripe. Your card details never reach our servers.
    </p>
  );
}

/** The log-out link of /payment-checkout and /subscribe: a browser navigation to /api/logout, which signs out and goes home. */
export function LogOutLink() {
  const { user } = useAuth();
  return (
    <p className="text-center text-sm text-muted-foreground">
      {user ? (
        <>
          Signed in as <span className="font-medium break-all text-foreground">{user.email}</span> ·{' '}
        </>
      ) : null}
      <a href="/api/logout" className="font-medium text-primary underline-offset-4 hover:underline focus-visible:underline focus-visible:outline-none">
        Log out
      </a>
    </p>
  );
}
