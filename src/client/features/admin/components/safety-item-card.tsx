import { Timer } from 'lucide-react';
import { useId } from 'react';

import { REPORT_REASON_LABELS, type SafetyItem } from '../../../../shared/safety';
import { Badge } from '../../../components/ui/badge';
import { cn } from '../../../lib/utils';
import { decisionClock } from '../safety-clock';
import { describeHold } from '../screening-words';
import { SafetyItemDecisions } from './safety-actions';
import { SafetyOwnerPanel } from './safety-owner-panel';
import { SafetyVideoPreview } from './safety-video-preview';

const KINDS = {
  report: { word: 'Report', tone: 'danger' },
  appeal: { word: 'Appeal', tone: 'brand' },
  flag: { word: 'Flagged by screening', tone: 'warning' },
} as const;

const CLOCK_TONES = {
  ok: 'text-muted-foreground',
  soon: 'text-amber-700 dark:text-amber-300',
  overdue: 'font-semibold text-destructive',
} as const;

const timeFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const formatTime = (iso: string) => timeFormat.format(new Date(iso));

/** One open item of the safety queue: what it is, its clock, the words, the video (blurred), its owner and the decisions. */
export function SafetyItemCard({ item, now }: { item: SafetyItem; now: Date }) {
  const titleId = useId();
  const kind = KINDS[item.kind];
  const clock = decisionClock(item.dueAt, now);
  return (
    <article
      aria-labelledby={titleId}
      className="rounded-xl border border-border bg-card text-card-foreground shadow-sm"
    >
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1.5 border-b border-border px-4 py-3 sm:px-5">
        <Badge tone={kind.tone}>{kind.word}</Badge>
        <h3 id={titleId} className="min-w-0 text-sm font-semibold break-words sm:text-base">
          {item.reason ? REPORT_REASON_LABELS[item.reason] : 'Held for review'}
        </h3>
        <span
          className={cn('inline-flex items-center gap-1 text-sm tabular-nums sm:ml-auto', CLOCK_TONES[clock.tone])}
          title={`To decide by ${formatTime(item.dueAt)}`}
        >
          <Timer aria-hidden="true" className="size-4" />
          {clock.text}
        </span>
      </header>
      <div className="grid gap-4 p-4 sm:p-5 md:grid-cols-[minmax(0,16rem)_minmax(0,1fr)] xl:grid-cols-[20rem_minmax(0,1fr)_17rem] xl:gap-5">
        <SafetyVideoPreview video={item.video} missing={missingVideo(item)} />
        <SafetyItemDetails item={item} />
        <div className="border-t border-border pt-4 md:col-span-2 xl:col-span-1 xl:border-t-0 xl:border-l xl:pt-0 xl:pl-5">
          <SafetyOwnerPanel owner={item.owner} />
        </div>
      </div>
      <footer className="flex flex-wrap gap-2 border-t border-border px-4 py-3 sm:px-5">
        <SafetyItemDecisions item={item} />
      </footer>
    </article>
  );
}

/** Why an item shows no video: a job held before it was made, a video taken down, or a file expired or removed. */
function missingVideo(item: SafetyItem): string {
  if (item.kind === 'flag' && item.stage !== 'output') return 'Not made yet: screening held it before it was rendered.';
  if (item.kind === 'appeal') return 'Taken down: its files were deleted.';
  return 'Its file is gone (expired or removed): only its record is left.';
}

function SafetyItemDetails({ item }: { item: SafetyItem }) {
  return (
    <div className="min-w-0 space-y-3 text-sm">
      {item.kind === 'flag' ? (
        <p className="break-words text-amber-700 first-letter:uppercase dark:text-amber-300">
          {describeHold(item.findings, item.stage, 'restore')}
        </p>
      ) : null}
      {item.description || item.kind !== 'flag' ? (
        <figure className="space-y-1">
          <h4 className="text-xs font-medium text-muted-foreground">
            {item.kind === 'appeal' ? "The owner's appeal" : "The reporter's words"}
          </h4>
          <blockquote className="border-l-2 border-border pl-3 break-words whitespace-pre-wrap">
            {item.description || <span className="text-muted-foreground italic">No words given.</span>}
          </blockquote>
          <figcaption className="text-xs break-all text-muted-foreground">
            {item.reporterContact ? `Contact: ${item.reporterContact}` : 'No contact given'}
          </figcaption>
        </figure>
      ) : null}
      {item.video ? (
        <div className="space-y-1">
          <h4 className="text-xs font-medium text-muted-foreground">Prompt</h4>
          <p className="break-words whitespace-pre-wrap">{item.video.prompt}</p>
          <p className="text-xs text-muted-foreground">
            {item.video.model} · made {formatTime(item.video.createdAt)}
          </p>
        </div>
      ) : null}
      <p className="text-xs text-muted-foreground">
        {item.kind === 'flag' ? 'Held' : 'Received'} {formatTime(item.createdAt)}
      </p>
    </div>
  );
}
