import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog';

interface InstallHelpDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

const PLATFORMS = [
  {
    title: 'iPhone and iPad (Safari)',
    steps: [
      'Tap the Share button (the square with an arrow pointing up).',
      'Scroll down and tap Add to Home Screen.',
      'Tap Add in the top-right corner.',
    ],
  },
  {
    title: 'Android (Chrome)',
    steps: [
      'Tap the menu button (three dots) at the top right.',
      'Tap Install app or Add to Home screen.',
      'Tap Install to confirm.',
    ],
  },
  {
    title: 'Desktop browsers',
    steps: [
      'Chrome and Edge: click the install icon at the right of the address bar, or open the menu and choose Install Reelsmith.',
      'Safari on a Mac: choose File, then Add to Dock.',
      'Firefox: bookmark this page; Firefox does not install web apps.',
    ],
  },
] as const;

/** Screens (docs/product-rules.md): the steps per platform, for when the browser offers no install prompt. */
export function InstallHelpDialog({ open, onOpenChange }: InstallHelpDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogTitle>Add Reelsmith to your Home Screen</DialogTitle>
        <DialogDescription>
          Your browser installs Reelsmith from its own menu. Here is where to find it.
        </DialogDescription>
        <div className="grid gap-4">
          {PLATFORMS.map(({ title, steps }) => (
            <section key={title} aria-label={title} className="rounded-lg border border-border p-4">
              <h3 className="font-semibold">{title}</h3>
              <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-muted-foreground">
                {steps.map((step) => (
                  <li key={step}>{step}</li>
                ))}
              </ol>
            </section>
          ))}
        </div>
      </DialogContent>
    </Dialog>
  );
}
