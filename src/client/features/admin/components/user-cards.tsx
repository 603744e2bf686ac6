import { cn } from '../../../lib/utils';
import { SortMenu } from './sort-menu';
import { UserCard } from './user-card';
import { UserEditCard } from './user-edit-card';
import type { UserListProps } from './users-table';

/** The users as cards below the md breakpoint, with a 'Sort by' menu in place of the table's header. */
export function UserCards({
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
    <div className="border-t border-border">
      <div className="border-b border-border px-4 py-3">
        <SortMenu sorting={sorting} onSort={onSort} />
      </div>
      <ul aria-label="Users" aria-busy={refreshing} className={cn('transition-opacity', refreshing && 'opacity-60')}>
        {users.map((user) =>
          editing?.id === user.id ? (
            <UserEditCard
              key={user.id}
              user={user}
              editing={editing}
              onDraftChange={onDraftChange}
              onDone={onDoneEditing}
            />
          ) : (
            <UserCard
              key={user.id}
              user={user}
              onEdit={(focus) => onEdit(user, focus)}
              deleteAction={deleteAction(user, 'labelled')}
            />
          ),
        )}
      </ul>
      {state ? <div className="px-4 py-14 text-center text-sm">{state}</div> : null}
    </div>
  );
}
