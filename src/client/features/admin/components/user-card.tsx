import { Pencil } from 'lucide-react';
import type { ReactNode } from 'react';

import type { AdminUser } from '../../../../shared/admin';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';
import { formatDate, formatNumber } from '../format';
import type { EditField } from '../hooks/use-user-edit-form';
import { SubscriptionStatusBadge } from './subscription-status-badge';
import { DailyCapNote, userName } from './user-facts';

interface UserCardProps {
  user: AdminUser;
  onEdit: (focus: EditField) => void;
  /** The delete button and its dialog. */
  deleteAction: ReactNode;
}

interface FactProps {
  label: string;
  onEdit: () => void;
  /** Across the whole card: the email and the name, which may be long. */
  wide?: boolean;
  children: ReactNode;
}

/** One labelled figure of a card; a tap on it edits the user with the focus on its input, as a table cell does. */
function Fact({ label, onEdit, wide, children }: FactProps) {
  return (
    <div className={cn('min-w-0 cursor-pointer', wide && 'col-span-2')} onClick={onEdit}>
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 break-words">{children}</dd>
    </div>
  );
}

/**
 * One user on a phone: every column of the table as a labelled field (the header that labels the
 * table's cells is not there), with Edit and, apart from it, Delete.
 */
export function UserCard({ user, onEdit, deleteAction }: UserCardProps) {
  const name = userName(user);
  const figure = (value: number) => <span className="font-medium tabular-nums">{formatNumber(value)}</span>;
  return (
    <li className="border-b border-border px-4 py-4 last:border-0" aria-label={user.email}>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 text-sm">
        <Fact label="Email" onEdit={() => onEdit('email')} wide>
          <span className="font-semibold break-all">{user.email}</span>
        </Fact>
        <Fact label="Name" onEdit={() => onEdit('firstName')} wide>
          {name || <span className="text-muted-foreground">—</span>}
        </Fact>
        <Fact label="Signed Up" onEdit={() => onEdit('email')}>
          {formatDate(user.createdAt)}
        </Fact>
        <Fact label="Status" onEdit={() => onEdit('subscriptionStatus')}>
          <SubscriptionStatusBadge status={user.subscriptionStatus} />
          <DailyCapNote user={user} className="ml-2" />
        </Fact>
        <Fact label="Current Credits" onEdit={() => onEdit('availableCredits')}>
          {figure(user.availableCredits)}
        </Fact>
        <Fact label="Credits Used" onEdit={() => onEdit('totalCreditsUsed')}>
          {figure(user.totalCreditsUsed)}
        </Fact>
        <Fact label="Credits Last 30d" onEdit={() => onEdit('availableCredits')}>
          {figure(user.creditsLast30Days)}
        </Fact>
        <Fact label="Lifetime Credits" onEdit={() => onEdit('availableCredits')}>
          {figure(user.totalLifetimeCredits)}
        </Fact>
      </dl>
      {/* Delete sits at the far end, well apart from Edit. */}
      <div className="mt-4 flex items-center justify-between gap-6">
        <Button
          variant="outline"
          className="h-11 flex-1"
          aria-label={`Edit ${user.email}`}
          onClick={() => onEdit('email')}
        >
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        {deleteAction}
      </div>
    </li>
  );
}
