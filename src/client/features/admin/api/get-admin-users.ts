import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';

import {
  ADMIN_USERS_DEFAULT_LIMIT,
  type AdminUser,
  adminUserListSchema,
  type AdminUserSort,
  NEXT_CURSOR_HEADER,
} from '../../../../shared/admin';
import { apiRequest } from '../../../lib/api-client';
import { adminUsersQueryKey } from './query-keys';

export type SortOrder = 'asc' | 'desc';

/** What the server sorts and searches on; the cursor of each page is the infinite query's page param. */
export interface AdminUsersParams {
  q: string;
  sort: AdminUserSort;
  order: SortOrder;
}

export interface AdminUsersPage {
  users: AdminUser[];
  /** The X-Next-Cursor header: more rows exist when it is set. */
  nextCursor: string | null;
}

/** Administration (docs/product-rules.md): the admin table starts sorted by sign-up date, newest first. */
export const DEFAULT_ADMIN_USERS_PARAMS: AdminUsersParams = { q: '', sort: 'createdAt', order: 'desc' };

export function adminUsersUrl(params: AdminUsersParams, cursor: string | null): string {
  const search = new URLSearchParams();
  const q = params.q.trim();
  if (q) search.set('q', q);
  search.set('sort', params.sort);
  search.set('order', params.order);
  search.set('limit', String(ADMIN_USERS_DEFAULT_LIMIT));
  if (cursor) search.set('cursor', cursor);
  return `/api/admin/users?${search.toString()}`;
}

/** GET /api/admin/users: one page of users, searched and sorted on the server. */
export async function getAdminUsers(params: AdminUsersParams, cursor: string | null): Promise<AdminUsersPage> {
  const response = await apiRequest('GET', adminUsersUrl(params, cursor));
  const users = adminUserListSchema.parse(await response.json());
  return { users, nextCursor: response.headers.get(NEXT_CURSOR_HEADER) || null };
}

export function adminUsersQueryOptions(params: AdminUsersParams) {
  return infiniteQueryOptions({
    queryKey: [...adminUsersQueryKey, params],
    queryFn: ({ pageParam }) => getAdminUsers(params, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });
}

/** The users table; while a new search or sort loads, the previous rows stay on screen. */
export function useAdminUsers(params: AdminUsersParams) {
  return useInfiniteQuery({ ...adminUsersQueryOptions(params), placeholderData: keepPreviousData });
}
