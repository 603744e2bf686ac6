import type { TourId } from '../../../shared/auth';
import { apiRequest } from '../../lib/api-client';

/**
 * Screens (docs/product-rules.md): the ids of completed tours, kept in the browser's local storage,
 * and (issue 45) for the account too, so a tour done on one device does not start on the next.
 */
export const COMPLETED_TOURS_KEY = 'reelsmith:completed-tours';

export type { TourId };

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

/** Completed here, or for the signed-in account (`accountTours`, from GET /api/auth/user). */
export function isTourDone(id: TourId, accountTours: readonly TourId[] | undefined): boolean {
  return isTourCompleted(id) || (accountTours?.includes(id) ?? false);
}

/**
 * Finishing or skipping a tour marks it complete, in this browser and for the account; it is not
 * started again automatically, here or on another device.
 */
export function markTourCompleted(id: TourId): void {
  // Signed out, or offline: this browser still remembers it.
  void apiRequest('PUT', `/api/account/tours/${id}`).catch(() => undefined);
  const completed = readCompletedTours();
  if (completed.includes(id)) return;
  try {
    storage()?.setItem(COMPLETED_TOURS_KEY, JSON.stringify([...completed, id]));
  } catch {
    // A full or blocked storage only means the tour may show again.
  }
}
