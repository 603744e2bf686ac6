import { InstallBanner } from '../features/install/components/install-banner';
import { FirstTimeTour } from '../features/onboarding/components/first-time-tour';

/** What rides along every signed-in screen: the first-time tour and the install banner (its own chunk). */
export function SignedInExtras() {
  return (
    <>
      <FirstTimeTour />
      <InstallBanner />
    </>
  );
}
