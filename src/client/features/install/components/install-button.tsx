import { Smartphone } from 'lucide-react';
import { useState } from 'react';

import { Button } from '../../../components/ui/button';
import { promptInstall, useInstallState } from '../install-prompt';
import { InstallHelp } from './install-help';

/** Screens (docs/product-rules.md): the generator's install button; the browser's own prompt when it offers one, else the steps. */
export function InstallButton() {
  const { installed, standalone } = useInstallState();
  const [helpOpen, setHelpOpen] = useState(false);
  if (installed || standalone) return null;
  const handleClick = async () => {
    if ((await promptInstall()) === 'unavailable') setHelpOpen(true);
  };
  return (
    <>
      <Button variant="outline" onClick={() => void handleClick()}>
        <Smartphone aria-hidden="true" /> Add Reelsmith to Home Screen
      </Button>
      <InstallHelp open={helpOpen} onOpenChange={setHelpOpen} />
    </>
  );
}
