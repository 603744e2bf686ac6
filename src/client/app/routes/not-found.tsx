import { ArrowLeft, House } from 'lucide-react';
import { Link } from 'wouter';

import { Brand } from '../../components/layouts/brand';
import { Button, buttonVariants } from '../../components/ui/button';

export function NotFoundPage() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 bg-background px-4 py-10 text-center">
      <Brand />
      <p className="text-7xl font-extrabold tracking-tight text-brand-gradient sm:text-8xl">404</p>
      <div>
        <h1 className="text-2xl font-bold">Page Not Found</h1>
        <p className="mt-2 max-w-md text-muted-foreground">
          The page you're looking for doesn't exist or has been moved.
        </p>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Link href="/" className={buttonVariants({ variant: 'brand' })}>
          <House aria-hidden="true" /> Go Home
        </Link>
        <Button variant="outline" onClick={() => window.history.back()}>
          <ArrowLeft aria-hidden="true" /> Go Back
        </Button>
      </div>
    </main>
  );
}
