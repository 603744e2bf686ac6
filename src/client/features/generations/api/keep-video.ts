import { useMutation, useQueryClient } from '@tanstack/react-query';

import { type GenerationRecord, generationRecordSchema } from '../../../../shared/generations';
import { apiRequest } from '../../../lib/api-client';
import { applyGenerationChange } from './live-cache';

/** POST /api/video-generation/{id}/keep: keep the video past the retention (or stop keeping it); answers its record. */
export async function keepVideo({ id, keep }: { id: string; keep: boolean }): Promise<GenerationRecord> {
  const response = await apiRequest('POST', `/api/video-generation/${encodeURIComponent(id)}/keep`, { keep });
  return generationRecordSchema.parse(await response.json());
}

export function useKeepVideo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: keepVideo,
    // The answer is the record as the list shows it (its live event brings the same).
    onSuccess: (record) => applyGenerationChange(queryClient, record),
  });
}
