import { Pencil } from 'lucide-react';
import type { ReactNode } from 'react';

import type { AdminUser } from '../../../../shared/admin';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';
import { formatDate, formatNumber } from '../format';
import type { EditField } from '../hooks/use-user-edit-form';
import { DailyCapNote, userName } from './user-facts';
import { SubscriptionStatusBadge } from './subscription-status-badge';

interface UserRowProps {
  user: AdminUser;
  onEdit: (focus: EditField) => void;
  /** The delete button and its dialog. */
  deleteAction: ReactNode;
}

/**
 * One user, read-only, one cell per column of the header; clicking a cell (or the edit button)
 * edits the row in place with the focus on that column's input.
 */
export function UserRow({ user, onEdit, deleteAction }: UserRowProps) {
  const name = userName(user);
  const cell = (focus: EditField, className: string, children: ReactNode) => (
    <td className={cn('cursor-pointer px-2.5 py-3', className)} onClick={() => onEdit(focus)}>
      {children}
    </td>
  );
  return (
    <tr className="border-b border-border transition-colors last:border-0 hover:bg-muted/50">
      {cell(
        'email',
        'font-medium',
        // The width is capped on the text, not the cell: a table sizes its columns by their content.
        <span className="block max-w-44 truncate" title={user.email}>
          {user.email}
        </span>,
      )}
      {cell(
        'firstName',
        '',
        name ? (
          <span className="block max-w-40 truncate">{name}</span>
        ) : (
          <span className="text-muted-foreground">—</span>
        ),
      )}
      {cell('email', 'whitespace-nowrap text-muted-foreground', formatDate(user.createdAt))}
      {cell('availableCredits', 'text-right font-semibold tabular-nums', formatNumber(user.availableCredits))}
      {cell('totalCreditsUsed', 'text-right tabular-nums', formatNumber(user.totalCreditsUsed))}
      {cell('availableCredits', 'text-right tabular-nums', formatNumber(user.creditsLast30Days))}
      {/* Lifetime credits grow with the credits added: the balance is what an edit changes. */}
      {cell('availableCredits', 'text-right tabular-nums', formatNumber(user.totalLifetimeCredits))}
      {cell(
        'subscriptionStatus',
        '',
        <>
          <SubscriptionStatusBadge status={user.subscriptionStatus} />
          <DailyCapNote user={user} className="mt-1 block" />
        </>,
      )}
      <td className="px-2.5 py-2">
        {/* The destructive action stands 12 px apart from Edit (WCAG 2.2 target spacing). */}
        <div className="flex items-center justify-end gap-3">
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Edit ${user.email}`}
            title="Edit"
            className="size-9"
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
