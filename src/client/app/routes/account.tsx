import { AppShell } from '../../components/layouts/app-shell';
import { ReceiptsSection } from '../../features/payments/components/receipts-section';
import { ApiTokensSection } from '../../features/account/components/api-tokens-section';
import { AccountDetailsSection } from '../../features/account/components/account-details-section';
import { DeleteAccountSection } from '../../features/account/components/delete-account-section';
import { PasswordSection } from '../../features/account/components/password-section';
import { SecurityEventsSection } from '../../features/account/components/security-events-section';
import { SignInMethodsSection } from '../../features/account/components/sign-in-methods-section';
import { NotificationsSection } from '../../features/notifications/components/notifications-section';
import { WebhooksSection } from '../../features/webhooks/components/webhooks-section';

/** /account: one section per concern; another section is one more line here. */
export function AccountPage() {
  return (
    <AppShell
      title="Account"
      subtitle="Your details and password, the ways you sign in and their security activity, notifications, access tokens, receipts, webhooks, and deleting your account."
    >
      <div className="grid gap-6">
        <AccountDetailsSection />
        <PasswordSection />
        <SignInMethodsSection />
        <SecurityEventsSection />
        <NotificationsSection />
        <ApiTokensSection />
        <ReceiptsSection />
        <WebhooksSection />
        <DeleteAccountSection />
      </div>
    </AppShell>
  );
}
