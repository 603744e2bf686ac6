import { ExternalLink, History } from 'lucide-react';
import { Link } from 'wouter';

import { buttonVariants } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/utils';
import { useRecentJobs } from '../api/get-generation-jobs';
import { isUnfinished } from '../format';
import { GenerationProgress } from './generation-progress';
import { StatusBadge } from './status-badge';
import { isExpiredVideo } from '../../../../shared/video-display';
import { ExpiryCountdown } from './expiry-countdown';

/** Spec section 2: the latest 3 jobs, each with its prompt, status and, when ready, 'View Video'. */
export function RecentHistoryCard() {
  const jobs = useRecentJobs();
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle>Recent History</CardTitle>
          <CardDescription>Your latest videos</CardDescription>
        </div>
        <Link href="/history" className={buttonVariants({ variant: 'ghost', size: 'sm' })}>
          <History aria-hidden="true" /> All
        </Link>
      </CardHeader>
      <CardContent>
        {jobs.isPending ? <Spinner label="Loading recent videos" /> : null}
        {jobs.isError ? (
          <p className="text-sm text-muted-foreground">Recent videos are unavailable right now.</p>
        ) : null}
        {jobs.data?.length === 0 ? (
          <p className="text-sm text-muted-foreground">No videos yet. Your first one will show up here.</p>
        ) : null}
        <ul className="grid gap-3">
          {jobs.data?.map((job) => (
            <li key={job.id} className="grid gap-2 rounded-lg border border-border p-3">
              <div className="flex items-start justify-between gap-3">
                <p className="line-clamp-2 text-sm font-medium break-words">{job.textPrompt}</p>
                <StatusBadge status={job.status} expiresAt={job.expiresAt} className="shrink-0" />
              </div>
              {job.expiresAt && isExpiredVideo(job) ? <ExpiryCountdown expiresAt={job.expiresAt} /> : null}
              {isUnfinished(job.status) ? (
                <GenerationProgress variant="bar" progress={job.progress} label={`Progress of ${job.textPrompt}`} />
              ) : null}
              {job.status === 'failed' && job.errorMessage ? (
                <p className="text-xs text-destructive">{job.errorMessage}</p>
              ) : null}
              {job.outputVideoUrl ? (
                <a
                  href={job.outputVideoUrl}
                  target="_blank"
                  rel="noreferrer"
                  className={cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'justify-self-start')}
                >
                  <ExternalLink aria-hidden="true" /> View Video
                </a>
              ) : null}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
