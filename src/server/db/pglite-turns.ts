import type { PGlite, Transaction } from '@electric-sql/pglite';

/**
 * PGlite runs every query on this thread, one at a time, and hands its lock from one query to the
 * next through promises: a backlog of queries then runs in one unbroken stretch of microtasks, and
 * no socket is read meanwhile (under 200 connections /healthz waited 6 to 15 s). This client takes
 * the queries in turns with the event loop instead: one at a time, back to back for at most
 * SLICE_MS, then the loop gets a turn, so that requests, health checks and files are served between
 * slices while the database keeps most of its throughput. A transaction's own queries take part in
 * the same slices. `queued()` says how many wait, for load shedding.
 */
export interface TurnTakingClient {
  query: PGlite['query'];
  transaction: PGlite['transaction'];
  /** Queries and transactions waiting for their turn (not counting the one running). */
  queued(): number;
}

/** How long queries may run back to back before the event loop gets a turn. */
export const SLICE_MS = 8;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export function takeTurns(client: PGlite): TurnTakingClient {
  let tail: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  let sliceEnds = 0;

  /** Gives the event loop a turn when the current slice is spent. */
  async function yieldWhenSliceSpent(): Promise<void> {
    if (performance.now() < sliceEnds) return;
    await nextTurn();
    sliceEnds = performance.now() + SLICE_MS;
  }

  function inTurn<T>(work: () => Promise<T>): Promise<T> {
    waiting += 1;
    const run = tail.then(yieldWhenSliceSpent).then(() => {
      waiting -= 1;
      return work();
    });
    tail = run.catch(() => undefined);
    return run;
  }

  /** A transaction's own queries take part in the slices, so a long transaction does not hold the thread. */
  function yieldingTransaction(tx: Transaction): Transaction {
    return Object.create(tx, {
      query: {
        value: async (...args: Parameters<Transaction['query']>) => {
          await yieldWhenSliceSpent();
          return tx.query(...args);
        },
      },
    }) as Transaction;
  }

  return {
    query: ((...args: Parameters<PGlite['query']>) => inTurn(() => client.query(...args))) as PGlite['query'],
    transaction: <T>(callback: (tx: Transaction) => Promise<T>) =>
      inTurn(() => client.transaction((tx) => callback(yieldingTransaction(tx)))),
    queued: () => waiting,
  };
}
