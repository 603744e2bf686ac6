import { ComingSoonPage } from '../../components/layouts/coming-soon-page';

export function PaymentCheckoutPage() {
  return <ComingSoonPage title="Checkout" description="Card payment for credits will be available here." />;
}
