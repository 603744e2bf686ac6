import { LockKeyhole } from 'lucide-react';
import { Link } from 'wouter';

import { Brand } from '../../../components/layouts/brand';
import { Button, buttonVariants } from '../../../components/ui/button';
import { Card, CardContent } from '../../../components/ui/card';
import { signInPath, useSignInOptions } from '../../../lib/sign-in-options';

export type SignInRequiredVariant = 'default' | 'generator';

const SENTENCES: Record<SignInRequiredVariant, string> = {
  default: 'Please sign in to view this page.',
  generator: 'Please sign in to start creating videos',
};

/** Shown on a signed-in route to a visitor who is not signed in. */
export function SignInRequired({ variant = 'default' }: { variant?: SignInRequiredVariant }) {
  // The spec's link is /api/login: this server's OpenID Connect sign-in when it has one, else the /login form.
  // Until GET /api/auth/providers answers, a disabled button holds its place: the link never changes
  // its target under the visitor's finger.
  const options = useSignInOptions();
  const path = options.isLoading ? null : signInPath(options);
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-8 bg-background px-4 py-10">
      <Brand />
      <Card className="w-full max-w-sm text-center">
        <CardContent className="flex flex-col items-center gap-4 pt-6">
          <span className="flex size-12 items-center justify-center rounded-full bg-muted text-primary">
            <LockKeyhole aria-hidden="true" className="size-6" />
          </span>
          <h1 className="text-xl font-bold">Sign In Required</h1>
          <p className="text-sm text-muted-foreground">{SENTENCES[variant]}</p>
          <div className="grid w-full gap-2">
            {path === null ? (
              <Button variant="brand" disabled aria-busy="true">
                Sign In
              </Button>
            ) : path === '/login' ? (
              <Link href="/login" className={buttonVariants({ variant: 'brand' })}>
                Sign In
              </Link>
            ) : (
              <a href={path} className={buttonVariants({ variant: 'brand' })}>
                Sign In
              </a>
            )}
            <Link href="/register" className={buttonVariants({ variant: 'outline' })}>
              Create Account
            </Link>
          </div>
        </CardContent>
      </Card>
    </main>
  );
}
