import { lazy, Suspense } from 'react';

// The steps load when first needed: most visits never open them.
const InstallHelpDialog = lazy(() => import('./install-help-dialog').then((m) => ({ default: m.InstallHelpDialog })));

/** The install help dialog, loaded on first open. */
export function InstallHelp({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <InstallHelpDialog open={open} onOpenChange={onOpenChange} />
    </Suspense>
  );
}
