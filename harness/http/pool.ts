// How many requests are in flight and when the next starts: AIMD slots, rate-limit pauses, --rate, turns alone.
import type { Service } from '../model/types.js';
import { answered, isRateLimit, kindOf, type Exchange } from './exchange.js';

/** A 429 after it is waited out again. */
const MAX_RETRY_AFTER_MS = 10_000;

/** Retry-After (delay-seconds or an HTTP-date) in ms; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const ms = /^\s*\d+\s*$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  return Number.isNaN(ms) ? undefined : Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

export const backoff = (n: number) => Math.min(250 * 2 ** (n - 1), 4000);

/** At least the backoff once rounds of 429s keep coming: a server answering "Retry-After: 0" to everything is not hammered. */
function pauseMs(retryAfter: string | undefined, rounds: number): number {
  return Math.max(retryAfterMs(retryAfter) ?? backoff(rounds), rounds > 3 ? backoff(rounds - 3) : 0);
}

interface PoolOptions {
  concurrency: number;
  rate?: number;
  signal: AbortSignal;
  exchanges: readonly Exchange[];
  /** Its requests start at once, to end unsent. */
  halted: (service: Service) => boolean;
  /** Its silence is no congestion signal. */
  hangs: (kind: string) => boolean;
}

interface Slot {
  startedBefore: number;
  othersInFlight: number;
  poolFull: boolean;
}

export class Pool {
  private active = 0;
  private started = 0;
  private readonly waiting: Array<{ alone: boolean; service: Service; start: () => void }> = [];
  /** While any re-observation is queued or under way, no pooled request starts. */
  private reobserving = 0;
  private aloneTurn: Promise<unknown> = Promise.resolve();
  /** Requests allowed in flight now (AIMD). */
  private limit: number;
  private lastCutAt = -Infinity;
  /** Each a 429 to a request sent after the previous cut. */
  private limitedRounds = 0;
  /** performance.now(): a rate-limit pause, the --rate spacing. */
  private pausedUntil = 0;
  private nextStartAt = 0;
  private wakeup?: Promise<void>;
  /** One listener on the run's signal wakes every wait(). */
  private readonly wakers = new Set<() => void>();

  constructor(private readonly options: PoolOptions) {
    this.limit = options.concurrency;
  }

  begin(): Slot {
    const startedBefore = this.started++;
    return { startedBefore, othersInFlight: this.active - 1, poolFull: this.active >= Math.floor(this.limit) };
  }

  sentAlone(slot: Slot): boolean {
    return slot.othersInFlight === 0 && this.started === slot.startedBefore + 1;
  }

  /** One at a time, with nothing else in flight. */
  alone<T>(fn: () => Promise<T>): Promise<T> {
    this.reobserving++;
    const turn = this.aloneTurn.then(fn);
    this.aloneTurn = turn.catch(() => undefined);
    return turn.finally(() => {
      this.reobserving--;
      this.pump();
    });
  }

  /** Resolves after ms, or at once at the deadline: every wait of the client and the checks goes through it. */
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
   * A rate limit pauses every slot and halves them, and so does silence (no pause: the timeout was the wait); other answers add one per
   * round. A request that waited a whole timeout with every slot taken, of a kind the server has answered, lowers them to the answers given
   * meanwhile: what the server showed it can serve within a timeout.
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

  private answeredSince(since: number): number {
    return this.options.exchanges.filter((ex) => answered(ex) && ex.sentAt + ex.durationMs > since).length;
  }

  /** Not when ex was sent before the last cut: its round was cut already. */
  cut(ex: Exchange): boolean {
    if (ex.sentAt <= this.lastCutAt) return false;
    this.limit = Math.max(1, this.limit / 2);
    this.lastCutAt = performance.now();
    return true;
  }

  /** alone: waits for nothing else in flight. */
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

  /** An attempt sent alone goes first, once nothing is in flight; a request to a halted service starts at once, to end unsent. */
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
