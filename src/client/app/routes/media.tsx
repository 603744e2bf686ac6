import { ComingSoonPage } from '../../components/layouts/coming-soon-page';

export function MediaPage() {
  return <ComingSoonPage title="My Videos" description="Your completed and processing videos, with a player, will be shown here." />;
}
