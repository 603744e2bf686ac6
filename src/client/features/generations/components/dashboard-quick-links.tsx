import { ArrowRight, Clock, Coins, Film, Sparkles } from 'lucide-react';
import { Link } from 'wouter';

import { retentionTitle, retentionWords } from '../../../lib/retention';
import { cn } from '../../../lib/utils';

const QUICK_LINKS = [
  {
    href: '/generator',
    label: 'Create Video',
    description: 'Describe a scene and generate',
    icon: Sparkles,
    accent: 'bg-linear-to-br from-violet-600 to-fuchsia-600 text-white shadow-md shadow-violet-600/25',
  },
  {
    href: '/credits',
    label: 'Buy Credits',
    description: 'Top up your balance',
    icon: Coins,
    accent: 'bg-fuchsia-500/15 text-fuchsia-700 dark:text-fuchsia-300',
  },
  {
    href: '/media',
    label: 'My Videos',
    description: 'Watch, download and share',
    icon: Film,
    accent: 'bg-violet-500/15 text-violet-700 dark:text-violet-300',
  },
] as const;

/** An unlimited account is not sent to buy credits: the same link reads as its balance. */
const UNLIMITED_CREDITS_LINK = { label: 'Credits', description: 'Unlimited: nothing to buy' };

/** Screens (docs/product-rules.md): links to the generator, the credits page and the media page. */
export function DashboardQuickLinks({ className, unlimited = false }: { className?: string; unlimited?: boolean }) {
  const links = QUICK_LINKS.map((link) =>
    unlimited && link.href === '/credits' ? { ...link, ...UNLIMITED_CREDITS_LINK } : link,
  );
  return (
    <nav aria-label="Quick links" className={cn('grid grid-cols-3 gap-3 sm:gap-4', className)}>
      {links.map(({ href, label, description, icon: Icon, accent }) => (
        <Link
          key={href}
          href={href}
          className="group flex min-w-0 flex-col items-center gap-2 rounded-xl border border-border bg-card p-3 text-center shadow-sm transition-colors outline-none hover:border-violet-500/40 hover:bg-muted/50 focus-visible:ring-2 focus-visible:ring-ring sm:flex-row sm:gap-3 sm:p-4 sm:text-left"
        >
          <span className={cn('flex size-10 shrink-0 items-center justify-center rounded-lg', accent)}>
            <Icon aria-hidden="true" className="size-5" />
          </span>
          <span className="grid min-w-0 flex-1 gap-0.5">
            <span className="text-sm leading-tight font-semibold">{label}</span>
            <span className="hidden truncate text-xs text-muted-foreground sm:block">{description}</span>
          </span>
          <ArrowRight
            aria-hidden="true"
            className="hidden size-4 shrink-0 text-muted-foreground transition-transform group-hover:translate-x-0.5 sm:block"
          />
        </Link>
      ))}
    </nav>
  );
}

/** The storage reminder, with the operator's VIDEO_RETENTION_HOURS (docs/product-rules.md, Retention: users are told repeatedly to download). */
export function DashboardStorageNotice({ className }: { className?: string }) {
  return (
    <aside
      aria-label="Video storage"
      className={cn(
        'flex items-start gap-3 rounded-xl border border-amber-500/30 bg-warning p-4 text-sm text-warning-foreground',
        className,
      )}
    >
      <Clock aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <div className="grid gap-0.5">
        <p className="font-semibold">Important: {retentionTitle()} Video Storage</p>
        <p>
          Videos are stored for {retentionWords()} and then deleted automatically. Download the ones you want to keep.
        </p>
      </div>
    </aside>
  );
}
