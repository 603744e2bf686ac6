import { RefreshCw } from 'lucide-react';
import { useState } from 'react';

import { Button } from '../../../components/ui/button';
import { useWaitingUpdate } from '../update-prompt-store';

/** 'New version available': a release is waiting in the service worker; Reload switches to it. */
export function UpdatePrompt() {
  const applyUpdate = useWaitingUpdate();
  const [later, setLater] = useState(false);
  if (!applyUpdate || later) return null;
  return (
    <section
      aria-label="Update"
      role="status"
      className="fixed inset-x-3 top-3 z-50 mx-auto flex max-w-md items-center gap-3 rounded-xl border border-border bg-card p-3 text-card-foreground shadow-xl"
    >
      <RefreshCw aria-hidden="true" className="size-5 shrink-0 text-primary" />
      <p className="min-w-0 flex-1 text-sm font-semibold">New version available</p>
      <Button size="sm" variant="ghost" onClick={() => setLater(true)}>
        Later
      </Button>
      <Button size="sm" onClick={applyUpdate}>
        Reload
      </Button>
    </section>
  );
}
