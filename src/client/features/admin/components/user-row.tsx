import { Pencil } from 'lucide-react';
import type { ReactNode } from 'react';

import type { AdminUser } from '../../../../shared/admin';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';
import { formatDate, formatNumber } from '../format';
import { SubscriptionStatusBadge } from './subscription-status-badge';

/** The input that takes the focus when a row starts editing from a click on one of its cells. */
export type EditField = 'email' | 'firstName' | 'availableCredits' | 'totalCreditsUsed' | 'subscriptionStatus';

interface UserRowProps {
  user: AdminUser;
  onEdit: (focus: EditField) => void;
  /** The delete button and its dialog. */
  deleteAction: ReactNode;
}

/** One user, read-only; clicking a cell (or the edit button) edits the row in place. */
export function UserRow({ user, onEdit, deleteAction }: UserRowProps) {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
  // data-label names the column where phones show the row as a card (table-cards in index.css).
  const cell = (focus: EditField, label: string, className: string, children: ReactNode) => (
    <td data-label={label} className={cn('cursor-pointer px-3 py-3', className)} onClick={() => onEdit(focus)}>
      {children}
    </td>
  );
  return (
    <tr className="border-b border-border transition-colors last:border-0 hover:bg-muted/50">
      {cell(
        'email',
        'Email',
        'max-w-64 font-medium max-md:col-span-2',
        <span className="block truncate" title={user.email}>
          {user.email}
        </span>,
      )}
      {cell(
        'firstName',
        'Name',
        'max-w-48',
        name ? <span className="block truncate">{name}</span> : <span className="text-muted-foreground">—</span>,
      )}
      {cell('email', 'Signed Up', 'whitespace-nowrap text-muted-foreground', formatDate(user.createdAt))}
      {cell(
        'availableCredits',
        'Current Credits',
        'text-right font-semibold tabular-nums',
        formatNumber(user.availableCredits),
      )}
      {cell('availableCredits', 'Credits Last 30d', 'text-right tabular-nums', formatNumber(user.creditsLast30Days))}
      {cell('totalCreditsUsed', 'Lifetime Credits', 'text-right tabular-nums', formatNumber(user.totalLifetimeCredits))}
      {cell(
        'subscriptionStatus',
        'Status',
        '',
        <>
          <SubscriptionStatusBadge status={user.subscriptionStatus} />
          {user.dailySpendCap != null ? (
            <span className="mt-1 block text-xs whitespace-nowrap text-muted-foreground">
              {user.dailySpendCap === 0 ? 'No daily cap' : `Cap ${formatNumber(user.dailySpendCap)}/day`}
            </span>
          ) : null}
        </>,
      )}
      <td className="px-3 py-2 max-md:col-span-2">
        <div className="flex items-center justify-end gap-1 max-md:justify-start">
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Edit ${user.email}`}
            className="size-8"
            onClick={() => onEdit('email')}
          >
            <Pencil aria-hidden="true" />
          </Button>
          {deleteAction}
        </div>
      </td>
    </tr>
  );
}
