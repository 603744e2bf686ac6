import { useId } from 'react';

import type { AdminUserSort } from '../../../../shared/admin';
import { Label } from '../../../components/ui/label';
import type { SortOrder } from '../api/get-admin-users';
import { nextSorting, SORTABLE_COLUMNS, type Sorting } from '../user-columns';

const selectClass =
  'h-11 w-full rounded-lg border border-input bg-background px-3 text-base text-foreground shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40';

/**
 * The phone's stand-in for the table's sortable header: the same keys, and the same rule (a newly
 * chosen key starts ascending); the direction can be turned either way.
 */
export function SortMenu({ sorting, onSort }: { sorting: Sorting; onSort: (next: Sorting) => void }) {
  const id = useId();
  return (
    <div className="grid grid-cols-[minmax(0,1fr)_auto] gap-3">
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-sort`} className="text-xs text-muted-foreground">
          Sort by
        </Label>
        <select
          id={`${id}-sort`}
          value={sorting.sort}
          onChange={(event) => onSort(nextSorting(sorting, event.target.value as AdminUserSort))}
          className={selectClass}
        >
          {SORTABLE_COLUMNS.map((column) => (
            <option key={column.sortKey} value={column.sortKey}>
              {column.label}
            </option>
          ))}
        </select>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-order`} className="text-xs text-muted-foreground">
          Order
        </Label>
        <select
          id={`${id}-order`}
          value={sorting.order}
          onChange={(event) => onSort({ sort: sorting.sort, order: event.target.value as SortOrder })}
          className={selectClass}
        >
          <option value="asc">Ascending</option>
          <option value="desc">Descending</option>
        </select>
      </div>
    </div>
  );
}
