import { Link } from 'wouter';

import { Brand } from '../../../components/layouts/brand';
import { retentionWords } from '../../../lib/retention';

const linkClass =
  'inline-flex min-h-6 items-center rounded-sm text-sm text-muted-foreground hover:text-foreground max-md:min-h-11 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none';

export function LandingFooter() {
  return (
    <footer className="border-t border-border">
      <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-10 sm:flex-row sm:items-start sm:justify-between sm:px-6">
        <div className="max-w-sm">
          <Brand />
          <p className="mt-3 text-sm text-muted-foreground">
            Generated videos are stored for {retentionWords()} and then deleted automatically. Download the ones you
            want to keep.
          </p>
        </div>
        <nav aria-label="Footer" className="flex gap-6">
          <Link href="/login" className={linkClass}>
            Sign In
          </Link>
          <Link href="/register" className={linkClass}>
            Create Account
          </Link>
        </nav>
      </div>
      <p className="border-t border-border py-4 text-center text-xs text-muted-foreground">
        © {new Date().getFullYear()} Reelsmith
      </p>
    </footer>
  );
}
