// What may stand between a client and the animal store, each an option of a run (or a
// deviation, where the description leaves it open): a process that is killed, a single
// worker, load shedding, a flaky backend, a slow server, rate limits. "Rate limits: not
// shown": a server may ask a client to come back later.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { crash, sendError } from './errors.js';
import type { Context } from './options.js';
import { seam } from './seams.js';
import type { Problem } from './wire.js';

export class Gateway {
  /** Requests received, and answered, for the options that act on every so many. */
  private arrivals = 0;
  private answered = 0;
  /** Requests counted by the rate-limited variant. */
  private counted = 0;
  /** One request at a time (oneAtATimeMs): each waits for the one before it. */
  private worker: Promise<void> = Promise.resolve();
  private readonly bucket: { tokens: number; at: number };
  private readonly shedding?: { every: number; retryAfterSeconds: number };

  constructor(
    private readonly ctx: Context,
    private readonly kill: () => void,
  ) {
    this.bucket = { tokens: ctx.opts.ratePerSecond ?? 0, at: performance.now() };
    this.shedding = ctx.opts.loadShedding ?? ctx.sw.at(SHEDDING)[0];
  }

  /** Counts the answer to a request once it is sent. */
  watch(res: ServerResponse): void {
    res.on('finish', () => this.answered++);
  }

  /** Whether the request goes on to the store; if not, it has been answered (or dropped). */
  async pass(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const { opts, sw } = this.ctx;
    // killed: the request is never answered, its connection drops, and the ports close
    if (opts.killedAfter !== undefined && this.answered >= opts.killedAfter) {
      req.socket.destroy();
      this.kill();
      return false;
    }
    if (opts.oneAtATimeMs) await this.oneAtATime(opts.oneAtATimeMs);
    const arrival = ++this.arrivals;
    const refuse = (problem: Problem) => (sendError(sw, res, problem), false);
    // a server shedding load asks to be called again later, whatever the request
    if (this.shedding && arrival % this.shedding.every === 0) {
      const retryAfter = String(this.shedding.retryAfterSeconds);
      return refuse({ status: 503, code: 'overloaded', message: 'The server is overloaded: try again later', headers: { 'retry-after': retryAfter } });
    }
    if (opts.failsEvery && req.method === 'GET' && arrival % opts.failsEvery === 0) return refuse(crash('the backend failed: try again'));
    const flaky = sw.at(UNAVAILABLE_EVERY)[0];
    if (flaky && arrival % flaky === 0) return refuse({ status: 503, code: 'unavailable', message: 'The backend is unavailable' });
    for (const ms of sw.at(DELAY)) await new Promise((r) => setTimeout(r, ms));
    const every = sw.at(REFUSED_EVERY)[0];
    if (every && ++this.counted % every === 0) return refuse(tooMany('0'));
    if (!this.withinRate()) return refuse(tooMany('1'));
    return true;
  }

  /** oneAtATimeMs: resolves when this request's turn with the single worker is over. */
  private oneAtATime(ms: number): Promise<void> {
    const turn = this.worker.then(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    this.worker = turn;
    return turn;
  }

  /** ratePerSecond: takes a token from the bucket, refilled continuously; false when it is empty. */
  private withinRate(): boolean {
    const rate = this.ctx.opts.ratePerSecond;
    if (!rate) return true;
    const now = performance.now();
    this.bucket.tokens = Math.min(rate, this.bucket.tokens + ((now - this.bucket.at) / 1000) * rate);
    this.bucket.at = now;
    if (this.bucket.tokens < 1) return false;
    this.bucket.tokens -= 1;
    return true;
  }
}

const tooMany = (retryAfter: string): Problem => ({ status: 429, code: 'rate_limited', message: 'Too many requests', headers: { 'retry-after': retryAfter } });

// ---------------------------------------------------------------- seams

const SHEDDING = seam<{ every: number; retryAfterSeconds: number }>('load shedding', {
  'load-shedding': { every: 20, retryAfterSeconds: 0 },
});

/** Milliseconds every answer takes. */
const DELAY = seam<number>('the time an answer takes', {
  'slow-responses': 40, // over the latency budget the fault's entry sets
});

/** One request in so many is answered 503 without Retry-After: a server error, not a rate limit. */
const UNAVAILABLE_EVERY = seam<number>('server errors', {
  'flaky-503': 40,
});

/** One request in so many is refused with 429 and Retry-After: 0. */
const REFUSED_EVERY = seam<number>('rate limits', {
  'rate-limited': 7,
});
