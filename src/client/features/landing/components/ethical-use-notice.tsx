import { ShieldAlert } from 'lucide-react';

export function EthicalUseNotice() {
  return (
    <section aria-labelledby="ethical-use-title" className="mx-auto w-full max-w-6xl px-4 sm:px-6">
      <div className="flex gap-4 rounded-xl border border-amber-300/60 bg-warning p-5 text-warning-foreground dark:border-amber-500/30">
        <ShieldAlert aria-hidden="true" className="mt-0.5 size-6 shrink-0" />
        <div>
          <h2 id="ethical-use-title" className="font-semibold">
            Use Reelsmith responsibly
          </h2>
          <p className="mt-1 text-sm">
            Creating deepfakes of real people without their consent, graphic violence or pornography is forbidden. Only
            upload material you have the right to use.
          </p>
        </div>
      </div>
    </section>
  );
}
