import { ArrowLeft, Film } from 'lucide-react';
import { Link } from 'wouter';

import { AppShell } from '../../components/layouts/app-shell';
import { buttonVariants } from '../../components/ui/button';
import { useGenerations } from '../../features/generations/api/get-generations';
import { HistoryList } from '../../features/generations/components/history-list';
import { HistoryEmpty, HistoryError, HistoryLoading } from '../../features/generations/components/history-states';

/** The generation history (docs/product-rules.md, Screens): every video with its status, cost and, once ready, a link to it. */
export function HistoryPage() {
  const videos = useGenerations();
  return (
    <AppShell title="Generation History" subtitle="Every video you have generated" actions={<HistoryLinks />}>
      {videos.isPending ? (
        <HistoryLoading />
      ) : videos.isError ? (
        <HistoryError onRetry={() => void videos.refetch()} isRetrying={videos.isFetching} />
      ) : videos.data.length === 0 ? (
        <HistoryEmpty />
      ) : (
        <HistoryList records={videos.data} />
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
