import { buttonVariants } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';

function ReplitIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-4">
      <path fill="#F26207" d="M5 3.5A1.5 1.5 0 0 1 6.5 2h5A1.5 1.5 0 0 1 13 3.5V8H6.5A1.5 1.5 0 0 1 5 6.5z" />
      <path fill="#F26207" d="M13 8h5.5A1.5 1.5 0 0 1 20 9.5v5a1.5 1.5 0 0 1-1.5 1.5H13z" />
      <path fill="#F26207" d="M5 17.5A1.5 1.5 0 0 1 6.5 16H13v4.5a1.5 1.5 0 0 1-1.5 1.5h-5A1.5 1.5 0 0 1 5 20.5z" />
    </svg>
  );
}

function GoogleIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-4">
      <path fill="#4285F4" d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.5h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.2-2.1 3.5-5.1 3.5-8.8z" />
      <path fill="#34A853" d="M12 24c3.2 0 6-1.1 7.9-2.9l-3.9-3c-1 .7-2.4 1.1-4 1.1-3.1 0-5.7-2.1-6.6-4.9h-4v3.1A12 12 0 0 0 12 24z" />
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

/** The two external sign-ins are full browser navigations, so they are plain links. */
export function ExternalSignInButtons({ layout = 'stack', className }: ExternalSignInButtonsProps) {
  const linkClass = cn(buttonVariants({ variant: 'outline', size: 'lg' }), 'w-full');
  return (
    <div className={cn('grid gap-3', layout === 'row' && 'sm:grid-cols-2', className)}>
      <a href="/api/login" className={linkClass}>
        <ReplitIcon /> Continue with Replit
      </a>
      <a href="/api/auth/google" className={linkClass}>
        <GoogleIcon /> Continue with Google
      </a>
    </div>
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
