import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';

import type { AdminUserSort } from '../../../../shared/admin';
import { cn } from '../../../lib/utils';
import type { SortOrder } from '../api/get-admin-users';

interface SortableHeaderProps {
  label: string;
  sortKey: AdminUserSort;
  sort: AdminUserSort;
  order: SortOrder;
  onSort: (sortKey: AdminUserSort) => void;
  align?: 'left' | 'right';
}

/** A column header whose button sorts the table on the server; aria-sort tells the current direction. */
export function SortableHeader({ label, sortKey, sort, order, onSort, align = 'left' }: SortableHeaderProps) {
  const active = sort === sortKey;
  const Icon = active ? (order === 'asc' ? ArrowUp : ArrowDown) : ArrowUpDown;
  return (
    <th
      scope="col"
      aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}
      className={cn('px-2.5 py-2 font-medium', align === 'right' ? 'text-right' : 'text-left')}
    >
      <button
        type="button"
        onClick={() => onSort(sortKey)}
        className={cn(
          '-mx-2 inline-flex items-center gap-1.5 rounded-md px-2 py-1.5 whitespace-nowrap transition-colors outline-none hover:bg-muted hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring',
          align === 'right' && 'flex-row-reverse',
          active && 'text-foreground',
        )}
      >
        {label}
        <Icon aria-hidden="true" className={cn('size-3.5 shrink-0', !active && 'opacity-40')} />
      </button>
    </th>
  );
}
