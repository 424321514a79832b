// The pool: how many of the client's requests are in flight, and when the next one
// starts. A bounded number of slots that halves when the server rate-limits or goes
// silent and grows back by one per round of answers (AIMD), rate-limit pauses, the
// --rate spacing, the turns of requests sent alone, and every wait of the client.
import type { Service } from '../model/types.js';
import { answered, isRateLimit, kindOf, type Exchange } from './exchange.js';

/** The longest a Retry-After is waited out at once; a 429 after it is waited out again. */
const MAX_RETRY_AFTER_MS = 10_000;

/** Retry-After in ms (delay-seconds or an HTTP-date, at most 10 s), or undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const ms = /^\s*\d+\s*$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  return Number.isNaN(ms) ? undefined : Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** 250 ms doubling with each attempt, at most 4 s. */
export const backoff = (n: number) => Math.min(250 * 2 ** (n - 1), 4000);

/**
 * How long the whole client waits after a 429 in the n-th round of them: what
 * Retry-After says, else the backoff; and at least the backoff once rounds of 429s
 * keep coming, so that a server answering "Retry-After: 0" to everything is not
 * hammered until the deadline.
 */
function pauseMs(retryAfter: string | undefined, rounds: number): number {
  return Math.max(retryAfterMs(retryAfter) ?? backoff(rounds), rounds > 3 ? backoff(rounds - 3) : 0);
}

export interface PoolOptions {
  concurrency: number;
  /** At most this many requests are started per second (--rate); unset: no limit. */
  rate?: number;
  /** The run's deadline: it ends every wait. */
  signal: AbortSignal;
  /** Every attempt so far: the answers pacing counts. */
  exchanges: readonly Exchange[];
  /** No request is sent to the service any more: its requests start at once, to end unsent. */
  halted: (service: Service) => boolean;
  /** A kind of request (kindOf) known to hang: its silence is no congestion signal. */
  hangs: (kind: string) => boolean;
}

/** The pool as an attempt found it when it started (begin): whether it went alone, how full the pool was. */
export interface Slot {
  startedBefore: number;
  othersInFlight: number;
  poolFull: boolean;
}

export class Pool {
  private active = 0;
  /** Attempts started so far: whether another started during one (sentAlone). */
  private started = 0;
  private readonly waiting: Array<{ alone: boolean; service: Service; start: () => void }> = [];
  /** Re-observations queued or under way (alone): while any, no pooled request starts. */
  private reobserving = 0;
  /** The re-observations, one at a time. */
  private aloneTurn: Promise<unknown> = Promise.resolve();
  /**
   * Requests allowed in flight now: the configured concurrency, halved when the
   * server rate-limits or goes silent (at most once per round of requests), one more
   * per round of answers after (AIMD).
   */
  private limit: number;
  private lastCutAt = -Infinity;
  /** Rounds of 429s since the last other answer: each a 429 to a request sent after the previous cut. */
  private limitedRounds = 0;
  /** No request is started before these (performance.now()): a rate-limit pause, the --rate spacing. */
  private pausedUntil = 0;
  private nextStartAt = 0;
  private wakeup?: Promise<void>;
  /** Wakes every wait() at the deadline; one listener on the run's signal serves them all. */
  private readonly wakers = new Set<() => void>();

  constructor(private readonly options: PoolOptions) {
    this.limit = options.concurrency;
  }

  /** Counts an attempt that got its slot (acquire) as started. */
  begin(): Slot {
    const startedBefore = this.started++;
    return { startedBefore, othersInFlight: this.active - 1, poolFull: this.active >= Math.floor(this.limit) };
  }

  /** No other attempt was in flight when the slot's attempt started, and none started since. */
  sentAlone(slot: Slot): boolean {
    return slot.othersInFlight === 0 && this.started === slot.startedBefore + 1;
  }

  /** Runs fn when no request of the client is in flight, one at a time; pooled requests wait meanwhile. */
  alone<T>(fn: () => Promise<T>): Promise<T> {
    this.reobserving++;
    const turn = this.aloneTurn.then(fn);
    this.aloneTurn = turn.catch(() => undefined);
    return turn.finally(() => {
      this.reobserving--;
      this.pump();
    });
  }

  /**
   * Resolves after ms, or at once when the run deadline passes: every wait of the
   * client and of the checks' polling, so that a deadline wakes them all and no
   * wait adds an abort listener of its own to the run's signal.
   */
  wait(ms: number): Promise<void> {
    if (ms <= 0 || this.options.signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakers.add(wake);
    });
  }

  wakeAll(): void {
    for (const wake of [...this.wakers]) wake();
  }

  /**
   * Paces the client by what the server does: a rate limit (429, 503 with Retry-After)
   * pauses every slot and halves the requests in flight, and so does silence (no pause:
   * the timeout was the wait); any other answer lets one more in per round. A request
   * sent with every slot taken that waited a whole timeout, of a kind the server has
   * answered, lowers them to the answers the server gave meanwhile: all it showed it
   * can serve within a timeout (with slots free, the answers say only how few were
   * asked; a kind never answered may be one that hangs, which reobserve judges).
   */
  pace(ex: Exchange, poolFull: boolean): void {
    if (ex.silent) {
      const kind = kindOf(ex.request);
      if (this.options.hangs(kind)) return;
      this.cut(ex);
      if (ex.failure === 'timeout' && poolFull && this.options.exchanges.some((e) => answered(e) && kindOf(e.request) === kind)) {
        this.limit = Math.max(1, Math.min(this.limit, this.answeredSince(ex.sentAt)));
      }
      return;
    }
    if (ex.status === 0) return;
    if (!isRateLimit(ex)) {
      this.limitedRounds = 0;
      this.limit = Math.min(this.options.concurrency, this.limit + 1 / this.limit);
      return;
    }
    if (this.cut(ex)) this.limitedRounds++;
    this.pausedUntil = Math.max(this.pausedUntil, performance.now() + pauseMs(ex.headers['retry-after'], this.limitedRounds));
  }

  /** Answers that arrived after `since` (performance.now()). */
  private answeredSince(since: number): number {
    return this.options.exchanges.filter((ex) => answered(ex) && ex.sentAt + ex.durationMs > since).length;
  }

  /** Halves the requests in flight, unless ex was sent before the last cut (its round was cut already). */
  cut(ex: Exchange): boolean {
    if (ex.sentAt <= this.lastCutAt) return false;
    this.limit = Math.max(1, this.limit / 2);
    this.lastCutAt = performance.now();
    return true;
  }

  /** Waits for a free slot (alone: for no other request in flight), then for a rate-limit pause and the --rate spacing to pass. */
  acquire(alone: boolean, service: Service): Promise<void> {
    return new Promise<void>((start) => {
      this.waiting.push({ alone, service, start });
      this.pump();
    });
  }

  release(): void {
    this.active--;
    this.pump();
  }

  /**
   * Starts waiting requests while slots are free and no pause holds; else wakes up when
   * it ends. An attempt sent alone goes first, once nothing is in flight; while a
   * re-observation is queued or under way, no pooled request starts. A request to a
   * halted service starts at once (and ends at once, unsent).
   */
  pump(): void {
    for (const unsent of this.waiting.filter((w) => this.options.halted(w.service))) {
      this.waiting.splice(this.waiting.indexOf(unsent), 1);
      this.active++;
      unsent.start();
    }
    if (this.wakeup) return;
    while (this.waiting.length > 0) {
      const alone = this.waiting.findIndex((w) => w.alone);
      if (alone >= 0 ? this.active > 0 : this.reobserving > 0 || this.active >= Math.floor(this.limit)) return;
      const now = performance.now();
      const wait = Math.max(this.pausedUntil, this.nextStartAt) - now;
      if (wait > 0) {
        this.wakeup = this.wait(wait).then(() => {
          this.wakeup = undefined;
          this.pump();
        });
        return;
      }
      this.active++;
      if (this.options.rate) this.nextStartAt = Math.max(now, this.nextStartAt) + 1000 / this.options.rate;
      this.waiting.splice(Math.max(alone, 0), 1)[0].start();
    }
  }
}
