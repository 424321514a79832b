// The one HTTP helper every check sends through: a timeout on every exchange (body
// included), the run's deadline, redirects followed only within the same origin (the
// key must never travel to another one), a cap on body size, a bounded number of
// requests in flight that shrinks when the server rate-limits or goes silent, a
// request observed again before its silence is blamed on the server (reobserve), the
// liveness of each service apart, and a transcript of every exchange (exchange.ts).
import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { Agent, EnvHttpProxyAgent, send, type InFlight } from './undici.js';
import { Exchange, ExchangeFailed, isRateLimit, type HttpRequest } from './exchange.js';
import type { Redactor } from './redact.js';
import { Violation } from '../model/outcome.js';
import type { Service } from '../model/types.js';
import { formatSeconds, formatSize } from '../model/units.js';
import { inOwnTurn } from '../model/turns.js';

export interface HttpOptions {
  timeoutMs: number;
  maxBodyBytes: number;
  concurrency: number;
  /** Extra attempts, with backoff, for an idempotent request that got no answer or a 5xx (--retries). */
  retries: number;
  /** Aborts every request in flight and every later one (the run's deadline). */
  signal: AbortSignal;
  userAgent: string;
  redactor: Redactor;
  /** At most this many requests are started per second (--rate); unset: no limit. */
  rate?: number;
  /**
   * The liveness probe for a request that got no answer even alone: a request the target
   * answers whenever it answers anything (the session's preflight list). Unset: such a
   * request could not be judged.
   */
  probeFor?: (silent: HttpRequest) => HttpRequest;
  /** Told once per service, with the reason, when it stopped answering: the client sends it nothing more. */
  onStop?: (service: Service, reason: string) => void;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/*
 * A request fails only on an answer. When an attempt gets no answer for a reason of
 * observation (a timeout; a connection reset, refused or closed; a socket error; not
 * the run deadline, and not the body cap, which end it as could-not-be-judged):
 *
 * 1. It is a congestion signal: the requests in flight are halved (at most once per
 *    round, as for a 429; a request of a kind known to hang is no signal), and after
 *    a timeout lowered further to the answers the server gave while the request
 *    waited (what it showed it can serve within a timeout); they grow back by one
 *    per round of answers.
 * 2. --retries, for an idempotent request: sent again after a backoff, in the pool.
 * 3. It is sent again alone, before send() returns: no other request of the client in
 *    flight (the others wait; such resends queue one at a time), with the full timeout,
 *    whatever its method. The suite's POSTs create only run-named data or carry invalid
 *    bodies, so a second one adds at most one more run-named animal. The superseded
 *    attempt stays in the transcript. An attempt that timed out while it was already
 *    alone needs no resend; one whose connection failed always gets one (a server may
 *    close an idle connection as the request goes out, RFC 9112 9.5). If it is
 *    answered, that is the answer.
 * 4. If not, a liveness probe is sent alone (probeFor: the preflight's request), on a
 *    connection of its own (a pooled one may be stale, or held by the server), with
 *    twice the timeout: a server still working off requests the client gave up on (it
 *    does not know) answers the probe only after them.
 *    - Answered: the server is free now, and the request is sent alone once more. No
 *      answer again: the server answers others but not this kind of request (method,
 *      operation or path, query parameter names): a Violation. The kind is remembered,
 *      and later silent requests of it are judged at once, with no resend or probe, so
 *      that one hanging route cannot eat the deadline.
 *    - Not answered either: the service stopped answering. The client sends it nothing
 *      more (onStop); the other service goes on.
 *    A service that has answered nothing yet has not stopped, it never started: the
 *    request fails as could-not-be-judged (the preflight calls that "unreachable").
 */
const PROXY_VARIABLES = ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy'];
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 3;
/** A body this long (bytes, or characters once text: 10 ms or more to decode or to parse) is read in turns of its own (turns.ts). */
const LARGE_BODY = 1_000_000;
/** The longest a Retry-After is waited out at once; a 429 after it is waited out again. */
const MAX_RETRY_AFTER_MS = 10_000;
/** The liveness probe's timeout, in timeouts: room for the requests the server is still working off. */
const PROBE_TIMEOUTS = 2;

/** The service a request goes to (a request built without one: the store). */
const serviceOf = (req: HttpRequest): Service => req.service ?? 'store';

/** How the client's messages name a service. */
const nameOf = (service: Service) => (service === 'store' ? 'the target' : 'the quickstart service');

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
  /** Attempts started so far: whether another started during one (sentAlone). */
  private started = 0;
  private readonly waiting: Array<{ alone: boolean; service: Service; start: () => void }> = [];
  /** Bodies of megabytes being read (read). */
  private toRead = 0;
  /** Re-observations queued or under way (reobserve): while any, no pooled request starts. */
  private reobserving = 0;
  /** The re-observations, one at a time. */
  private aloneTurn: Promise<unknown> = Promise.resolve();
  /** Kinds of request (kindOf) the server was seen to leave unanswered while it answered others. */
  private readonly hanging = new Map<string, Hanging>();
  /** The services the client sends nothing more, with why: each stopped answering (or was never reached: stop()). */
  private readonly stopped = new Map<Service, string>();
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
  /** A request was still rate limited when the run deadline passed. */
  rateLimitedAtDeadline = false;
  /** Wakes every wait() at the deadline; one listener on the run's signal serves them all. */
  private readonly wakers = new Set<() => void>();
  /** Every request under way, with its service. */
  private readonly inFlight = new Map<InFlight, Service>();

  constructor(private readonly options: HttpOptions) {
    // No cap on connections to an origin: a request abandoned while its connection was
    // made (a proxy that never answers CONNECT) keeps that connection in undici until
    // undici gives up on it, and under a cap every later request waited behind it.
    this.dispatcher = dispatcherFor(options.timeoutMs);
    this.limit = options.concurrency;
    options.signal.addEventListener(
      'abort',
      () => {
        for (const request of this.inFlight.keys()) request.abort(new Error('the run was stopped (its deadline, or a signal)'));
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

  /** Rate-limit answers received: 429, and 503 with Retry-After. */
  get rateLimitedCount(): number {
    return this.exchanges.filter(isRateLimit).length;
  }

  /** No request is sent to the service any more: the run deadline passed, or it stopped answering. */
  private halted(service: Service): boolean {
    return this.options.signal.aborted || this.stopped.has(service);
  }

  /**
   * Sends one request: follows same-origin redirects, waits out every rate limit (429,
   * 503 with Retry-After, as long as the run deadline allows), retries as --retries
   * allows, and observes a request that got no answer again (reobserve). Throws
   * CheckError when no complete answer can be observed, Violation when the server
   * answers others but never this kind of request.
   */
  async send(req: HttpRequest): Promise<Exchange> {
    let request = req;
    let from: Exchange | undefined;
    let previous: Exchange | undefined;
    let hops = 0;
    let lastLimited: Exchange | undefined;
    const service = serviceOf(req);
    for (let attempt = 1; ; attempt++) {
      let exchange = await this.attempt(request, attempt, from, previous, false);
      if (exchange.silent && !this.retrying(exchange)) exchange = await this.reobserve(exchange);
      previous = exchange;
      attempt = exchange.attempt;
      const limited = isRateLimit(exchange);
      if (limited) lastLimited = exchange;
      const next = redirectTarget(exchange, hops);
      if (next && !this.halted(service)) {
        exchange.followed = true;
        [request, from, previous, attempt] = [next, exchange, undefined, 0];
        hops++;
        continue;
      }
      if (this.options.signal.aborted && !this.stopped.has(service) && lastLimited && (limited || exchange.status === 0)) {
        // rate limits are "not shown" in the description: waiting is no finding, and
        // a run that cannot finish for them ends as could-not-be-made (Session)
        this.rateLimitedAtDeadline = true;
        throw new ExchangeFailed(lastLimited, `${lastLimited.summary} (still rate limited when the run deadline passed)`);
      }
      // the server did not act on the request, so any method may be sent again (the pause was set in pace())
      if (limited && !this.halted(service)) continue;
      if (this.retrying(exchange)) {
        await this.wait(backoff(attempt));
        continue;
      }
      if (exchange.error) throw new ExchangeFailed(exchange);
      return exchange;
    }
  }

  /** --retries: an idempotent request that got no answer or a 5xx is sent again, while attempts are left. */
  private retrying(ex: Exchange): boolean {
    const worth = ex.silent || (ex.status >= 500 && !ex.error);
    return worth && !this.halted(serviceOf(ex.request)) && IDEMPOTENT.has(ex.request.method) && ex.attempt <= this.options.retries;
  }

  /**
   * Steps 3 and 4 of the rule above: resolves with the answer to the request sent again
   * alone, or throws (a Violation for a kind that hangs, else a CheckError).
   */
  private async reobserve(silent: Exchange): Promise<Exchange> {
    const kind = kindOf(silent.request);
    const service = serviceOf(silent.request);
    this.hanging.get(kind)?.judge(silent, this.silence(silent));
    return this.alone(async () => {
      this.hanging.get(kind)?.judge(silent, this.silence(silent)); // found hanging while this one waited its turn
      if (this.halted(service)) throw new ExchangeFailed(silent);
      let last = silent;
      if (!(silent.sentAlone && silent.failure === 'timeout')) {
        last = await this.resendAlone(last);
        if (!last.silent) return last;
      }
      const resent = last !== silent ? ', also when sent again alone' : ' with no other request in flight';
      const answers = this.exchanges.filter((ex) => answered(ex) && serviceOf(ex.request) === service).length;
      if (!this.options.probeFor || answers === 0) throw new ExchangeFailed(last, `${last.summary}${resent}`);
      const probe = await this.attempt(this.options.probeFor(silent.request), 1, undefined, undefined, true, true);
      if (answered(probe)) {
        // The server is free now: a server working off requests the client had given up
        // on (it does not know) answers the probe only once they are done. So the request
        // gets one more chance alone before it is blamed.
        last = await this.resendAlone(last);
        if (!last.silent) return last;
        const hanging = new Hanging(last, this.silence(last), probe);
        this.hanging.set(kind, hanging);
        throw hanging.violation();
      }
      if (probe.silent) {
        const both =
          last.error === probe.error
            ? `${last.target} and ${probe.target} got no answer (${last.error})`
            : `${last.target} -> ${this.silence(last)}${resent}, and ${probe.target} -> ${this.silence(probe)}`;
        const reason = `${nameOf(service)} stopped answering after answering ${answers} request${answers === 1 ? '' : 's'}: ${both}`;
        this.stop(service, reason);
        this.options.onStop?.(service, reason);
      }
      throw new ExchangeFailed(last, `${last.summary}${resent}`);
    });
  }

  /** The same request once more, alone, in place of `previous`. */
  private resendAlone(previous: Exchange): Promise<Exchange> {
    return this.attempt(previous.request, previous.attempt + 1, previous.redirectedFrom, previous, true);
  }

  /** Runs fn when no request of the client is in flight, one at a time; pooled requests wait meanwhile. */
  private alone<T>(fn: () => Promise<T>): Promise<T> {
    this.reobserving++;
    const turn = this.aloneTurn.then(fn);
    this.aloneTurn = turn.catch(() => undefined);
    return turn.finally(() => {
      this.reobserving--;
      this.pump();
    });
  }

  /** "no answer within 10 s", "no answer (ECONNRESET: ...)": what a silent attempt got. */
  private silence(ex: Exchange): string {
    if (ex.failure !== 'timeout') return `no answer (${ex.error})`;
    const within = formatSeconds(ex.timeoutMs);
    return ex.status > 0 ? `${ex.status}, but no complete body within ${within}` : `no answer within ${within}`;
  }

  /**
   * Nothing more is sent to the service (it stopped answering, or the preflight could
   * not reach it): its requests in flight or waiting end, unanswered; the other
   * service's go on.
   */
  stop(service: Service, reason: string): void {
    if (this.stopped.has(service)) return;
    this.stopped.set(service, reason);
    for (const [request, of] of this.inFlight) if (of === service) request.abort(new Error(reason));
    this.pump();
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

  /**
   * One attempt; `previous` is the attempt it is sent in place of; an alone one waits
   * until no other is in flight; a probe goes alone, on a connection of its own, with
   * PROBE_TIMEOUTS timeouts.
   */
  private async attempt(
    req: HttpRequest,
    attempt: number,
    from: Exchange | undefined,
    previous: Exchange | undefined,
    alone: boolean,
    probe = false,
  ): Promise<Exchange> {
    const exchange = new Exchange({ ...req, headers: { 'user-agent': this.options.userAgent, ...req.headers } }, this.options.redactor);
    exchange.attempt = attempt;
    exchange.redirectedFrom = from;
    exchange.timeoutMs = this.options.timeoutMs * (probe ? PROBE_TIMEOUTS : 1);
    if (previous) previous.next = exchange;
    await this.acquire(alone, serviceOf(req));
    const startedBefore = this.started++;
    const othersInFlight = this.active - 1;
    const poolFull = this.active >= Math.floor(this.limit);
    exchange.sentAt = performance.now();
    const dispatcher = probe ? dispatcherFor(exchange.timeoutMs) : this.dispatcher;
    let body: Buffer | undefined;
    try {
      this.exchanges.push(exchange);
      body = await this.exchange(exchange, dispatcher);
    } finally {
      exchange.durationMs = performance.now() - exchange.sentAt;
      exchange.sentAlone = othersInFlight === 0 && this.started === startedBefore + 1;
      // an attempt sent alone says nothing about how many at once the server takes
      if (!alone) this.pace(exchange, poolFull);
      if (!body) this.release();
      if (probe) await dispatcher.destroy().catch(() => undefined);
    }
    if (body) {
      // the slot is held until the body is read: bodies waiting to be parsed are in flight too (read)
      try {
        await this.read(exchange, body);
      } finally {
        this.release();
      }
    }
    return exchange;
  }

  /**
   * The body as text, and parsed, as each answer comes, a body of megabytes in turns of
   * the event loop of its own (turns.ts): checks and observers that judge many pages at
   * once (the latter after the deadline too) then find them parsed. When such bodies come
   * faster than they are parsed, the requests in flight are halved, as for a rate limit:
   * else dozens waited to be parsed, seconds of work after the deadline.
   */
  private async read(ex: Exchange, body: Buffer): Promise<void> {
    const text = () => (ex.truncated ? body.toString('utf8') : decoded(ex, body, this.options.maxBodyBytes));
    const large = body.length >= LARGE_BODY;
    if (large && this.toRead > 0) this.cut(ex);
    if (large) this.toRead++;
    try {
      ex.text = large ? await inOwnTurn(text) : text();
      if (ex.text.length < LARGE_BODY) ex.parse();
      else await inOwnTurn(() => ex.parse());
    } finally {
      if (large) this.toRead--;
    }
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
  private pace(ex: Exchange, poolFull: boolean): void {
    if (ex.silent) {
      const kind = kindOf(ex.request);
      if (this.hanging.has(kind)) return;
      this.cut(ex);
      if (ex.failure === 'timeout' && poolFull && this.exchanges.some((e) => answered(e) && kindOf(e.request) === kind)) {
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
    return this.exchanges.filter((ex) => answered(ex) && ex.sentAt + ex.durationMs > since).length;
  }

  /** Halves the requests in flight, unless ex was sent before the last cut (its round was cut already). */
  private cut(ex: Exchange): boolean {
    if (ex.sentAt <= this.lastCutAt) return false;
    this.limit = Math.max(1, this.limit / 2);
    this.lastCutAt = performance.now();
    return true;
  }

  /** Sends one attempt; resolves with its body once a whole one (or one cut at the cap) has come, else with nothing. */
  private async exchange(ex: Exchange, dispatcher: Dispatcher): Promise<Buffer | undefined> {
    const { maxBodyBytes } = this.options;
    const { timeoutMs } = ex;
    const service = serviceOf(ex.request);
    if (this.halted(service)) {
      const stopped = !this.options.signal.aborted;
      ex.failure = stopped ? 'stopped' : 'deadline';
      ex.error = stopped ? `not sent: ${nameOf(service)} had stopped answering` : 'not sent: the run deadline has passed';
      return undefined;
    }
    // Each request is aborted by its own timer, or by the deadline and a stop (through
    // inFlight). Not AbortSignal.any([deadline, AbortSignal.timeout()]): Node may collect
    // the timeout signal, timer and all, when nothing listens to it directly, and a body
    // dripping a byte a second then ran until the run deadline (undici's bodyTimeout
    // restarts with every chunk).
    let timedOut = false;
    const chunks: Buffer[] = [];
    let size = 0;
    const request = send(
      dispatcher,
      ex.request.url,
      {
        method: ex.request.method,
        headers: ex.request.headers,
        // a body of unknown length (a stream) is sent chunked; undici refuses the header itself
        body: ex.request.chunked && ex.request.body !== undefined ? Readable.from([Buffer.from(ex.request.body)]) : ex.request.body,
      },
      {
        onHeaders: (status, headers) => {
          ex.status = status;
          for (const [k, v] of Object.entries(headers)) {
            if (v !== undefined) ex.headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
          }
        },
        onData: (chunk) => {
          size += chunk.length;
          if (size > maxBodyBytes) {
            chunks.push(chunk.subarray(0, chunk.length - (size - maxBodyBytes)));
            ex.truncated = true;
            return false;
          }
          chunks.push(chunk);
          return true;
        },
      },
    );
    // the timeout bounds the whole exchange: the body too, however slowly it comes
    const timer = setTimeout(() => {
      timedOut = true;
      request.abort(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    this.inFlight.set(request, service);
    try {
      await request.done;
      if (ex.truncated) {
        ex.failure = 'body-cap';
        ex.error = `response body larger than ${formatSize(maxBodyBytes)} (cut off: --max-body)`;
      }
      return Buffer.concat(chunks);
    } catch (err) {
      ex.failure = timedOut ? 'timeout' : this.options.signal.aborted ? 'deadline' : this.stopped.has(service) ? 'stopped' : 'connection';
      ex.error = {
        timeout: `timed out after ${timeoutMs} ms`,
        stopped: `aborted: ${nameOf(service)} had stopped answering`,
        deadline: 'aborted: the run deadline has passed',
        connection: describeNetworkError(err, ex.request.url),
      }[ex.failure];
      return undefined;
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(request);
    }
  }

  /** Waits for a free slot (alone: for no other request in flight), then for a rate-limit pause and the --rate spacing to pass. */
  private acquire(alone: boolean, service: Service): Promise<void> {
    return new Promise<void>((start) => {
      this.waiting.push({ alone, service, start });
      this.pump();
    });
  }

  private release(): void {
    this.active--;
    this.pump();
  }

  /**
   * Starts waiting requests while slots are free and no pause holds; else wakes up when
   * it ends. An attempt sent alone goes first, once nothing is in flight; while a
   * re-observation is queued or under way, no pooled request starts. A request to a
   * halted service starts at once (and ends at once, unsent).
   */
  private pump(): void {
    for (const unsent of this.waiting.filter((w) => this.halted(w.service))) {
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

  async close(): Promise<void> {
    this.wakeAll();
    await this.dispatcher.destroy().catch(() => undefined);
  }
}

/** The server answered: a status line and a body (cut at the cap or whole), not silence after a status line. */
const answered = (ex: Exchange) => ex.status > 0 && !ex.silent;

/** What makes requests of one kind: method, operation (or path), and the names of the query parameters. */
function kindOf(req: HttpRequest): string {
  const url = new URL(req.url);
  const names = [...new Set(url.searchParams.keys())].sort();
  return `${req.method} ${req.operation ?? url.pathname}?${names.join('&')}`;
}

/** A kind of request the server left unanswered, alone, while it answered the probe. */
class Hanging {
  constructor(
    /** The last time it was sent alone, and got no answer. */
    private readonly first: Exchange,
    /** What that was: "no answer within 10 s". */
    private readonly silence: string,
    private readonly probe: Exchange,
  ) {}

  private get meanwhile(): string {
    return `while ${this.probe.target} was answered (${this.probe.status}) in ${Math.round(this.probe.durationMs)} ms`;
  }

  /** The violation of the first request found hanging. */
  violation(): Violation {
    // a route only slower than the timeout looks the same from here: the message says which setting tells them apart
    return new Violation(`${this.first.target} -> ${this.silence}, also when sent again alone, ${this.meanwhile}${SLOWER}`, [this.first, this.probe]);
  }

  /** Throws at once for a later silent request of the kind (silence: what it got): no resend, no probe. */
  judge(ex: Exchange, silence: string): never {
    const before = `${this.first.target} before it (${this.silence}, also when sent again alone)`;
    throw new Violation(`${ex.target} -> ${silence}, like ${before}, ${this.meanwhile}${SLOWER}`, [ex, this.first, this.probe]);
  }
}

/** What a hanging kind's message says last: a route that is only slow is judged with a longer timeout. */
const SLOWER = ' (if it is only slower than the timeout, a longer --timeout judges it)';

const DECODERS: Record<string, (body: Buffer, options: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * A body as text, decoded from the content coding the request accepted (a probe that
 * sends Accept-Encoding: gzip) and the answer names; at most maxBytes of it, so that a
 * small compressed body cannot fill the memory. A body that is not what its
 * Content-Encoding says is kept as it came, and said (Exchange.undecodable).
 */
function decoded(ex: Exchange, body: Buffer, maxBytes: number): string {
  const coding = (ex.headers['content-encoding'] ?? '').trim().toLowerCase();
  const accepted = (ex.request.headers?.['accept-encoding'] ?? '').toLowerCase();
  const decode = DECODERS[coding];
  if (!decode || !accepted.split(',').some((c) => c.split(';')[0].trim() === coding)) return body.toString('utf8');
  try {
    return decode(body, { maxOutputLength: maxBytes }).toString('utf8');
  } catch (err) {
    ex.undecodable = `the body is not ${coding} data, as its Content-Encoding says (${(err as Error).message})`;
    return body.toString('utf8');
  }
}

/** A dispatcher whose connections wait at most timeoutMs; HTTP(S)_PROXY and NO_PROXY are honoured as users set them for every other tool. */
function dispatcherFor(timeoutMs: number): Dispatcher {
  const timeouts = { connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs };
  return PROXY_VARIABLES.some((v) => process.env[v]) ? new EnvHttpProxyAgent(timeouts) : new Agent(timeouts);
}

/** OpenSSL's words for a TLS handshake answered with plain HTTP bytes. */
const PLAIN_HTTP = /wrong version number|packet length too long|http request/i;

function describeNetworkError(err: unknown, url: string): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.code ?? e?.cause?.code;
  const message = (e?.cause?.message ?? e?.message ?? String(err)).trim();
  // OpenSSL says only "wrong version number": the likely cause is an https:// address of an http server
  if (url.startsWith('https:') && PLAIN_HTTP.test(message)) return `${code ?? 'TLS'}: the server answered plain HTTP, not TLS: use http://?`;
  return code ? `${code}: ${message}` : message;
}
