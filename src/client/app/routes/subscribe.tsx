import { ComingSoonPage } from '../../components/layouts/coming-soon-page';

export function SubscribePage() {
  return <ComingSoonPage title="Subscription" description="Daily generations and extra generation packs will be available here." />;
}
