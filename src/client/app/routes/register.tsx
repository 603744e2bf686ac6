import { AuthLayout } from '../../components/layouts/auth-layout';
import { RegisterForm } from '../../features/auth/components/register-form';

export function RegisterPage() {
  return (
    <AuthLayout title="Create your account" description="Start making short AI videos in minutes.">
      <RegisterForm />
    </AuthLayout>
  );
}
