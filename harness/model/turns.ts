// Large synchronous work one piece per turn of the event loop: done in one turn, it held back the deadline's timer and SIGTERM's handler for seconds.
let last: Promise<unknown> = Promise.resolve();

export function inOwnTurn<T>(work: () => T): Promise<T> {
  const turn = last.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(work);
  last = turn.catch(() => undefined);
  return turn;
}

/** A loop over many pages of megabytes awaits it between pages. */
export const nextTurn = (): Promise<void> => inOwnTurn(() => undefined);
