import { estimateProgress } from './provider-http';

/** Queued jobs sit between these (the stage text carries the queue position when a provider gives one). */
export const QUEUED_PROGRESS = 5;
/** Rendering maps a provider's own 0-100 onto 10-89; downloading and saving come after. */
const RENDER_FROM = 10;
const RENDER_SPAN = 79;

/** A provider's own percentage (0-100) as the job's progress. */
export function renderProgress(percent: number): number {
  return Math.round(RENDER_FROM + (RENDER_SPAN * Math.max(0, Math.min(100, percent))) / 100);
}

/**
 * The last percentage a provider's logs mention ("45%|████ | 9/20", "progress: 80%"), or null.
 * Many open-weight models print a tqdm bar per sampling step; providers pass those lines on.
 */
export function percentFromLogs(lines: readonly string[]): number | null {
  for (let i = lines.length - 1; i >= Math.max(0, lines.length - 20); i -= 1) {
    const matches = [...(lines[i] ?? '').matchAll(/(\d{1,3})%/g)];
    const last = matches.at(-1);
    if (last) {
      const value = Number(last[1]);
      if (value <= 100) return value;
    }
  }
  return null;
}

/** Progress while rendering: the provider's percentage when its logs have one, else an estimate by elapsed time. */
export function runningProgress(logs: readonly string[], elapsedMs: number, typicalMs: number): number {
  const percent = percentFromLogs(logs);
  return percent === null ? estimateProgress(elapsedMs, typicalMs) : renderProgress(percent);
}

/** "In the fal.ai queue (position 3)": the stage text of a queued job. */
export function queuedStage(provider: string, position: number | null | undefined): string {
  if (position === null || position === undefined || !Number.isFinite(position))
    return `Waiting in the ${provider} queue`;
  return position <= 0
    ? `Waiting in the ${provider} queue (next)`
    : `Waiting in the ${provider} queue (position ${position})`;
}
