// What may stand between a client and the animal store, as options of a run or
// deviations: a killed process, a single worker, load shedding, a flaky backend, a slow
// server, rate limits ("not shown").
import type { IncomingMessage, ServerResponse } from 'node:http';
import { crash, sendError } from './errors.js';
import type { Context } from './options.js';
import { seam } from './seams.js';
import { problem, type Problem } from './wire.js';

export type Gateway = ReturnType<typeof gateway>;

export function gateway({ opts, sw }: Context, kill: () => void) {
  let arrivals = 0;
  let answered = 0;
  let rateLimited = 0;
  let worker = Promise.resolve();
  const bucket = { tokens: opts.ratePerSecond ?? 0, at: performance.now() };
  const shedding = opts.loadShedding ?? sw.at(SHEDDING)[0];

  const withinRate = (rate: number) => {
    const now = performance.now();
    bucket.tokens = Math.min(rate, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  };

  return {
    watch: (res: ServerResponse) => void res.on('finish', () => answered++),

    /** Whether the request goes on to the store; if not, it has been answered (or dropped). */
    async pass(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
      if (opts.killedAfter !== undefined && answered >= opts.killedAfter) {
        req.socket.destroy();
        kill();
        return false;
      }
      if (opts.oneAtATimeMs) {
        const ms = opts.oneAtATimeMs;
        worker = worker.then(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));
        await worker;
      }
      const arrival = ++arrivals;
      const refuse = (refusal: Problem) => (sendError(sw, res, refusal), false);
      if (shedding && arrival % shedding.every === 0) {
        const headers = { 'retry-after': String(shedding.retryAfterSeconds) };
        return refuse(problem(503, 'overloaded', 'The server is overloaded: try again later', headers));
      }
      if (opts.failsEvery && req.method === 'GET' && arrival % opts.failsEvery === 0) return refuse(crash('the backend failed: try again'));
      const flaky = sw.at(UNAVAILABLE_EVERY)[0];
      if (flaky && arrival % flaky === 0) return refuse(problem(503, 'unavailable', 'The backend is unavailable'));
      for (const ms of sw.at(DELAY)) await new Promise((r) => setTimeout(r, ms));
      const every = sw.at(REFUSED_EVERY)[0];
      if (every && ++rateLimited % every === 0) return refuse(tooMany('0'));
      if (opts.ratePerSecond && !withinRate(opts.ratePerSecond)) return refuse(tooMany('1'));
      return true;
    },
  };
}

const tooMany = (retryAfter: string) => problem(429, 'rate_limited', 'Too many requests', { 'retry-after': retryAfter });

// Seams

const SHEDDING = seam<{ every: number; retryAfterSeconds: number }>('load shedding', { 'load-shedding': { every: 20, retryAfterSeconds: 0 } });

// over the latency budget the fault's entry sets
const DELAY = seam<number>('the time an answer takes', { 'slow-responses': 40 });

const UNAVAILABLE_EVERY = seam<number>('server errors', { 'flaky-503': 40 });

const REFUSED_EVERY = seam<number>('rate limits', { 'rate-limited': 7 });
