import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';

import type { Storyboard } from '../../../../shared/storyboards';
import { storyboardQueryKey } from '../api/query-keys';
import { BoardSaver } from './board-saver';

/** The board being edited (its draft and how its saving goes), and the store that edits and saves it. */
export function useBoardEditor(board: Storyboard) {
  const queryClient = useQueryClient();
  const [saver] = useState(
    () => new BoardSaver(board.id, board, (saved) => queryClient.setQueryData(storyboardQueryKey(saved.id), saved)),
  );
  const snapshot = useSyncExternalStore(saver.subscribe, saver.getSnapshot);
  useEffect(() => saver.adopt(board), [saver, board]);
  useEffect(() => () => saver.leave(), [saver]);
  return { ...snapshot, saver };
}
