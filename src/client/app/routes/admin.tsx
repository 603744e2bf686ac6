import { ComingSoonPage } from '../../components/layouts/coming-soon-page';

export function AdminPage() {
  return <ComingSoonPage title="Admin Dashboard" description="User management for administrators will be available here." />;
}
