import { useState } from 'react';

import type { OwnTakedown } from '../../../../shared/safety';
import { useOwnTakedowns } from '../api/get-own-takedowns';

const KEY = 'reelsmith:dismissed-takedowns';

function readDismissed(): string[] {
  try {
    const ids: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? '[]');
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

function saveDismissed(ids: string[]): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(ids));
  } catch {
    // Storage blocked: the dismissal lasts until the page is reloaded.
  }
}

/**
 * The owner's takedown to tell them about: the newest one not dismissed in this tab's session
 * (dismissing one shows the next). Null while there is none, or while the list loads.
 */
export function useTakedownNotice(): { takedown: OwnTakedown | null; dismiss: (reportId: string) => void } {
  const takedowns = useOwnTakedowns();
  const [dismissed, setDismissed] = useState(readDismissed);
  const shown = (takedowns.data ?? [])
    .filter((takedown) => !dismissed.includes(takedown.reportId))
    .sort((a, b) => b.takenDownAt.localeCompare(a.takenDownAt));
  const dismiss = (reportId: string) => {
    const next = [...dismissed, reportId];
    saveDismissed(next);
    setDismissed(next);
  };
  return { takedown: shown[0] ?? null, dismiss };
}
