import { ComingSoonPage } from '../../components/layouts/coming-soon-page';

export function HistoryPage() {
  return <ComingSoonPage title="Generation History" description="The list of your video generations will be shown here." />;
}
