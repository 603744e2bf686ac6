import type { ServiceContext } from '../context';
import type { StopListening } from '../db/listen-notify';
import { LIVE_EVENTS_CHANNEL } from './live-events.repository';

/**
 * Every live event by kind, with what its notification says: its id (the user's live_version from
 * then on, and the stream's event id), whose it is and what changed. Never the state itself: the
 * subscriber reads the current state, so late, repeated or merged events are harmless.
 */
export interface LiveEventMap {
  generation: { id: number; userId: string; generationId: string };
  /** With the generation whose payment moved the balance, when it was one: that generation changed too. */
  balance: { id: number; userId: string; generationId?: string };
}

/** A subscriber: one handler per kind, and what to do when notifications may have been missed. */
export type LiveEventHandlers = { [K in keyof LiveEventMap]: (event: LiveEventMap[K]) => void } & {
  /** The listening connection came back: notifications sent meanwhile may be lost. */
  onReconnect(): void;
  onError(error: unknown): void;
};

type LiveEvent = { [K in keyof LiveEventMap]: { kind: K } & LiveEventMap[K] }[keyof LiveEventMap];

/** Reads a notification written by live-events.repository.ts (`id`, `u`ser, `k`ind, `g`eneration); null when malformed. */
export function parseLiveEvent(payload: string): LiveEvent | null {
  try {
    const value = JSON.parse(payload) as { id?: unknown; u?: unknown; k?: unknown; g?: unknown };
    if (typeof value.id !== 'number' || typeof value.u !== 'string') return null;
    if (value.k === 'balance') {
      return {
        kind: 'balance',
        id: value.id,
        userId: value.u,
        ...(typeof value.g === 'string' ? { generationId: value.g } : {}),
      };
    }
    if (value.k === 'generation' && typeof value.g === 'string')
      return { kind: 'generation', id: value.id, userId: value.u, generationId: value.g };
    return null;
  } catch {
    return null;
  }
}

/**
 * Hears every live event that commits, from any process (PostgreSQL: one dedicated LISTEN
 * connection; PGlite: in-process). Modules publish through `publish.ts` and never import their
 * subscribers. Resolves once listening; the returned function stops.
 */
export function subscribeLiveEvents(ctx: ServiceContext, handlers: LiveEventHandlers): Promise<StopListening> {
  return ctx.database.listen(LIVE_EVENTS_CHANNEL, {
    onPayload: (payload) => {
      const event = parseLiveEvent(payload);
      if (event?.kind === 'generation') handlers.generation(event);
      if (event?.kind !== 'balance') return;
      handlers.balance(event);
      // A generation's payment is one event (one row, one NOTIFY): both its record and the balance are news.
      if (event.generationId)
        handlers.generation({ id: event.id, userId: event.userId, generationId: event.generationId });
    },
    onReconnect: () => handlers.onReconnect(),
    onError: (error) => handlers.onError(error),
  });
}
