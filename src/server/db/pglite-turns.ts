import type { PGlite, Transaction } from '@electric-sql/pglite';

/**
 * PGlite runs every query on this thread, one at a time, and hands its lock from one query to the
 * next through promises: a backlog of queries then runs in one unbroken stretch of microtasks, and
 * no socket is read meanwhile (under 200 connections /healthz waited 6 to 15 s). This client takes
 * the queries in turns instead: one at a time, each after one turn of the event loop, so that
 * requests, health checks and files are served between them. A transaction is one turn, and each of
 * its own queries yields too. `queued()` says how many wait, for load shedding.
 */
export interface TurnTakingClient {
  query: PGlite['query'];
  transaction: PGlite['transaction'];
  /** Queries and transactions waiting for their turn (not counting the one running). */
  queued(): number;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export function takeTurns(client: PGlite): TurnTakingClient {
  let tail: Promise<unknown> = Promise.resolve();
  let waiting = 0;

  function inTurn<T>(work: () => Promise<T>): Promise<T> {
    waiting += 1;
    const run = tail.then(nextTurn).then(() => {
      waiting -= 1;
      return work();
    });
    tail = run.catch(() => undefined);
    return run;
  }

  /** A transaction's own queries yield a turn too, so a long transaction does not hold the thread. */
  function yieldingTransaction(tx: Transaction): Transaction {
    return Object.create(tx, {
      query: {
        value: async (...args: Parameters<Transaction['query']>) => {
          await nextTurn();
          return tx.query(...args);
        },
      },
    }) as Transaction;
  }

  return {
    query: ((...args: Parameters<PGlite['query']>) => inTurn(() => client.query(...args))) as PGlite['query'],
    transaction: (<T>(callback: (tx: Transaction) => Promise<T>) =>
      inTurn(() => client.transaction((tx) => callback(yieldingTransaction(tx))))),
    queued: () => waiting,
  };
}
