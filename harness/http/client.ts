// The one HTTP helper every check sends through: a timeout on every exchange (body
// included), the run's deadline, redirects followed only within the same origin (the
// key must never travel to another one), a cap on body size, a bounded number of
// requests in flight that shrinks when the server rate-limits, and a transcript of
// every exchange (exchange.ts).
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { Exchange, ExchangeFailed, type HttpRequest } from './exchange.js';
import type { Redactor } from './redact.js';

export interface HttpOptions {
  timeoutMs: number;
  maxBodyBytes: number;
  concurrency: number;
  /** Extra attempts for an idempotent request after a network error or 503 (and for any request after 429). */
  retries: number;
  /** Aborts every request in flight and every later one (the run's deadline). */
  signal: AbortSignal;
  userAgent: string;
  redactor: Redactor;
  /** At most this many requests are started per second (--rate); unset: no limit. */
  rate?: number;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const PROXY_VARIABLES = ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy'];
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 3;
/** The longest a Retry-After is waited out at once; a 429 after it is waited out again. */
const MAX_RETRY_AFTER_MS = 10_000;

/** Retry-After in ms (delay-seconds or an HTTP-date, at most 10 s), or undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const ms = /^\s*\d+\s*$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  return Number.isNaN(ms) ? undefined : Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** 250 ms doubling with each attempt, at most 4 s. */
const backoff = (n: number) => Math.min(250 * 2 ** (n - 1), 4000);

/**
 * How long the whole client waits after a 429 in the n-th round of them: what
 * Retry-After says, else the backoff; and at least the backoff once rounds of 429s
 * keep coming, so that a server answering "Retry-After: 0" to everything is not
 * hammered until the deadline.
 */
function pauseMs(retryAfter: string | undefined, rounds: number): number {
  return Math.max(retryAfterMs(retryAfter) ?? backoff(rounds), rounds > 3 ? backoff(rounds - 3) : 0);
}

/** The request a redirect leads to when it is followed: same origin, at most 3 hops, 301-303 only for GET and HEAD. */
function redirectTarget(ex: Exchange, hops: number): HttpRequest | undefined {
  const location = ex.headers.location;
  if (!REDIRECTS.has(ex.status) || !location || hops >= MAX_REDIRECTS) return undefined;
  let url: URL;
  try {
    url = new URL(location, ex.request.url);
  } catch {
    return undefined;
  }
  // every request carries the key: it must never travel to another scheme, host or port
  if (url.origin !== new URL(ex.request.url).origin) return undefined;
  // 301-303 turn other methods into GET, which would change what was asked: not followed
  if (ex.status <= 303 && ex.request.method !== 'GET' && ex.request.method !== 'HEAD') return undefined;
  return { ...ex.request, url: url.href }; // 307, 308: the same method and body
}

export class HttpClient {
  /** Every attempt of every request (each redirect hop too), in the order they were sent. */
  readonly exchanges: Exchange[] = [];
  private readonly dispatcher: Dispatcher;
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  /**
   * Requests allowed in flight now: the configured concurrency, halved when the
   * server rate-limits (at most once per round of requests), one more per round
   * of answers after (AIMD).
   */
  private limit: number;
  private lastCutAt = -Infinity;
  /** Rounds of 429s since the last other answer: each a 429 to a request sent after the previous cut. */
  private limitedRounds = 0;
  /** No request is started before these (performance.now()): a rate-limit pause, the --rate spacing. */
  private pausedUntil = 0;
  private nextStartAt = 0;
  private wakeup?: Promise<void>;
  /** A request was still rate limited when the run deadline passed. */
  rateLimitedAtDeadline = false;
  /** Wakes every wait() at the deadline; one listener on the run's signal serves them all. */
  private readonly wakers = new Set<() => void>();
  private readonly inFlight = new Set<AbortController>();

  constructor(private readonly options: HttpOptions) {
    const timeouts = { connect: { timeout: options.timeoutMs }, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs };
    // HTTP(S)_PROXY and NO_PROXY are honoured as users set them for every other tool
    this.dispatcher = PROXY_VARIABLES.some((v) => process.env[v]) ? new EnvHttpProxyAgent(timeouts) : new Agent(timeouts);
    this.limit = options.concurrency;
    options.signal.addEventListener(
      'abort',
      () => {
        for (const controller of this.inFlight) controller.abort();
        this.wakeAll();
      },
      { once: true },
    );
  }

  get requestCount(): number {
    return this.exchanges.length;
  }

  get retryCount(): number {
    return this.exchanges.filter((e) => e.attempt > 1).length;
  }

  /** Answers 429 Too Many Requests received. */
  get rateLimitedCount(): number {
    return this.exchanges.filter((e) => e.status === 429).length;
  }

  /**
   * Sends one request: follows same-origin redirects, waits out every 429 (as long
   * as the run deadline allows) and retries an idempotent request after a network
   * error or 503 as --retries allows; throws CheckError when no complete response arrives.
   */
  async send(req: HttpRequest): Promise<Exchange> {
    let request = req;
    let from: Exchange | undefined;
    let hops = 0;
    let last429: Exchange | undefined;
    let resentOnClose = false;
    for (let attempt = 1; ; attempt++) {
      const exchange = await this.attempt(request, attempt, from);
      // sent once more, on a fresh connection, whatever the method and --retries: the
      // server closed the connection before answering, which HTTP allows for an idle one
      if (exchange.closedUnanswered && !resentOnClose && !this.options.signal.aborted) {
        resentOnClose = true;
        continue;
      }
      if (exchange.status === 429) last429 = exchange;
      const next = redirectTarget(exchange, hops);
      if (next && !this.options.signal.aborted) {
        exchange.followed = true;
        [request, from, attempt] = [next, exchange, 0];
        hops++;
        continue;
      }
      if (this.options.signal.aborted && last429 && (exchange.status === 429 || exchange.status === 0)) {
        // rate limits are "not shown" in the description: waiting is no finding, and
        // a run that cannot finish for them ends as could-not-be-made (Session)
        this.rateLimitedAtDeadline = true;
        throw new ExchangeFailed(last429, `${last429.summary} (still rate limited when the run deadline passed)`);
      }
      // 429: the server did not act on the request, so any method may be sent again
      if (exchange.status === 429 && !this.options.signal.aborted) continue;
      const retry =
        !this.options.signal.aborted && IDEMPOTENT.has(request.method) && attempt <= this.options.retries && (exchange.transient || exchange.status === 503);
      if (retry) {
        // a 503 with Retry-After also paused the whole client (answered())
        await this.wait(retryAfterMs(exchange.headers['retry-after']) ?? backoff(attempt));
        continue;
      }
      if (exchange.error) throw new ExchangeFailed(exchange);
      return exchange;
    }
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

  private wakeAll(): void {
    for (const wake of [...this.wakers]) wake();
  }

  private async attempt(req: HttpRequest, attempt: number, from: Exchange | undefined): Promise<Exchange> {
    const exchange = new Exchange({ ...req, headers: { 'user-agent': this.options.userAgent, ...req.headers } }, this.options.redactor);
    exchange.attempt = attempt;
    exchange.redirectedFrom = from;
    await this.acquire();
    exchange.sentAt = performance.now();
    try {
      this.exchanges.push(exchange);
      await this.exchange(exchange);
    } finally {
      exchange.durationMs = performance.now() - exchange.sentAt;
      this.answered(exchange);
      this.release();
    }
    return exchange;
  }

  /**
   * Paces the client by what the server says: a 429, or a 503 with Retry-After,
   * pauses every slot and halves the requests in flight; any other answer lets one
   * more in per round.
   */
  private answered(ex: Exchange): void {
    if (ex.status === 0) return;
    const limited = ex.status === 429 || (ex.status === 503 && ex.headers['retry-after'] !== undefined);
    if (!limited) {
      this.limitedRounds = 0;
      this.limit = Math.min(this.options.concurrency, this.limit + 1 / this.limit);
      return;
    }
    // the answers to requests sent before the last cut tell nothing new: one cut per round
    if (ex.sentAt > this.lastCutAt) {
      this.limit = Math.max(1, this.limit / 2);
      this.lastCutAt = performance.now();
      this.limitedRounds++;
    }
    this.pausedUntil = Math.max(this.pausedUntil, performance.now() + pauseMs(ex.headers['retry-after'], this.limitedRounds));
  }

  private async exchange(ex: Exchange): Promise<void> {
    const { timeoutMs, maxBodyBytes, signal: runSignal } = this.options;
    if (runSignal.aborted) {
      ex.error = 'not sent: the run deadline has passed';
      return;
    }
    // One controller per exchange, aborted by its own timer or by the deadline (through
    // inFlight). Not AbortSignal.any([deadline, AbortSignal.timeout()]): Node may collect
    // the timeout signal, timer and all, when nothing listens to it directly, and a body
    // dripping a byte a second then ran until the run deadline (undici's bodyTimeout
    // restarts with every chunk).
    const controller = new AbortController();
    const timer = setTimeout(() => {
      ex.timedOut = true;
      controller.abort();
    }, timeoutMs);
    this.inFlight.add(controller);
    try {
      const res = await untilAborted(
        request(ex.request.url, {
          method: ex.request.method as any,
          headers: ex.request.headers,
          body: ex.request.body,
          signal: controller.signal,
          dispatcher: this.dispatcher,
        }),
        controller.signal,
      );
      ex.status = res.statusCode;
      for (const [k, v] of Object.entries(res.headers)) {
        if (v !== undefined) ex.headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      }
      // the timeout bounds the whole exchange: the body too, however slowly it comes
      const stop = () => res.body.destroy(new Error('aborted'));
      if (controller.signal.aborted) stop();
      controller.signal.addEventListener('abort', stop, { once: true });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += chunk.length;
        if (size > maxBodyBytes) {
          chunks.push(chunk.subarray(0, chunk.length - (size - maxBodyBytes)));
          ex.truncated = true;
          res.body.destroy();
          break;
        }
        chunks.push(chunk);
      }
      ex.text = Buffer.concat(chunks).toString('utf8');
      if (ex.truncated) ex.error = `response body larger than ${maxBodyBytes} bytes (cut off)`;
    } catch (err) {
      ex.error = ex.timedOut ? `timed out after ${timeoutMs} ms` : runSignal.aborted ? 'aborted: the run deadline has passed' : describeNetworkError(err);
      ex.transient = !controller.signal.aborted && ex.status === 0;
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(controller);
    }
  }

  /** Waits for a free slot, then for a rate-limit pause and the --rate spacing to pass. */
  private acquire(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      this.pump();
    });
  }

  private release(): void {
    this.active--;
    this.pump();
  }

  /** Starts waiting requests while slots are free and no pause holds; else wakes up when it ends. */
  private pump(): void {
    if (this.wakeup) return;
    while (this.waiting.length > 0 && this.active < Math.floor(this.limit)) {
      const now = performance.now();
      const wait = Math.max(this.pausedUntil, this.nextStartAt) - now;
      if (wait > 0 && !this.options.signal.aborted) {
        this.wakeup = this.wait(wait).then(() => {
          this.wakeup = undefined;
          this.pump();
        });
        return;
      }
      this.active++;
      if (this.options.rate) this.nextStartAt = Math.max(now, this.nextStartAt) + 1000 / this.options.rate;
      this.waiting.shift()!();
    }
  }

  async close(): Promise<void> {
    this.wakeAll();
    await this.dispatcher.destroy().catch(() => undefined);
  }
}

/**
 * Settles with the promise or rejects when the signal aborts, whichever comes
 * first: undici does not honour the signal in every phase (a proxy that never
 * answers CONNECT was seen to hang past it), and no request may outlive its timeout.
 */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function describeNetworkError(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.code ?? e?.cause?.code;
  const message = e?.cause?.message ?? e?.message ?? String(err);
  return code ? `${code}: ${message}` : message;
}
