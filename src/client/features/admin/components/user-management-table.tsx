import { LoaderCircle, Search, UserX } from 'lucide-react';
import { useId, useState } from 'react';

import type { AdminUser, AdminUserSort } from '../../../../shared/admin';
import { Button } from '../../../components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/utils';
import { useDeleteAdminUser } from '../api/delete-admin-user';
import { DEFAULT_ADMIN_USERS_PARAMS, type SortOrder, useAdminUsers } from '../api/get-admin-users';
import { formatNumber } from '../format';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { DeleteUserDialog } from './delete-user-dialog';
import { SortableHeader } from './sortable-header';
import { UserEditRow } from './user-edit-row';
import { type EditField, UserRow } from './user-row';

const SEARCH_DEBOUNCE_MS = 300;
const SEARCH_MAX_LENGTH = 200;

const SORTABLE_COLUMNS: ReadonlyArray<{ label: string; sortKey: AdminUserSort; align?: 'right' }> = [
  { label: 'Email', sortKey: 'email' },
  { label: 'Name', sortKey: 'name' },
  { label: 'Signed Up', sortKey: 'createdAt' },
  { label: 'Current Credits', sortKey: 'availableCredits', align: 'right' },
  { label: 'Credits Last 30d', sortKey: 'creditsLast30Days', align: 'right' },
  { label: 'Lifetime Credits', sortKey: 'totalLifetimeCredits', align: 'right' },
];
const COLUMN_COUNT = SORTABLE_COLUMNS.length + 2;

interface Sorting {
  sort: AdminUserSort;
  order: SortOrder;
}

/** The same column again flips the direction; a newly chosen column starts ascending. */
function nextSorting(current: Sorting, sort: AdminUserSort): Sorting {
  if (current.sort !== sort) return { sort, order: 'asc' };
  return { sort, order: current.order === 'asc' ? 'desc' : 'asc' };
}

/** Every user, searched, sorted and paged on the server; rows edit in place, one at a time. */
export function UserManagementTable() {
  const searchId = useId();
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [sorting, setSorting] = useState<Sorting>({
    sort: DEFAULT_ADMIN_USERS_PARAMS.sort,
    order: DEFAULT_ADMIN_USERS_PARAMS.order,
  });
  const users = useAdminUsers({ q, ...sorting });
  const [editing, setEditing] = useState<{ id: string; focus: EditField } | null>(null);
  const remove = useDeleteAdminUser();

  const rows = users.data?.pages.flatMap((page) => page.users) ?? [];
  const refreshing = users.isPlaceholderData;

  /** Either way the dialog closes, so the toast that explains the outcome is not hidden behind it. */
  function handleDelete(user: AdminUser, closeDialog: () => void) {
    remove.mutate(user.id, {
      onSuccess: ({ message }) => {
        closeDialog();
        toast({ title: 'User Deleted', description: message });
        setEditing((current) => (current?.id === user.id ? null : current));
      },
      onError: (error) => {
        closeDialog();
        const description = getServerMessage(error) ?? 'Failed to delete user';
        toast({ variant: 'destructive', title: 'Delete Failed', description });
      },
    });
  }

  return (
    <Card className="overflow-hidden">
      <CardHeader className="gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="grid gap-1.5">
          <CardTitle>User Management</CardTitle>
          <CardDescription aria-live="polite">
            {users.data
              ? `Showing ${formatNumber(rows.length)} ${rows.length === 1 ? 'user' : 'users'}${users.hasNextPage ? ', more available' : ''}`
              : 'Loading users'}
          </CardDescription>
        </div>
        <div className="relative w-full sm:max-w-xs">
          <Label htmlFor={searchId} className="sr-only">
            Search users
          </Label>
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            id={searchId}
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Search by email or name..."
            maxLength={SEARCH_MAX_LENGTH}
            autoComplete="off"
            className="h-10 pr-9 pl-9"
          />
          {refreshing ? (
            <LoaderCircle
              aria-hidden="true"
              className="absolute top-1/2 right-3 size-4 -translate-y-1/2 animate-spin text-muted-foreground"
            />
          ) : null}
        </div>
      </CardHeader>

      <div className="overflow-x-auto border-t border-border">
        <table className="table-cards w-full text-sm md:min-w-[64rem]">
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
                  onSort={(sortKey) => setSorting((current) => nextSorting(current, sortKey))}
                />
              ))}
              <th scope="col" className="px-3 py-2 text-left font-medium">
                Status
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Actions
              </th>
            </tr>
          </thead>
          <tbody aria-busy={refreshing} className={cn('transition-opacity', refreshing && 'opacity-60')}>
            {rows.map((user) =>
              editing?.id === user.id ? (
                <UserEditRow key={user.id} user={user} focus={editing.focus} onDone={() => setEditing(null)} />
              ) : (
                <UserRow
                  key={user.id}
                  user={user}
                  onEdit={(focus) => setEditing({ id: user.id, focus })}
                  deleteAction={
                    <DeleteUserDialog
                      user={user}
                      pending={remove.isPending && remove.variables === user.id}
                      onConfirm={(closeDialog) => handleDelete(user, closeDialog)}
                    />
                  }
                />
              ),
            )}
            {users.data && rows.length === 0 ? (
              <tr>
                <td colSpan={COLUMN_COUNT} className="px-3 py-14 text-center">
                  <UserX aria-hidden="true" className="mx-auto mb-2 size-8 text-muted-foreground/60" />
                  <p className="font-medium">No users found</p>
                  {q ? <p className="mt-1 text-muted-foreground">Try a different email or name.</p> : null}
                </td>
              </tr>
            ) : null}
            {!users.data && users.isPending ? (
              <tr>
                <td colSpan={COLUMN_COUNT} className="px-3 py-14 text-center">
                  <Spinner label="Loading users" />
                </td>
              </tr>
            ) : null}
            {!users.data && users.isError ? (
              <tr>
                <td colSpan={COLUMN_COUNT} className="px-3 py-14 text-center">
                  <p role="alert" className="font-medium">
                    {getServerMessage(users.error) ?? 'Users could not be loaded.'}
                  </p>
                  <Button variant="outline" size="sm" className="mt-3" onClick={() => void users.refetch()}>
                    Try again
                  </Button>
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>

      {users.hasNextPage || users.isFetchNextPageError ? (
        <div className="flex flex-col items-center gap-2 border-t border-border p-4">
          {users.isFetchNextPageError ? (
            <p role="alert" className="text-sm text-destructive">
              {getServerMessage(users.error) ?? 'More users could not be loaded.'}
            </p>
          ) : null}
          <Button
            variant="outline"
            onClick={() => void users.fetchNextPage()}
            disabled={users.isFetchingNextPage || refreshing}
          >
            {users.isFetchingNextPage ? 'Loading...' : 'Load more'}
          </Button>
        </div>
      ) : null}
    </Card>
  );
}
