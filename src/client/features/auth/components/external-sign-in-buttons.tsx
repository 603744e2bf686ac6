import { KeyRound } from 'lucide-react';

import { buttonVariants } from '../../../components/ui/button';
import { useSignInOptions } from '../../../lib/sign-in-options';
import { cn } from '../../../lib/utils';

function SingleSignOnIcon() {
  return <KeyRound aria-hidden="true" className="size-4 text-violet-600 dark:text-violet-400" />;
}

function GoogleIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-4">
      <path
        fill="#4285F4"
        d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.5h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.2-2.1 3.5-5.1 3.5-8.8z"
      />
      <path
        fill="#34A853"
        d="M12 24c3.2 0 6-1.1 7.9-2.9l-3.9-3c-1 .7-2.4 1.1-4 1.1-3.1 0-5.7-2.1-6.6-4.9h-4v3.1A12 12 0 0 0 12 24z"
      />
      <path fill="#FBBC05" d="M5.4 14.3a7.2 7.2 0 0 1 0-4.6V6.6h-4a12 12 0 0 0 0 10.8z" />
      <path fill="#EA4335" d="M12 4.8c1.7 0 3.3.6 4.5 1.8l3.4-3.4A12 12 0 0 0 1.4 6.6l4 3.1C6.3 6.9 8.9 4.8 12 4.8z" />
    </svg>
  );
}

interface ExternalSignInButtonsProps {
  /** 'row' puts the buttons side by side from the sm breakpoint; cards keep them stacked. */
  layout?: 'stack' | 'row';
  className?: string;
}

/**
 * The external sign-ins this server has configured (GET /api/auth/providers), as plain links: they
 * are full browser navigations. Nothing at all when none is configured.
 */
export function ExternalSignInButtons({ layout = 'stack', className }: ExternalSignInButtonsProps) {
  const { oidc, google } = useSignInOptions();
  if (!oidc && !google) return null;
  const linkClass = cn(buttonVariants({ variant: 'outline', size: 'lg' }), 'w-full');
  return (
    <div className={cn('grid gap-3', layout === 'row' && oidc && google && 'sm:grid-cols-2', className)}>
      {oidc ? (
        <a href="/api/login" className={linkClass}>
          <SingleSignOnIcon /> {oidc.label}
        </a>
      ) : null}
      {google ? (
        <a href="/api/auth/google" className={linkClass}>
          <GoogleIcon /> Continue with Google
        </a>
      ) : null}
    </div>
  );
}

/** The external sign-ins and the "or" below them, when any is configured. */
export function ExternalSignInSection() {
  const { oidc, google } = useSignInOptions();
  if (!oidc && !google) return null;
  return (
    <>
      <ExternalSignInButtons />
      <OrDivider />
    </>
  );
}

/** "or" between the external sign-ins and the email form. */
export function OrDivider() {
  return (
    <div className="my-6 flex items-center gap-3 text-xs font-medium text-muted-foreground uppercase">
      <span className="h-px flex-1 bg-border" />
      or
      <span className="h-px flex-1 bg-border" />
    </div>
  );
}
