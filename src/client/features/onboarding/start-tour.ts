import type { TourId } from './tour-storage';

/** Loads driver.js on first use (no page pays for it up front) and runs the tour. */
export async function startTour(id: TourId): Promise<boolean> {
  const { runTour } = await import('./run-tour');
  return runTour(id);
}
