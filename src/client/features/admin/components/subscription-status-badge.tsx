import { type SubscriptionStatus, subscriptionStatusLabel } from '../../../../shared/auth';
import { cn } from '../../../lib/utils';

const TONES: Record<SubscriptionStatus, string> = {
  premium_unlimited:
    'bg-violet-100 text-violet-800 ring-violet-600/20 dark:bg-violet-500/15 dark:text-violet-200 dark:ring-violet-400/30',
  active:
    'bg-emerald-100 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-500/15 dark:text-emerald-200 dark:ring-emerald-400/30',
  trial: 'bg-sky-100 text-sky-800 ring-sky-600/20 dark:bg-sky-500/15 dark:text-sky-200 dark:ring-sky-400/30',
  inactive: 'bg-muted text-muted-foreground ring-border',
};

/** The subscription status as the admin table shows it: premium_unlimited reads 'Admin'. */
export function SubscriptionStatusBadge({ status }: { status: SubscriptionStatus }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset',
        TONES[status],
      )}
    >
      {subscriptionStatusLabel(status)}
    </span>
  );
}
