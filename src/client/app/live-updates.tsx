import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

import { liveGenerationDeletedSchema, liveSnapshotSchema } from '../../shared/live-events';
import { applyBalanceChange, refreshBalance } from '../features/credits/api/live-cache';
import {
  applyGenerationChange,
  applyGenerationDeleted,
  applyGenerationsSnapshot,
  refreshGenerations,
} from '../features/generations/api/live-cache';
import { applyTakeChange } from '../features/storyboards/api/live-cache';
import { connectLiveEvents } from '../lib/live-events';

/**
 * While someone is signed in, one event stream keeps every page's videos and credits current
 * (decision 011): each event updates the query caches the pages read, so nothing polls. Mounted
 * once above the routes, so moving between pages keeps the same stream.
 */
export function LiveUpdates() {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      connectLiveEvents(
        {
          snapshot: (data) => {
            const snapshot = liveSnapshotSchema.parse(data);
            applyGenerationsSnapshot(queryClient, snapshot.generations);
            applyBalanceChange(queryClient, snapshot.balance);
          },
          generation: (data) => {
            applyGenerationChange(queryClient, data);
            applyTakeChange(queryClient, data);
          },
          'generation-deleted': (data) =>
            applyGenerationDeleted(queryClient, liveGenerationDeletedSchema.parse(data).id),
          balance: (data) => applyBalanceChange(queryClient, data),
        },
        () => {
          refreshGenerations(queryClient);
          refreshBalance(queryClient);
        },
      ),
    [queryClient],
  );
  return null;
}
