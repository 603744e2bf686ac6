import { AppShell } from '../../components/layouts/app-shell';
import { ReceiptsSection } from '../../features/payments/components/receipts-section';
import { AccountDetailsSection } from '../../features/account/components/account-details-section';
import { SignInMethodsSection } from '../../features/account/components/sign-in-methods-section';

/** /account: one section per concern; another section is one more line here. */
export function AccountPage() {
  return (
    <AppShell title="Account" subtitle="Your details, the ways you sign in, and your receipts.">
      <div className="grid gap-6">
        <AccountDetailsSection />
        <SignInMethodsSection />
        <ReceiptsSection />
      </div>
    </AppShell>
  );
}
