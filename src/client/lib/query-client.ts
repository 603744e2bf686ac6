import { QueryClient } from '@tanstack/react-query';

import { getQueryFn } from './api-client';

/** Spec defaults: no retry, data never goes stale, no refetch on focus, no polling unless a query says so. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        retry: false,
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
