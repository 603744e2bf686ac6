import { MonitorSmartphone } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';

import { Button } from '../ui/button';

// The confirmation loads on first use: most visits never open it.
const SignOutEverywhereDialog = lazy(() =>
  import('./sign-out-everywhere-dialog').then((m) => ({ default: m.SignOutEverywhereDialog })),
);

/** The header's 'Sign out everywhere' (icon only on phones), which asks before ending every session. */
export function SignOutEverywhereButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="ghost" size="sm" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <MonitorSmartphone aria-hidden="true" />
        <span className="sr-only sm:not-sr-only">Sign out everywhere</span>
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <SignOutEverywhereDialog open={open} onOpenChange={setOpen} />
        </Suspense>
      ) : null}
    </>
  );
}
