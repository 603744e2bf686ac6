import { Download, X } from 'lucide-react';
import { useEffect, useState } from 'react';

import { Button } from '../../../components/ui/button';
import { isInstallDismissed, promptInstall, rememberInstallDismissed, useInstallState } from '../install-prompt';
import { InstallHelp } from './install-help';

/** Browser timings (docs/product-rules.md): the install banner appears 30 seconds in, or as soon as the browser offers installation. */
export const INSTALL_BANNER_DELAY_MS = 30_000;

/**
 * Screens (docs/product-rules.md): hidden when running installed; shown when the browser offers install or after 30
 * seconds unless dismissed earlier; hidden after accept, install or dismiss (a dismissal is remembered).
 */
export function InstallBanner() {
  const { canPrompt, installed, standalone } = useInstallState();
  const [delayPassed, setDelayPassed] = useState(false);
  const [dismissed, setDismissed] = useState(isInstallDismissed);
  const [accepted, setAccepted] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);

  useEffect(() => {
    if (dismissed) return;
    const timer = setTimeout(() => setDelayPassed(true), INSTALL_BANNER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [dismissed]);

  const visible = (canPrompt || delayPassed) && !dismissed && !accepted && !installed && !standalone;
  const handleInstall = async () => {
    const outcome = await promptInstall();
    if (outcome === 'unavailable') setHelpOpen(true);
    else setAccepted(outcome === 'accepted');
  };
  const handleDismiss = () => {
    rememberInstallDismissed();
    setDismissed(true);
  };

  return (
    <>
      {visible ? (
        <section
          aria-label="Install Reelsmith"
          className="fixed inset-x-3 bottom-[calc(4.75rem+env(safe-area-inset-bottom))] z-40 mx-auto flex max-w-xl items-center gap-3 rounded-xl border border-border bg-card p-3 text-card-foreground shadow-xl md:bottom-6"
        >
          <img src="/icons/icon-192.png" alt="" width={40} height={40} className="size-10 shrink-0 rounded-lg" />
          <p className="min-w-0 flex-1 text-sm">
            <span className="block font-semibold">Install Reelsmith</span>
            <span className="hidden text-muted-foreground sm:inline">Open it from your home screen like an app.</span>
          </p>
          <Button size="sm" variant="brand" onClick={() => void handleInstall()}>
            <Download aria-hidden="true" /> Install
          </Button>
          <Button size="icon" variant="ghost" aria-label="Dismiss" onClick={handleDismiss}>
            <X aria-hidden="true" />
          </Button>
        </section>
      ) : null}
      <InstallHelp open={helpOpen} onOpenChange={setHelpOpen} />
    </>
  );
}
