import type { AdminUser } from '../../../../shared/admin';
import { cn } from '../../../lib/utils';
import { formatNumber } from '../format';

/** First and last name together; empty when the user gave neither. */
export function userName(user: AdminUser): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ');
}

/** The user's own daily spend cap, when an administrator set one. */
export function DailyCapNote({ user, className }: { user: AdminUser; className?: string }) {
  if (user.dailySpendCap == null) return null;
  return (
    <span className={cn('text-xs whitespace-nowrap text-muted-foreground', className)}>
      {user.dailySpendCap === 0 ? 'No daily cap' : `Cap ${formatNumber(user.dailySpendCap)}/day`}
    </span>
  );
}
