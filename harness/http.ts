// The one HTTP helper every check sends through: a timeout on every request, the
// run's deadline, no redirect following (a redirect is a finding, and the key must
// never travel to another origin), a cap on body size, a bounded number of requests
// in flight, and a transcript of every exchange.
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseJson } from './json.js';
import { CheckError } from './outcome.js';
import type { Redactor } from './redact.js';
import type { ExchangeRecord } from './types.js';

export interface HttpRequest {
  /** The operationId, for latency figures and evidence. */
  operation?: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

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
}

const NOT_PARSED = Symbol('not parsed');

export class Exchange {
  status = 0;
  headers: Record<string, string> = {};
  text = '';
  truncated = false;
  error?: string;
  /** No response arrived for a reason worth another try (not a timeout or the deadline). */
  transient = false;
  durationMs = 0;
  attempt = 1;
  private parsed: unknown = NOT_PARSED;

  constructor(readonly request: HttpRequest, private readonly redactor: Redactor) {}

  /** The body parsed as JSON (int64-exact), or undefined when it is not JSON. */
  get json(): unknown {
    if (this.parsed === NOT_PARSED) {
      try { this.parsed = parseJson(this.text); } catch { this.parsed = undefined; }
    }
    return this.parsed;
  }

  get mediaType(): string {
    return (this.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  }

  /** "GET /v1/pets?limit=1 -> 200", for messages. */
  get summary(): string {
    const url = new URL(this.request.url);
    // a status line may have arrived before the body failed (cap, timeout, reset)
    const outcome = !this.error ? String(this.status)
      : this.status > 0 ? `${this.status}, body incomplete (${this.error})`
      : `no response (${this.error})`;
    return this.redactor.redact(`${this.request.method} ${url.pathname}${url.search} -> ${outcome}`);
  }

  record(): ExchangeRecord {
    const r = (s: string) => this.redactor.redact(s);
    const redactHeaders = (h: Record<string, string>) =>
      Object.fromEntries(Object.entries(h).map(([k, v]) => [k, r(v)]));
    return {
      request: {
        method: this.request.method,
        url: r(this.request.url),
        headers: redactHeaders(this.request.headers ?? {}),
        ...(this.request.body !== undefined && { body: r(this.request.body) }),
      },
      ...(this.status > 0 && {
        // redacted before it is cut, so no secret is left half-shown at the cut
        response: { status: this.status, headers: redactHeaders(this.headers), ...evidenceBody(r(this.text), this.truncated) },
      }),
      ...(this.error && { error: r(this.error) }),
      durationMs: Math.round(this.durationMs),
      ...(this.attempt > 1 && { attempt: this.attempt }),
      ...(this.request.operation && { operation: this.request.operation }),
      curl: this.redactor.redactShell(curlCommand(this.request)),
    };
  }
}

/**
 * The most of a body one piece of evidence shows. A requirement cites up to 8
 * exchanges and the body cap is 1 MiB, so without it a server answering with
 * endless bodies made each report tens of megabytes, written after the deadline.
 */
export const MAX_EVIDENCE_BODY_CHARS = 16 * 1024;

function evidenceBody(body: string, truncated: boolean): { body: string; truncated: boolean } {
  return body.length > MAX_EVIDENCE_BODY_CHARS
    ? { body: body.slice(0, MAX_EVIDENCE_BODY_CHARS), truncated: true }
    : { body, truncated };
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A curl command that sends the same request (secrets are redacted by the caller). */
export function curlCommand(req: HttpRequest): string {
  const parts = ['curl', '-sS', '-i', '-X', req.method, quote(req.url)];
  const headers = Object.entries(req.headers ?? {}).filter(([k]) => k.toLowerCase() !== 'user-agent');
  for (const [k, v] of headers) parts.push('-H', quote(`${k}: ${v}`));
  if (req.body !== undefined) {
    // curl adds a form Content-Type to a body unless told not to
    if (!headers.some(([k]) => k.toLowerCase() === 'content-type')) parts.push('-H', quote('Content-Type:'));
    parts.push('--data-raw', quote(req.body));
  }
  return parts.join(' ');
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
/** Retries of a 429 beyond --retries. */
const RATE_LIMIT_RETRIES = 3;
const PROXY_VARIABLES = ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy'];

/** Waits before attempt n+1: Retry-After when the server gives seconds (at most 10 s), else 250 ms doubling. */
function backoffMs(attempt: number, retryAfter: string | undefined): number {
  const seconds = Number(retryAfter);
  if (retryAfter && Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds, 10) * 1000;
  return Math.min(250 * 2 ** (attempt - 1), 4000);
}

export class HttpClient {
  /** Every attempt of every request, in the order they were sent. */
  readonly exchanges: Exchange[] = [];
  private readonly dispatcher: Dispatcher;
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly options: HttpOptions) {
    const timeouts = { connect: { timeout: options.timeoutMs }, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs };
    // HTTP(S)_PROXY and NO_PROXY are honoured as users set them for every other tool
    this.dispatcher = PROXY_VARIABLES.some((v) => process.env[v])
      ? new EnvHttpProxyAgent(timeouts)
      : new Agent(timeouts);
  }

  get requestCount(): number {
    return this.exchanges.length;
  }

  get retryCount(): number {
    return this.exchanges.filter((e) => e.attempt > 1).length;
  }

  /**
   * Sends one request, retrying an idempotent one after a network error, 429 or
   * 503 as --retries allows; throws CheckError when no complete response arrives.
   */
  async send(req: HttpRequest): Promise<Exchange> {
    for (let attempt = 1; ; attempt++) {
      const exchange = await this.attempt(req, attempt);
      const retry = !this.options.signal.aborted && (
        // 429: the server did not act on the request, so any method may be sent again;
        // rate limits are "not shown" in the description, so waiting is no finding
        (exchange.status === 429 && attempt <= this.options.retries + RATE_LIMIT_RETRIES)
        || (IDEMPOTENT.has(req.method) && attempt <= this.options.retries && (exchange.transient || exchange.status === 503)));
      if (retry) {
        await sleep(backoffMs(attempt, exchange.headers['retry-after']), undefined, { signal: this.options.signal }).catch(() => undefined);
        continue;
      }
      if (exchange.error) throw new CheckError(`${exchange.summary}`, [exchange]);
      // still rate limited: the check could not be carried out, which is not a violation
      if (exchange.status === 429) throw new CheckError(`${exchange.summary} (rate limited after ${attempt} attempts)`, [exchange]);
      return exchange;
    }
  }

  private async attempt(req: HttpRequest, attempt: number): Promise<Exchange> {
    const exchange = new Exchange(
      { ...req, headers: { 'user-agent': this.options.userAgent, ...req.headers } },
      this.options.redactor,
    );
    exchange.attempt = attempt;
    await this.acquire();
    const started = performance.now();
    try {
      this.exchanges.push(exchange);
      await this.exchange(exchange);
    } finally {
      exchange.durationMs = performance.now() - started;
      this.release();
    }
    return exchange;
  }

  private async exchange(ex: Exchange): Promise<void> {
    const { timeoutMs, maxBodyBytes, signal: runSignal } = this.options;
    if (runSignal.aborted) {
      ex.error = 'not sent: the run deadline has passed';
      return;
    }
    const signal = AbortSignal.any([runSignal, AbortSignal.timeout(timeoutMs)]);
    try {
      const res = await untilAborted(request(ex.request.url, {
        method: ex.request.method as any,
        headers: ex.request.headers,
        body: ex.request.body,
        signal,
        dispatcher: this.dispatcher,
      }), signal);
      ex.status = res.statusCode;
      for (const [k, v] of Object.entries(res.headers)) {
        if (v !== undefined) ex.headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      }
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
      ex.error = runSignal.aborted ? 'aborted: the run deadline has passed'
        : signal.aborted ? `timed out after ${timeoutMs} ms`
        : describeNetworkError(err);
      ex.transient = !signal.aborted && ex.status === 0;
    }
  }

  private async acquire(): Promise<void> {
    if (this.active < this.options.concurrency) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next(); // the slot passes straight to the next request
    else this.active--;
  }

  async close(): Promise<void> {
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
