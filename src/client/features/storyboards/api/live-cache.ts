import type { QueryClient } from '@tanstack/react-query';

import { type GenerationRecord, generationRecordSchema } from '../../../../shared/generations';
import type { Storyboard } from '../../../../shared/storyboards';
import { storyboardsQueryKey } from './query-keys';

// A board's takes and films are videos: the live event stream (app/live-updates.tsx) tells of each
// change, and the open board shows it without asking the server again.

/** The record replaced by its newer copy (the same version is taken: progress moves without one). */
function replaced(records: GenerationRecord[], record: GenerationRecord): GenerationRecord[] {
  return records.map((entry) =>
    entry.id === record.id &&
    !(record.version !== undefined && entry.version !== undefined && record.version < entry.version)
      ? record
      : entry,
  );
}

/**
 * A video changed: a board holding it as a take or a film shows its progress. When it finished or
 * failed, the board is read again, since its shot's state, the take in use and the price move too.
 */
export function applyTakeChange(queryClient: QueryClient, data: unknown): void {
  const parsed = generationRecordSchema.safeParse(data);
  if (!parsed.success) return;
  const record = parsed.data;
  for (const [queryKey, board] of queryClient.getQueriesData<Storyboard>({ queryKey: storyboardsQueryKey })) {
    if (!board || !('shots' in board)) continue;
    const before = [...board.shots.flatMap((shot) => shot.takes), ...board.films].find((r) => r.id === record.id);
    if (!before) continue;
    queryClient.setQueryData<Storyboard>(queryKey, {
      ...board,
      shots: board.shots.map((shot) => ({ ...shot, takes: replaced(shot.takes, record) })),
      films: replaced(board.films, record),
    });
    if (before.status !== record.status && (record.status === 'completed' || record.status === 'failed'))
      void queryClient.invalidateQueries({ queryKey, exact: true });
  }
}
