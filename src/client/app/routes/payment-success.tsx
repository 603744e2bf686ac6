import { ComingSoonPage } from '../../components/layouts/coming-soon-page';

export function PaymentSuccessPage() {
  return <ComingSoonPage title="Payment" description="Payment confirmations will be shown here." />;
}
