import { MailWarning } from 'lucide-react';

import { Button } from '../../../components/ui/button';
import { getServerMessage } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useResendVerification } from '../api/resend-verification';

/**
 * Shown on every signed-in page until the account's email is verified: where the link went, and a
 * Resend button. Hidden for verified accounts (and for answers from servers that do not say). It sits
 * at the foot of the screen, above the phone's navigation, where it covers none of the page's controls.
 */
export function VerifyEmailBanner() {
  const { user } = useAuth();
  const resend = useResendVerification();
  if (!user || user.emailVerifiedAt !== null) return null;
  const failure = resend.isError
    ? (getServerMessage(resend.error) ?? 'The link could not be sent. Please try again.')
    : null;
  return (
    <section
      aria-label="Verify your email"
      className="fixed inset-x-3 bottom-[calc(4.75rem+env(safe-area-inset-bottom))] z-40 mx-auto flex max-w-xl flex-wrap items-center gap-3 rounded-xl border border-amber-400 bg-card p-3 text-card-foreground shadow-xl md:bottom-6"
    >
      <MailWarning aria-hidden="true" className="size-5 shrink-0 text-amber-600" />
      <p className="min-w-0 flex-1 text-sm">
        Please verify your email: we sent a link to <strong className="break-all">{user.email}</strong>.
        {resend.data ? <span className="block text-muted-foreground">{resend.data}</span> : null}
        {failure ? (
          <span role="alert" className="block text-destructive">
            {failure}
          </span>
        ) : null}
      </p>
      <Button size="sm" variant="outline" disabled={resend.isPending} onClick={() => resend.mutate()}>
        {resend.isPending ? 'Sending...' : 'Resend'}
      </Button>
    </section>
  );
}
