import type { ReactNode } from 'react';

import type { AdminUser } from '../../../../shared/admin';
import { cn } from '../../../lib/utils';
import type { Draft, EditField, EditingUser } from '../hooks/use-user-edit-form';
import { nextSorting, SORTABLE_COLUMNS, type Sorting } from '../user-columns';
import { SortableHeader } from './sortable-header';
import { UserEditRow } from './user-edit-row';
import { UserRow } from './user-row';

const COLUMN_COUNT = SORTABLE_COLUMNS.length + 2;

/** What the table and the phone's cards both draw from. */
export interface UserListProps {
  users: AdminUser[];
  editing: EditingUser | null;
  onEdit: (user: AdminUser, focus: EditField) => void;
  onDraftChange: (change: Partial<Draft>) => void;
  onDoneEditing: () => void;
  /** The user's delete button with its dialog, as an icon or as a worded button. */
  deleteAction: (user: AdminUser, trigger: 'icon' | 'labelled') => ReactNode;
  sorting: Sorting;
  onSort: (next: Sorting) => void;
  refreshing: boolean;
  /** Loading, empty or failed: said in place of the users. */
  state: ReactNode;
}

/** The users as a table with a sortable header, from the md breakpoint up. */
export function UsersTable({
  users,
  editing,
  onEdit,
  onDraftChange,
  onDoneEditing,
  deleteAction,
  sorting,
  onSort,
  refreshing,
  state,
}: UserListProps) {
  return (
    <div className="overflow-x-auto border-t border-border">
      <table className="w-full min-w-[64rem] text-sm">
        <caption className="sr-only">Users</caption>
        <thead className="border-b border-border bg-muted/40 text-xs text-muted-foreground">
          <tr>
            {SORTABLE_COLUMNS.map((column) => (
              <SortableHeader
                key={column.sortKey}
                label={column.label}
                sortKey={column.sortKey}
                align={column.align}
                sort={sorting.sort}
                order={sorting.order}
                onSort={(sortKey) => onSort(nextSorting(sorting, sortKey))}
              />
            ))}
            <th scope="col" className="px-2.5 py-2 text-left font-medium">
              Status
            </th>
            <th scope="col" className="px-2.5 py-2 text-right font-medium">
              Actions
            </th>
          </tr>
        </thead>
        <tbody aria-busy={refreshing} className={cn('transition-opacity', refreshing && 'opacity-60')}>
          {users.map((user) =>
            editing?.id === user.id ? (
              <UserEditRow
                key={user.id}
                user={user}
                editing={editing}
                onDraftChange={onDraftChange}
                onDone={onDoneEditing}
              />
            ) : (
              <UserRow
                key={user.id}
                user={user}
                onEdit={(focus) => onEdit(user, focus)}
                deleteAction={deleteAction(user, 'icon')}
              />
            ),
          )}
          {state ? (
            <tr>
              <td colSpan={COLUMN_COUNT} className="px-2.5 py-14 text-center">
                {state}
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
