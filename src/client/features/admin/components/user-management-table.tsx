import { LoaderCircle, Search, UserX } from 'lucide-react';
import { useId, useState } from 'react';

import type { AdminUser } from '../../../../shared/admin';
import { Button } from '../../../components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { MD_AND_UP, useMediaQuery } from '../../../lib/use-media-query';
import { useDeleteAdminUser } from '../api/delete-admin-user';
import { DEFAULT_ADMIN_USERS_PARAMS, useAdminUsers } from '../api/get-admin-users';
import { formatNumber } from '../format';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { type EditingUser, toDraft } from '../hooks/use-user-edit-form';
import type { Sorting } from '../user-columns';
import { DeleteUserDialog } from './delete-user-dialog';
import { UserCards } from './user-cards';
import { UsersTable } from './users-table';

const SEARCH_DEBOUNCE_MS = 300;
const SEARCH_MAX_LENGTH = 200;

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
  const [editing, setEditing] = useState<EditingUser | null>(null);
  const remove = useDeleteAdminUser();

  const rows = users.data?.pages.flatMap((page) => page.users) ?? [];
  const refreshing = users.isPlaceholderData;
  // A phone gets cards with labelled fields and a 'Sort by' menu; the table's header would be hidden there.
  const List = useMediaQuery(MD_AND_UP) ? UsersTable : UserCards;
  const state = users.data ? (
    rows.length === 0 ? (
      <>
        <UserX aria-hidden="true" className="mx-auto mb-2 size-8 text-muted-foreground/60" />
        <p className="font-medium">No users found</p>
        {q ? <p className="mt-1 text-muted-foreground">Try a different email or name.</p> : null}
      </>
    ) : null
  ) : users.isError ? (
    <>
      <p role="alert" className="font-medium">
        {getServerMessage(users.error) ?? 'Users could not be loaded.'}
      </p>
      <Button variant="outline" size="sm" className="mt-3" onClick={() => void users.refetch()}>
        Try again
      </Button>
    </>
  ) : (
    <Spinner label="Loading users" />
  );

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
            className="h-10 pr-9 pl-9 max-md:h-11"
          />
          {refreshing ? (
            <LoaderCircle
              aria-hidden="true"
              className="absolute top-1/2 right-3 size-4 -translate-y-1/2 animate-spin text-muted-foreground"
            />
          ) : null}
        </div>
      </CardHeader>

      <List
        users={rows}
        editing={editing}
        onEdit={(user, focus) => setEditing({ id: user.id, focus, draft: toDraft(user) })}
        onDraftChange={(change) =>
          setEditing((current) => current && { ...current, draft: { ...current.draft, ...change } })
        }
        onDoneEditing={() => setEditing(null)}
        deleteAction={(user, trigger) => (
          <DeleteUserDialog
            user={user}
            trigger={trigger}
            pending={remove.isPending && remove.variables === user.id}
            onConfirm={(closeDialog) => handleDelete(user, closeDialog)}
          />
        )}
        sorting={sorting}
        onSort={setSorting}
        refreshing={refreshing}
        state={state}
      />

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
