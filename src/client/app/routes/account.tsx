import { AppShell } from '../../components/layouts/app-shell';
import { ReceiptsSection } from '../../features/payments/components/receipts-section';
import { ApiTokensSection } from '../../features/account/components/api-tokens-section';
import { AccountDetailsSection } from '../../features/account/components/account-details-section';
import { SignInMethodsSection } from '../../features/account/components/sign-in-methods-section';
import { NotificationsSection } from '../../features/notifications/components/notifications-section';
import { WebhooksSection } from '../../features/webhooks/components/webhooks-section';

/** /account: one section per concern; another section is one more line here. */
export function AccountPage() {
  return (
    <AppShell
      title="Account"
      subtitle="Your details, the ways you sign in, notifications, access tokens, webhooks and receipts."
    >
      <div className="grid gap-6">
        <AccountDetailsSection />
        <SignInMethodsSection />
        <NotificationsSection />
        <ApiTokensSection />
        <ReceiptsSection />
        <WebhooksSection />
      </div>
    </AppShell>
  );
}
