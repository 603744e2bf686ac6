import type { QueryClient } from '@tanstack/react-query';

import { type GenerationRecord, generationRecordSchema } from '../../../../shared/generations';
import { generationsQueryKey } from './query-keys';

// One cached list holds every generation the pages show (they read it through `select`), so a
// live event or the answer to Generate is put in one place.

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

/** Replaces the item with the same id unless it holds a newer copy, or puts it first (the list is newest first). */
function upsert<T extends Versioned>(list: T[] | undefined, item: T): T[] | undefined {
  if (!list) return list;
  const index = list.findIndex((entry) => entry.id === item.id);
  const current = list[index];
  if (current && isOlder(item, current)) return list;
  return current ? list.map((entry, i) => (i === index ? item : entry)) : [item, ...list];
}

/** A generation changed (or was just created): the list shows its new state. */
export function applyGenerationChange(queryClient: QueryClient, data: unknown): void {
  const record = generationRecordSchema.parse(data);
  queryClient.setQueryData<GenerationRecord[]>(generationsQueryKey, (list) => upsert(list, record));
}

export function applyGenerationDeleted(queryClient: QueryClient, id: string): void {
  queryClient.setQueryData<GenerationRecord[]>(generationsQueryKey, (list) => list?.filter((entry) => entry.id !== id));
}

/** A fresh snapshot (new stream, or too long away): the list becomes exactly what the server has. */
export function applyGenerationsSnapshot(queryClient: QueryClient, records: GenerationRecord[]): void {
  queryClient.setQueryData<GenerationRecord[]>(generationsQueryKey, records);
}

/** The stream was given up: the list is read again (then polled while something runs). */
export function refreshGenerations(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: generationsQueryKey });
}
