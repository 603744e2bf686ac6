import type { QueryClient } from '@tanstack/react-query';

import { type GenerationJob, type GenerationRecord, generationRecordSchema } from '../../../../shared/generations';
import { generationJobsQueryKey, generationsQueryKey, recentJobsQueryKey } from './query-keys';

/** Recent History shows this many (spec section 9). */
const RECENT_COUNT = 3;

/** The job view of a record (GET /api/video-generation-jobs presents the same row this way). */
function toJob(record: GenerationRecord): GenerationJob {
  return {
    id: record.id,
    version: record.version,
    textPrompt: record.prompt,
    status: record.status,
    createdAt: record.createdAt,
    creditsUsed: record.creditsUsed,
    duration: record.duration,
    hasAudio: record.hasAudio,
    progress: record.progress,
    errorMessage: record.errorMessage,
    outputVideoUrl: record.outputVideoUrl,
  };
}

interface Versioned {
  id: string;
  version?: number | undefined;
}

/**
 * True when `item` is an older copy than `current`: copies arrive by two roads (live events, the
 * answer to Generate) in any order. The same version is taken: queue places and estimates move
 * without a change of the row.
 */
const isOlder = (item: Versioned, current: Versioned) =>
  item.version !== undefined && current.version !== undefined && item.version < current.version;

/** Replaces the item with the same id unless it holds a newer copy, or puts it first (lists are newest first). */
function upsert<T extends Versioned>(list: T[] | undefined, item: T, limit?: number): T[] | undefined {
  if (!list) return list;
  const index = list.findIndex((entry) => entry.id === item.id);
  const current = list[index];
  if (current && isOlder(item, current)) return list;
  const next = current ? list.map((entry, i) => (i === index ? item : entry)) : [item, ...list];
  return limit ? next.slice(0, limit) : next;
}

/** A generation changed (or was just created): every cached list shows its new state. */
export function applyGenerationChange(queryClient: QueryClient, data: unknown): void {
  const record = generationRecordSchema.parse(data);
  queryClient.setQueryData<GenerationRecord[]>(generationsQueryKey, (list) => upsert(list, record));
  queryClient.setQueryData<GenerationJob[]>(generationJobsQueryKey, (list) => upsert(list, toJob(record)));
  queryClient.setQueryData<GenerationJob[]>(recentJobsQueryKey, (list) => upsert(list, toJob(record), RECENT_COUNT));
}

export function applyGenerationDeleted(queryClient: QueryClient, id: string): void {
  queryClient.setQueryData<GenerationRecord[]>(generationsQueryKey, (list) => list?.filter((entry) => entry.id !== id));
  queryClient.setQueryData<GenerationJob[]>(generationJobsQueryKey, (list) => list?.filter((entry) => entry.id !== id));
  // The card shows the latest 3: one less means the next one must be read.
  void queryClient.invalidateQueries({ queryKey: recentJobsQueryKey });
}

/** A fresh snapshot (new stream, or too long away): the lists become exactly what the server has. */
export function applyGenerationsSnapshot(queryClient: QueryClient, records: GenerationRecord[]): void {
  queryClient.setQueryData<GenerationRecord[]>(generationsQueryKey, records);
  queryClient.setQueryData<GenerationJob[]>(generationJobsQueryKey, records.map(toJob));
  queryClient.setQueryData<GenerationJob[]>(recentJobsQueryKey, records.slice(0, RECENT_COUNT).map(toJob));
}

/** The stream was given up: lists are read again (then polled while something runs). */
export function refreshGenerations(queryClient: QueryClient): void {
  for (const queryKey of [generationsQueryKey, generationJobsQueryKey, recentJobsQueryKey])
    void queryClient.invalidateQueries({ queryKey });
}
