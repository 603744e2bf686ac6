import type { Storyboard } from '../../../../shared/storyboards';
import { ApiError, getServerMessage } from '../../../lib/api-client';
import { updateStoryboard } from '../api/update-storyboard';
import { type BoardDraft, bodyOf, draftOf } from '../board-draft';

/** Typing waits this long after the last key before the board is saved. */
export const AUTOSAVE_DELAY_MS = 600;

export type SaveState =
  | { kind: 'saved' }
  | { kind: 'unsaved' }
  | { kind: 'saving' }
  | { kind: 'failed'; message: string }
  /** Another window saved the board meanwhile: nothing more is saved until the user reloads it. */
  | { kind: 'conflict'; message: string };

export interface EditorSnapshot {
  draft: BoardDraft;
  save: SaveState;
}

const SAVE_FAILED = 'Your changes could not be saved. Check your connection, then try again.';

/**
 * The board as the user edits it, saved whole (PUT) a moment after the last edit, or at once for
 * a move, an added or a deleted shot. Each save names the version it was made on, so an edit from
 * another window is reported (409), never overwritten. A store outside React (read through
 * useSyncExternalStore), since saves finish long after the render that started them.
 */
export class BoardSaver {
  private snapshot: EditorSnapshot;
  private readonly listeners = new Set<() => void>();
  private version: number;
  /** Edits made, and the edits the last successful save held. */
  private edits = 0;
  private savedEdits = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<boolean> | null = null;

  constructor(
    private readonly boardId: string,
    board: Storyboard,
    private readonly onSaved: (board: Storyboard) => void,
  ) {
    this.version = board.version;
    this.snapshot = { draft: draftOf(board), save: { kind: 'saved' } };
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): EditorSnapshot => this.snapshot;

  private set(next: Partial<EditorSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...next };
    for (const listener of this.listeners) listener();
  }

  private get isClean(): boolean {
    return this.edits === this.savedEdits && this.running === null && this.timer === null;
  }

  /** Changes the board; saved after the typing pause, or at once with `now`. */
  edit(change: (draft: BoardDraft) => BoardDraft, { now = false }: { now?: boolean } = {}): void {
    if (this.snapshot.save.kind === 'conflict') return;
    this.edits += 1;
    this.set({ draft: change(this.snapshot.draft), save: { kind: 'unsaved' } });
    this.schedule(now ? 0 : AUTOSAVE_DELAY_MS);
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    if (delay === 0) {
      this.timer = null;
      void this.flush();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, delay);
  }

  /** Saves what is unsaved now; true once the board on the server is the one on screen. */
  async flush(): Promise<boolean> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.edits !== this.savedEdits) {
      if (this.snapshot.save.kind === 'conflict') return false;
      if (this.running) {
        await this.running;
        continue;
      }
      this.running = this.saveOnce();
      const saved = await this.running;
      this.running = null;
      if (!saved) return false;
    }
    return true;
  }

  /** One PUT of the board as it is now; false when it was refused or did not arrive. */
  private async saveOnce(): Promise<boolean> {
    const edits = this.edits;
    this.set({ save: { kind: 'saving' } });
    try {
      const saved = await updateStoryboard(this.boardId, bodyOf(this.snapshot.draft, this.version));
      this.version = saved.version;
      this.savedEdits = edits;
      this.onSaved(saved);
      this.set({ save: this.edits === edits ? { kind: 'saved' } : { kind: 'unsaved' } });
      return true;
    } catch (error) {
      const message = getServerMessage(error) ?? SAVE_FAILED;
      const conflict = error instanceof ApiError && error.code === 'storyboard_changed';
      this.set({ save: conflict ? { kind: 'conflict', message } : { kind: 'failed', message } });
      return false;
    }
  }

  /**
   * The board as the server has it now (read again after a render, or polled while one runs):
   * taken when nothing is unsaved here, so a take chosen or cleared elsewhere shows.
   */
  adopt(board: Storyboard): void {
    if (board.version === this.version || !this.isClean || this.snapshot.save.kind !== 'saved') return;
    this.version = board.version;
    this.set({ draft: draftOf(board) });
  }

  /** After a conflict: the server's board replaces the edits here. */
  reload(board: Storyboard): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.version = board.version;
    this.savedEdits = this.edits;
    this.set({ draft: draftOf(board), save: { kind: 'saved' } });
  }

  /** Leaving the editor: an edit still waiting for its pause is saved now. */
  leave(): void {
    if (this.timer) void this.flush();
  }
}
