import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import {
  type Character,
  characterListSchema,
  characterSchema,
  type CreateCharacterRequest,
} from '../../../../shared/characters';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/characters: the user's library, the newest first. */
export const charactersQueryKey = ['/api/characters'] as const;

export async function getCharacters(): Promise<Character[]> {
  const response = await apiRequest('GET', '/api/characters');
  return characterListSchema.parse(await response.json()).characters;
}

export function useCharacters(options: { enabled?: boolean } = {}) {
  return useQuery({ ...queryOptions({ queryKey: charactersQueryKey, queryFn: getCharacters }), ...options });
}

/** POST /api/characters. */
export function useCreateCharacter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateCharacterRequest) =>
      characterSchema.parse(await (await apiRequest('POST', '/api/characters', body)).json()),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: charactersQueryKey });
    },
  });
}

/** PUT /api/characters/:id: its name and description. */
export function useUpdateCharacter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...body }: { id: string; name: string; description: string }) =>
      characterSchema.parse(await (await apiRequest('PUT', `/api/characters/${encodeURIComponent(id)}`, body)).json()),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: charactersQueryKey });
    },
  });
}

/** DELETE /api/characters/:id. */
export function useDeleteCharacter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest('DELETE', `/api/characters/${encodeURIComponent(id)}`);
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: charactersQueryKey });
    },
  });
}
