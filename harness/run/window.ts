// Reading again within the consistency window (why a store may show a write late: LIST-PAGE-FULL's accepts).
import { CheckError } from '../model/outcome.js';

export interface ConsistencyWindow {
  readonly windowMs: number;
  readonly deadlinePassed: boolean;
  wait(ms: number): Promise<void>;
}

export interface Polled<T> {
  value: T;
  /** ms from the write (or the first read) to the read that gave `value`. */
  lagMs: number;
  asked: number;
  /** The last read still lacked what was written. */
  pending: boolean;
}

/** Reads again, backing off from 250 ms, while `pending(value)` and the window from `since` (the write) last. */
export async function pollWithinWindow<T>(
  window: ConsistencyWindow,
  first: T,
  read: () => Promise<T>,
  pending: (value: T) => boolean,
  since = performance.now(),
): Promise<Polled<T>> {
  let value = first;
  let asked = 1;
  for (let delay = 250; pending(value); delay *= 2) {
    const left = window.windowMs - (performance.now() - since);
    if (left <= 0) break;
    // the window was cut short: what has not shown yet may still show, so no verdict
    if (window.deadlinePassed) throw new CheckError(`the run deadline passed within the consistency window (asked ${asked} times)`);
    await window.wait(Math.min(delay, left));
    value = await read();
    asked++;
  }
  return { value, lagMs: performance.now() - since, asked, pending: pending(value) };
}

export function waitedFor(polled: Polled<unknown>) {
  return polled.asked > 1
    ? ` (asked ${polled.asked} times over ${(polled.lagMs / 1000).toFixed(1)} s after the write: --consistency-window)`
    : ' (asked once: --consistency-window 0)';
}
