import { AuthLayout } from '../../components/layouts/auth-layout';
import { ForgotPasswordForm } from '../../features/auth/components/forgot-password-form';

export function ForgotPasswordPage() {
  return (
    <AuthLayout title="Forgot your password?" description="We will email you a link to choose a new one.">
      <ForgotPasswordForm />
    </AuthLayout>
  );
}
