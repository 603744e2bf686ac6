import { AuthLayout } from '../../components/layouts/auth-layout';
import { ResetPasswordForm } from '../../features/auth/components/reset-password-form';

export function ResetPasswordPage() {
  return (
    <AuthLayout title="Choose a new password" description="Then you are signed in right away.">
      <ResetPasswordForm />
    </AuthLayout>
  );
}
