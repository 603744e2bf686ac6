import { ChevronDown } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'wouter';

import type { GenerationRecord } from '../../../../shared/generations';
import { sourceTypeLabel } from '../../../../shared/provenance';
import { CredentialsFacts } from '../../../components/provenance/credentials-facts';
import { cn } from '../../../lib/utils';

/**
 * The player's "Content Credentials" mark: what the stored video's signed manifest says (read back
 * from the file when it was stored), opened in place. Videos made before signing began show none.
 */
export function CredentialsMark({ video }: { video: GenerationRecord }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const report = video.credentials;
  if (video.status !== 'completed' || !video.outputVideoUrl || !report?.hasCredentials) return null;
  const summary = [sourceTypeLabel(report.sourceType), report.signedBy ? `signed by ${report.signedBy}` : null]
    .filter(Boolean)
    .join(' · ');
  return (
    <div className="min-w-0 rounded-lg border">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((was) => !was)}
        className="flex w-full items-center gap-3 rounded-lg px-3 py-2 text-left text-sm hover:bg-muted/60 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <span
          aria-hidden="true"
          className="grid size-7 shrink-0 place-items-center rounded-md bg-foreground text-[0.65rem] font-bold tracking-tight text-background"
        >
          CR
        </span>
        <span className="min-w-0 flex-1">
          <span className="block font-semibold">Content Credentials</span>
          <span className="block truncate text-xs text-muted-foreground">{summary}</span>
        </span>
        <ChevronDown
          aria-hidden="true"
          className={cn('size-4 shrink-0 text-muted-foreground transition-transform', open && 'rotate-180')}
        />
      </button>
      {open ? (
        <div id={panelId} className="space-y-3 border-t px-3 py-3">
          <CredentialsFacts report={report} />
          <p className="text-xs text-muted-foreground">
            The downloaded file carries these facts, signed. Anyone can check a copy at{' '}
            <Link href="/verify" className="font-medium text-foreground underline underline-offset-2">
              Check Content Credentials
            </Link>
            .
          </p>
        </div>
      ) : null}
    </div>
  );
}
