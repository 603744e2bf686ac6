/** Screens (docs/product-rules.md): the ids of completed tours, kept in the browser's local storage. */
export const COMPLETED_TOURS_KEY = 'reelsmith:completed-tours';

export type TourId = 'first-time' | 'generator';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    // Storage can be switched off (private modes, blocked cookies): tours then run once per page load.
    return null;
  }
}

export function readCompletedTours(): TourId[] {
  const raw = storage()?.getItem(COMPLETED_TOURS_KEY);
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((id): id is TourId => id === 'first-time' || id === 'generator') : [];
  } catch {
    return [];
  }
}

export function isTourCompleted(id: TourId): boolean {
  return readCompletedTours().includes(id);
}

/** Finishing or skipping a tour marks it complete; it is not started again automatically. */
export function markTourCompleted(id: TourId): void {
  const completed = readCompletedTours();
  if (completed.includes(id)) return;
  try {
    storage()?.setItem(COMPLETED_TOURS_KEY, JSON.stringify([...completed, id]));
  } catch {
    // A full or blocked storage only means the tour may show again.
  }
}
