import type { AdminUserSort } from '../../../shared/admin';
import type { SortOrder } from './api/get-admin-users';

/**
 * The users' sortable figures, in the table's column order: the desktop header and the phone's
 * 'Sort by' menu offer the same keys. 'Credits Used' is the figure the edit payload's
 * totalCreditsUsed sets; Lifetime Credits is counted from the credits added and is not edited.
 */
export const SORTABLE_COLUMNS: ReadonlyArray<{ label: string; sortKey: AdminUserSort; align?: 'right' }> = [
  { label: 'Email', sortKey: 'email' },
  { label: 'Name', sortKey: 'name' },
  { label: 'Signed Up', sortKey: 'createdAt' },
  { label: 'Current Credits', sortKey: 'availableCredits', align: 'right' },
  { label: 'Credits Used', sortKey: 'totalCreditsUsed', align: 'right' },
  { label: 'Credits Last 30d', sortKey: 'creditsLast30Days', align: 'right' },
  { label: 'Lifetime Credits', sortKey: 'totalLifetimeCredits', align: 'right' },
];

export interface Sorting {
  sort: AdminUserSort;
  order: SortOrder;
}

/** The same column again flips the direction; a newly chosen column starts ascending. */
export function nextSorting(current: Sorting, sort: AdminUserSort): Sorting {
  if (current.sort !== sort) return { sort, order: 'asc' };
  return { sort, order: current.order === 'asc' ? 'desc' : 'asc' };
}
