import { useAuth, useLogout } from '../../../lib/auth';

/**
 * 'Signed in as … · Log out' on /payment-checkout and /subscribe. Signing out is a POST (a GET
 * /api/logout only asks, since any site can send a GET); then the browser goes home.
 */
export function SignOutLink() {
  const { user } = useAuth();
  const logout = useLogout();
  return (
    <p className="text-center text-sm text-muted-foreground">
      {user ? (
        <>
          Signed in as <span className="font-medium break-all text-foreground">{user.email}</span> ·{' '}
        </>
      ) : null}
      <button
        type="button"
        onClick={() => logout.mutate()}
        disabled={logout.isPending}
        className="inline-flex min-h-6 cursor-pointer items-center font-medium text-primary max-md:min-h-11 underline-offset-4 hover:underline focus-visible:underline focus-visible:outline-none disabled:opacity-60"
      >
        Log out
      </button>
    </p>
  );
}
