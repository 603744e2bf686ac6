import { AuthLayout } from '../../components/layouts/auth-layout';
import { LoginForm } from '../../features/auth/components/login-form';

export function LoginPage() {
  return (
    <AuthLayout title="Welcome back" description="Sign in to create and download your videos.">
      <LoginForm />
    </AuthLayout>
  );
}
