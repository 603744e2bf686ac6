import { History } from 'lucide-react';
import { Link } from 'wouter';

import { buttonVariants } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { useRecentGenerations } from '../api/get-generations';
import { GenerationRow } from './generation-row';

/** Screens (docs/product-rules.md): the latest 3 videos (of the one list), each shown as the history page shows it, in short. */
export function RecentHistoryCard() {
  const recent = useRecentGenerations();
  return (
    <Card className="render-when-near">
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
        {recent.isPending ? <Spinner label="Loading recent videos" /> : null}
        {recent.isError ? (
          <p className="text-sm text-muted-foreground">Recent videos are unavailable right now.</p>
        ) : null}
        {recent.data?.length === 0 ? (
          <p className="text-sm text-muted-foreground">No videos yet. Your first one will show up here.</p>
        ) : null}
        <ul aria-label="Recent videos" className="grid gap-3">
          {recent.data?.map((record) => (
            <GenerationRow key={record.id} record={record} compact />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
