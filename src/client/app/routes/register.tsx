import { Link } from 'wouter';

import { REGISTRATION_CLOSED_MESSAGE } from '../../../shared/accounts';
import { AuthLayout } from '../../components/layouts/auth-layout';
import { buttonVariants } from '../../components/ui/button';
import { OperatorContactLink } from '../../components/ui/operator-contact-link';
import { RegisterForm } from '../../features/auth/components/register-form';
import { useSignInOptions } from '../../lib/sign-in-options';

export function RegisterPage() {
  const { registrationOpen, operatorContact } = useSignInOptions();
  if (!registrationOpen) {
    // A server kept to its accounts: say so before anyone fills in a form the server would refuse.
    return (
      <AuthLayout title="No new accounts" description={REGISTRATION_CLOSED_MESSAGE}>
        <div className="grid gap-4 text-sm">
          {operatorContact ? (
            <p>
              The person who runs it: <OperatorContactLink contact={operatorContact} />
            </p>
          ) : null}
          <Link href="/login" className={buttonVariants({ variant: 'outline' })}>
            Sign in to your account
          </Link>
        </div>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Create your account" description="Start making short AI videos in minutes.">
      <RegisterForm />
    </AuthLayout>
  );
}
