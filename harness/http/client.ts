// The one HTTP client every check sends through; the rule for a request that got no answer is below.
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
  retries: number;
  signal: AbortSignal;
  userAgent: string;
  redactor: Redactor;
  rate?: number;
  /** A request the target answers whenever it answers anything; unset: a silent request could not be judged. */
  probeFor?: (silent: HttpRequest) => HttpRequest;
  /** Told once per service, when it stopped answering. */
  onStop?: (service: Service, reason: string) => void;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/*
 * A request fails only on an answer. An attempt with no answer for a reason of
 * observation (a timeout, a failed connection; not the deadline or the body cap):
 * 1. halves the requests in flight (pool.ts);
 * 2. with --retries, an idempotent one is sent again after a backoff;
 * 3. is sent again alone, whatever its method (the suite's POSTs create only run-named
 *    data), unless it timed out alone already: a server may close an idle connection
 *    as the request goes out (RFC 9112 9.5);
 * 4. still silent: a liveness probe goes alone, on its own connection, with twice the
 *    timeout, as a server still working off abandoned requests answers it only after
 *    them. Answered: the request is sent alone once more, and silence then is a
 *    Violation, its kind judged at once from then on, so that one hanging route cannot
 *    eat the deadline. Not answered: the service stopped, and is sent nothing more.
 *    A service that never answered has not stopped: the request could not be judged.
 */

export class HttpClient {
  readonly exchanges: Exchange[] = [];
  private readonly pool: Pool;
  private readonly wire: Wire;
  private readonly reader: BodyReader;
  private readonly reobserver: Reobserver;
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

  get rateLimitedCount(): number {
    return this.exchanges.filter(isRateLimit).length;
  }

  /** Throws CheckError when no complete answer can be observed, Violation when the server answers others but never this kind of request. */
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
        // waiting is no finding: a run that cannot finish for rate limits ends as could-not-be-made (Session)
        this.rateLimitedAtDeadline = true;
        throw new ExchangeFailed(lastLimited, `${lastLimited.summary} (still rate limited when the run deadline passed)`);
      }
      // the server did not act on it, so any method may be sent again
      if (limited && !this.reobserver.halted(service)) continue;
      if (this.retrying(exchange)) {
        await this.pool.wait(backoff(attempt));
        continue;
      }
      if (exchange.error) throw new ExchangeFailed(exchange);
      return exchange;
    }
  }

  private retrying(ex: Exchange): boolean {
    const worth = ex.silent || (ex.status >= 500 && !ex.error);
    return worth && !this.reobserver.halted(serviceOf(ex.request)) && IDEMPOTENT.has(ex.request.method) && ex.attempt <= this.options.retries;
  }

  stop(service: Service, reason: string): void {
    this.reobserver.stop(service, reason);
  }

  wait(ms: number): Promise<void> {
    return this.pool.wait(ms);
  }

  /** `previous`: the attempt it is sent in place of; a probe goes alone, on a connection of its own. */
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
      // bodies waiting to be parsed are in flight too (BodyReader)
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
