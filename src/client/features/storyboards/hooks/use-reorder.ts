import { type KeyboardEvent, type PointerEvent, useCallback, useLayoutEffect, useRef, useState } from 'react';

/** Where a dragged shot would land: its id, and its place in the list once moved. */
export interface DragState {
  id: string;
  from: number;
  to: number;
}

interface ReorderOptions {
  /** The shots' ids in order. */
  ids: readonly string[];
  /** Moves the shot at `from` to `to` (and saves). */
  onMove: (from: number, to: number) => void;
  /** Says something in the page's live region. */
  announce: (words: string) => void;
}

/**
 * Moving shots by their handle: dragging it with a pointer (mouse, pen or finger), or from the
 * keyboard: Alt+Arrow Up/Down moves the focused shot at once; Space picks it up, the arrows move it
 * and Space (or Escape) drops it. Each move is announced in words in a live region, and the handle
 * keeps the focus as its card moves.
 */
export function useReorder({ ids, onMove, announce: setAnnouncement }: ReorderOptions) {
  const [picked, setPicked] = useState<string | null>(null);
  const [drag, setDrag] = useState<DragState | null>(null);
  const [focusAfterMove, setFocusAfterMove] = useState<{ id: string; seq: number } | null>(null);
  const handles = useRef(new Map<string, HTMLElement>());
  const cards = useRef(new Map<string, HTMLElement>());
  const order = ids.join(',');

  // A moved card's handle may lose the focus as the browser moves its element: it is given it back.
  useLayoutEffect(() => {
    if (!focusAfterMove) return;
    const handle = handles.current.get(focusAfterMove.id);
    if (handle && document.activeElement !== handle) handle.focus();
  }, [focusAfterMove, order]);

  const move = useCallback(
    (id: string, to: number) => {
      const from = ids.indexOf(id);
      if (from === -1 || to < 0 || to >= ids.length || to === from) return;
      onMove(from, to);
      setAnnouncement(`Shot ${from + 1} moved to position ${to + 1} of ${ids.length}.`);
      setFocusAfterMove((last) => ({ id, seq: (last?.seq ?? 0) + 1 }));
    },
    [ids, onMove, setAnnouncement],
  );

  const registerHandle = (id: string) => (element: HTMLElement | null) => {
    if (element) handles.current.set(id, element);
    else handles.current.delete(id);
  };

  const registerCard = (id: string) => (element: HTMLElement | null) => {
    if (element) cards.current.set(id, element);
    else cards.current.delete(id);
  };

  /** The place in the list, once moved, that a pointer at `y` points to. */
  const placeAt = (id: string, y: number): number =>
    ids.filter((other) => {
      if (other === id) return false;
      const rect = cards.current.get(other)?.getBoundingClientRect();
      return rect !== undefined && rect.top + rect.height / 2 < y;
    }).length;

  const handleProps = (id: string, index: number, name: string) => ({
    ref: registerHandle(id),
    'aria-pressed': picked === id,
    onBlur: () => {
      if (picked === id) setPicked(null);
    },
    onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
      const step = event.key === 'ArrowUp' ? -1 : event.key === 'ArrowDown' ? 1 : 0;
      if (step !== 0 && (event.altKey || picked === id)) {
        event.preventDefault();
        move(id, index + step);
        return;
      }
      if (event.key === ' ' || event.key === 'Enter') {
        event.preventDefault();
        if (picked === id) {
          setPicked(null);
          setAnnouncement(`${name} dropped at position ${index + 1} of ${ids.length}.`);
        } else {
          setPicked(id);
          setAnnouncement(`${name} picked up. Use the arrow keys to move it, then Space to drop it.`);
        }
        return;
      }
      if (event.key === 'Escape' && picked === id) {
        event.preventDefault();
        setPicked(null);
        setAnnouncement(`${name} dropped at position ${index + 1} of ${ids.length}.`);
      }
    },
    onPointerDown: (event: PointerEvent<HTMLElement>) => {
      if (event.button !== 0) return;
      event.currentTarget.setPointerCapture(event.pointerId);
      setDrag({ id, from: index, to: index });
    },
    onPointerMove: (event: PointerEvent<HTMLElement>) => {
      if (drag?.id !== id) return;
      const to = placeAt(id, event.clientY);
      if (to !== drag.to) setDrag({ ...drag, to });
    },
    onPointerUp: () => {
      if (drag?.id !== id) return;
      setDrag(null);
      move(id, drag.to);
    },
    onPointerCancel: () => setDrag(null),
  });

  return { drag, picked, handleProps, registerCard, move };
}
