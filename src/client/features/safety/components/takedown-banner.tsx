import { Flag, X } from 'lucide-react';

import { DECISION_HOURS, type OwnTakedown, REPORT_REASON_LABELS } from '../../../../shared/safety';
import { Button } from '../../../components/ui/button';
import { useAppealTakedown } from '../api/appeal-takedown';
import { formatWhen } from '../format';
import { AppealDialog } from './appeal-dialog';

interface TakedownBannerProps {
  takedown: OwnTakedown;
  onDismiss: (reportId: string) => void;
}

/**
 * Tells the owner one of their videos was taken down: why, which, the administrator's note, and
 * an Appeal (once). It sits at the foot of the screen where the other banners do.
 */
export function TakedownBanner({ takedown, onDismiss }: TakedownBannerProps) {
  const appeal = useAppealTakedown();
  const sent = appeal.isSuccess ? appeal.data : null;
  const canAppeal = takedown.appeal === null && !sent;
  return (
    <section
      aria-label="Video taken down"
      className="fixed inset-x-3 bottom-[calc(4.75rem+env(safe-area-inset-bottom))] z-40 mx-auto flex max-h-[60dvh] max-w-xl items-start gap-3 overflow-y-auto rounded-xl border border-red-500/50 bg-card p-3 text-card-foreground shadow-xl md:bottom-6"
    >
      <Flag aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-red-600 dark:text-red-400" />
      <div className="grid min-w-0 flex-1 gap-1.5 text-sm">
        <p className="font-semibold">A video of yours was taken down: {REPORT_REASON_LABELS[takedown.reason]}</p>
        <p className="line-clamp-2 break-words text-muted-foreground">
          <span className="sr-only">Its description: </span>“{takedown.prompt || 'Untitled video'}”
        </p>
        <p className="text-xs text-muted-foreground">
          Taken down <time dateTime={takedown.takenDownAt}>{formatWhen(takedown.takenDownAt)}</time>
        </p>
        {takedown.note ? (
          <p className="break-words">
            <span className="font-medium">From the administrator:</span> {takedown.note}
          </p>
        ) : null}
        <AppealStatus takedown={takedown} sent={sent} />
        {canAppeal ? (
          <div className="mt-1">
            <AppealDialog
              reportId={takedown.reportId}
              appeal={appeal}
              trigger={
                <Button size="sm" variant="outline">
                  Appeal
                </Button>
              }
            />
          </div>
        ) : null}
      </div>
      <Button size="icon" variant="ghost" aria-label="Dismiss" onClick={() => onDismiss(takedown.reportId)}>
        <X aria-hidden="true" />
      </Button>
    </section>
  );
}

/** Where the appeal stands: just sent (the server's sentence), waiting, or decided. */
function AppealStatus({ takedown, sent }: { takedown: OwnTakedown; sent: string | null }) {
  if (sent) {
    return (
      <p role="status" className="font-medium text-emerald-700 dark:text-emerald-300">
        {sent}
      </p>
    );
  }
  if (!takedown.appeal) return null;
  if (takedown.appeal.status === 'open') {
    return (
      <p className="font-medium">Your appeal was sent. An administrator will decide within {DECISION_HOURS} hours.</p>
    );
  }
  return <p className="font-medium">Your appeal was decided; we wrote to you with the decision.</p>;
}
