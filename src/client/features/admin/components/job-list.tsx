import type { AdminJob } from '../../../../shared/admin-jobs';
import { Badge } from '../../../components/ui/badge';
import { describeHold } from '../screening-words';
import { JobActionDialog } from './job-action-dialog';

const TONES = { pending: 'warning', processing: 'brand', completed: 'success', failed: 'danger' } as const;
const timeFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** Jobs as cards that fit a phone and a desktop alike: who, what, where it runs, why it failed, and its actions. */
export function JobList({ jobs, empty }: { jobs: AdminJob[]; empty: string }) {
  if (jobs.length === 0) return <p className="text-sm text-muted-foreground">{empty}</p>;
  return (
    <ul className="divide-y divide-border">
      {jobs.map((job) => (
        <li key={job.id} className="grid gap-2 py-3 lg:grid-cols-[1fr_auto] lg:items-start lg:gap-4">
          <div className="min-w-0 space-y-1">
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <Badge tone={TONES[job.status]}>{job.status}</Badge>
              <span className="font-medium break-all">{job.userEmail}</span>
              <span className="text-muted-foreground">{job.model}</span>
              <span className="text-muted-foreground tabular-nums">{timeFormat.format(new Date(job.createdAt))}</span>
            </div>
            <p className="line-clamp-2 text-sm break-words">{job.prompt}</p>
            <p className="text-xs text-muted-foreground">
              Attempt {job.attempts}
              {job.worker ? ` on ${job.worker}` : ''}
              {job.status === 'processing' ? ` · ${job.progress}% ${job.stage ?? ''}` : ''}
              {' · '}
              {job.paidWith === 'credits'
                ? `${job.creditsCharged} ${job.creditsCharged === 1 ? 'credit' : 'credits'}`
                : `paid: ${job.paidWith}`}
              {job.refunded ? ' · refunded' : ''}
              {/* A failed job is re-run once: the console says so instead of offering it again. */}
              {job.rerunId ? ' · re-run made' : ''}
            </p>
            {job.errorMessage ? <p className="text-xs break-words text-destructive">{job.errorMessage}</p> : null}
            {job.heldForReview ? (
              <>
                <p className="text-xs break-words text-amber-700 dark:text-amber-300">
                  Held for review: {describeHold(job.heldForReview.findings, job.heldForReview.stage)}
                </p>
                {job.heldForReview.video ? (
                  <video
                    className="mt-1 max-h-48 w-full max-w-xs rounded-md bg-black"
                    src={job.heldForReview.video}
                    poster={job.heldForReview.poster ?? undefined}
                    controls
                    preload="none"
                    aria-label="The held video"
                  />
                ) : null}
              </>
            ) : null}
          </div>
          <div className="flex flex-wrap gap-2">
            {job.heldForReview ? (
              <>
                <JobActionDialog job={job} action="approve" />
                <JobActionDialog job={job} action="reject" />
              </>
            ) : null}
            {(job.status === 'pending' || job.status === 'processing') && job.heldForReview?.stage !== 'output' ? (
              <JobActionDialog job={job} action="cancel" />
            ) : null}
            {job.status === 'failed' && !job.rerunId ? <JobActionDialog job={job} action="rerun" /> : null}
            {job.status === 'failed' && !job.refunded && job.paidWith !== 'unlimited' && job.paidWith !== 'operator' ? (
              <JobActionDialog job={job} action="refund" />
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
