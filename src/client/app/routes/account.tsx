import { AppShell } from '../../components/layouts/app-shell';
import { BackLink } from '../../components/layouts/back-link';
import { ReceiptsSection } from '../../features/payments/components/receipts-section';

/**
 * /account: the user's receipts. A minimal page of issue 19; the account page of issue 17 takes
 * the ReceiptsSection among its own sections when the two are merged.
 */
export function AccountPage() {
  return (
    <AppShell title="Account" subtitle="Your payments and receipts" actions={<BackLink href="/generator">Back to Generator</BackLink>}>
      <div className="mx-auto grid w-full max-w-4xl gap-6">
        <ReceiptsSection />
      </div>
    </AppShell>
  );
}
