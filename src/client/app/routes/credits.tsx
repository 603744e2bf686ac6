import { ComingSoonPage } from '../../components/layouts/coming-soon-page';

export function CreditsPage() {
  return <ComingSoonPage title="Credits" description="Buying credit packages will be available here." />;
}
