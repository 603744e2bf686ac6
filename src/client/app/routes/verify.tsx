import { AuthLayout } from '../../components/layouts/auth-layout';
import { CredentialsCheck } from '../../features/provenance/components/credentials-check';

/** /verify: anyone checks the Content Credentials of a video or picture (issue 42). */
export function VerifyPage() {
  return (
    <AuthLayout
      title="Check Content Credentials"
      description="See whether a video says how it was made: by which AI model, when, from what, and signed by whom."
    >
      <CredentialsCheck />
    </AuthLayout>
  );
}
