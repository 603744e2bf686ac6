import { ArrowLeft, Film } from 'lucide-react';
import { Link } from 'wouter';

import { AppShell } from '../../components/layouts/app-shell';
import { buttonVariants } from '../../components/ui/button';
import { useGenerationJobs } from '../../features/generations/api/get-generation-jobs';
import { HistoryJobList } from '../../features/generations/components/history-job-list';
import { HistoryEmpty, HistoryError, HistoryLoading } from '../../features/generations/components/history-states';

/** The generation history (spec section 2): every job with its status, cost and, once ready, its video. */
export function HistoryPage() {
  const jobs = useGenerationJobs();
  return (
    <AppShell title="Generation History" subtitle="Every video you have generated" actions={<HistoryLinks />}>
      {jobs.isPending ? (
        <HistoryLoading />
      ) : jobs.isError ? (
        <HistoryError onRetry={() => void jobs.refetch()} isRetrying={jobs.isFetching} />
      ) : jobs.data.length === 0 ? (
        <HistoryEmpty />
      ) : (
        <HistoryJobList jobs={jobs.data} />
      )}
    </AppShell>
  );
}

function HistoryLinks() {
  return (
    <nav aria-label="History links" className="flex flex-wrap gap-2">
      <Link href="/generator" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
        <ArrowLeft aria-hidden="true" /> Back to Generator
      </Link>
      <Link href="/media" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
        <Film aria-hidden="true" /> My Videos
      </Link>
    </nav>
  );
}
