import { Link } from 'wouter';

import { Brand } from '../../../components/layouts/brand';
import { buttonVariants } from '../../../components/ui/button';

export function LandingHeader() {
  return (
    <header className="sticky top-0 z-40 border-b border-border/70 bg-background/85 backdrop-blur">
      <div className="mx-auto flex h-16 w-full max-w-6xl items-center justify-between gap-3 px-4 sm:px-6">
        <Brand />
        <nav aria-label="Account" className="flex items-center gap-1 sm:gap-2">
          <Link href="/login" className={buttonVariants({ variant: 'ghost', size: 'sm' })}>
            Sign In
          </Link>
          <Link href="/register" className={buttonVariants({ variant: 'brand', size: 'sm' })}>
            GET STARTED
          </Link>
        </nav>
      </div>
    </header>
  );
}
