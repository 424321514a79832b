// Large pieces of synchronous work (parsing a body of megabytes) one at a time, each in a
// turn of the event loop of its own. Many answers may complete in one turn (a check asks
// for seven pages at once), and their work done there held back the run deadline's timer
// and the handler of SIGTERM for seconds; between turns both run.
let last: Promise<unknown> = Promise.resolve();

/** Runs `work` after every piece queued before it, in a later turn of the event loop. */
export function inOwnTurn<T>(work: () => T): Promise<T> {
  const turn = last.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(work);
  last = turn.catch(() => undefined);
  return turn;
}

/** Resolves in a later turn, after the pieces queued before: a loop over many pages of megabytes awaits it between pages. */
export const nextTurn = (): Promise<void> => inOwnTurn(() => undefined);
