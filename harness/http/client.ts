// The one HTTP helper every check sends through: a timeout on every exchange (body
// included), the run's deadline, redirects followed only within the same origin (the
// key must never travel to another one), a cap on body size, a bounded number of
// requests in flight that shrinks when the server rate-limits or goes silent, a
// request observed again before its silence is blamed on the server (reobserve), the
// liveness of each service apart, and a transcript of every exchange (exchange.ts).
// The parts, one job each: pool.ts (slots, pacing, pauses, alone turns), wire.ts (one
// attempt on the wire), answers.ts (redirects, decoding, reading bodies), reobserve.ts
// (steps 3 and 4 below, the services that stopped).
import { Exchange, ExchangeFailed, isRateLimit, serviceOf, type HttpRequest } from './exchange.js';
import { BodyReader, redirectTarget } from './answers.js';
import { backoff, Pool } from './pool.js';
import { PROBE_TIMEOUTS, Reobserver } from './reobserve.js';
import type { Redactor } from './redact.js';
import { dispatcherFor, Wire } from './wire.js';
import type { Service } from '../model/types.js';

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

export class HttpClient {
  /** Every attempt of every request (each redirect hop too), in the order they were sent. */
  readonly exchanges: Exchange[] = [];
  private readonly pool: Pool;
  private readonly wire: Wire;
  private readonly reader: BodyReader;
  private readonly reobserver: Reobserver;
  /** A request was still rate limited when the run deadline passed. */
  rateLimitedAtDeadline = false;

  constructor(private readonly options: HttpOptions) {
    const { timeoutMs, maxBodyBytes, concurrency, rate, signal, probeFor, onStop } = options;
    const exchanges = this.exchanges;
    this.wire = new Wire({ timeoutMs, maxBodyBytes, signal, stopped: (service) => this.reobserver.hasStopped(service) });
    const halted = (service: Service) => this.reobserver.halted(service);
    this.pool = new Pool({ concurrency, rate, signal, exchanges, halted, hangs: (kind) => this.reobserver.hangs(kind) });
    this.reader = new BodyReader(maxBodyBytes, (ex) => this.pool.cut(ex));
    const attempt = this.attempt.bind(this);
    this.reobserver = new Reobserver({ exchanges, signal, probeFor, onStop, attempt }, this.pool, this.wire);
    signal.addEventListener(
      'abort',
      () => {
        this.wire.abortAll();
        this.pool.wakeAll();
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
      if (exchange.silent && !this.retrying(exchange)) exchange = await this.reobserver.reobserve(exchange);
      previous = exchange;
      attempt = exchange.attempt;
      const limited = isRateLimit(exchange);
      if (limited) lastLimited = exchange;
      const next = redirectTarget(exchange, hops);
      if (next && !this.reobserver.halted(service)) {
        exchange.followed = true;
        [request, from, previous, attempt] = [next, exchange, undefined, 0];
        hops++;
        continue;
      }
      if (this.options.signal.aborted && !this.reobserver.hasStopped(service) && lastLimited && (limited || exchange.status === 0)) {
        // rate limits are "not shown" in the description: waiting is no finding, and
        // a run that cannot finish for them ends as could-not-be-made (Session)
        this.rateLimitedAtDeadline = true;
        throw new ExchangeFailed(lastLimited, `${lastLimited.summary} (still rate limited when the run deadline passed)`);
      }
      // the server did not act on the request, so any method may be sent again (Pool.pace() set the pause)
      if (limited && !this.reobserver.halted(service)) continue;
      if (this.retrying(exchange)) {
        await this.pool.wait(backoff(attempt));
        continue;
      }
      if (exchange.error) throw new ExchangeFailed(exchange);
      return exchange;
    }
  }

  /** --retries: an idempotent request that got no answer or a 5xx is sent again, while attempts are left. */
  private retrying(ex: Exchange): boolean {
    const worth = ex.silent || (ex.status >= 500 && !ex.error);
    return worth && !this.reobserver.halted(serviceOf(ex.request)) && IDEMPOTENT.has(ex.request.method) && ex.attempt <= this.options.retries;
  }

  /**
   * Nothing more is sent to the service (it stopped answering, or the preflight could
   * not reach it): its requests in flight or waiting end, unanswered; the other
   * service's go on.
   */
  stop(service: Service, reason: string): void {
    this.reobserver.stop(service, reason);
  }

  /** Resolves after ms, or at once when the run deadline passes (Pool.wait). */
  wait(ms: number): Promise<void> {
    return this.pool.wait(ms);
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
    await this.pool.acquire(alone, serviceOf(req));
    const slot = this.pool.begin();
    exchange.sentAt = performance.now();
    const dispatcher = probe ? dispatcherFor(exchange.timeoutMs) : this.wire.dispatcher;
    let body: Buffer | undefined;
    try {
      this.exchanges.push(exchange);
      body = await this.wire.exchange(exchange, dispatcher);
    } finally {
      exchange.durationMs = performance.now() - exchange.sentAt;
      exchange.sentAlone = this.pool.sentAlone(slot);
      // an attempt sent alone says nothing about how many at once the server takes
      if (!alone) this.pool.pace(exchange, slot.poolFull);
      if (!body) this.pool.release();
      if (probe) await dispatcher.destroy().catch(() => undefined);
    }
    if (body) {
      // the slot is held until the body is read: bodies waiting to be parsed are in flight too (BodyReader)
      try {
        await this.reader.read(exchange, body);
      } finally {
        this.pool.release();
      }
    }
    return exchange;
  }

  async close(): Promise<void> {
    this.pool.wakeAll();
    await this.wire.close();
  }
}
