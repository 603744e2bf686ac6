import { UserCheck } from 'lucide-react';
import { type Ref, useId } from 'react';

import { LIKENESS_CONSENT_STATEMENT } from '../../../../shared/moderation';

interface LikenessConsentProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  inputRef?: Ref<HTMLInputElement>;
}

/**
 * Real people only with consent (issue 43): shown once the server has found a face in a chosen picture;
 * Generate then sends the confirmation, which is kept with the video.
 */
export function LikenessConsent({ checked, onChange, inputRef }: LikenessConsentProps) {
  const hintId = useId();
  return (
    <div className="grid gap-2 rounded-lg border border-amber-300/60 bg-warning p-3 text-warning-foreground dark:border-amber-500/30">
      <p id={hintId} className="flex items-center gap-2 text-sm font-semibold">
        <UserCheck aria-hidden="true" className="size-4 shrink-0" /> A picture you chose shows a person
      </p>
      <label className="flex min-h-11 items-start gap-3 text-sm sm:min-h-8">
        <input
          ref={inputRef}
          type="checkbox"
          className="mt-0.5 size-4 shrink-0 accent-primary"
          checked={checked}
          aria-describedby={hintId}
          onChange={(event) => onChange(event.target.checked)}
        />
        <span>{LIKENESS_CONSENT_STATEMENT}</span>
      </label>
    </div>
  );
}
