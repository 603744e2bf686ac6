import { InstallBanner } from '../features/install/components/install-banner';
import { VerifyEmailBanner } from '../features/email-verification/components/verify-email-banner';
import { usePresence } from '../features/notifications/presence';
import { FirstTimeTour } from '../features/onboarding/components/first-time-tour';
import { TakedownBanner } from '../features/safety/components/takedown-banner';
import { useTakedownNotice } from '../features/safety/hooks/use-takedown-notice';
import { useAuth } from '../lib/auth';
import { useSignInOptions } from '../lib/sign-in-options';

/**
 * What rides along every signed-in screen: the first-time tour, and one banner at the foot of the
 * screen: a video of theirs taken down (until dismissed for the session); else, until the email is
 * verified (only where this server sends mail, so a link can reach it), the verification banner;
 * otherwise the install banner. It also tells the server while this tab is
 * in front of its user (no notification then). Its own chunk.
 */
export function SignedInExtras() {
  const { user } = useAuth();
  const options = useSignInOptions();
  usePresence();
  const notice = useTakedownNotice();
  const mustVerify = Boolean(user && user.emailVerifiedAt === null && options.passwordReset);
  return (
    <>
      <FirstTimeTour />
      {notice.takedown ? (
        <TakedownBanner key={notice.takedown.reportId} takedown={notice.takedown} onDismiss={notice.dismiss} />
      ) : mustVerify ? (
        <VerifyEmailBanner />
      ) : (
        <InstallBanner />
      )}
    </>
  );
}
