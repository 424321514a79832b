// The one HTTP helper every check sends through: a timeout on every request, the
// run's deadline, no redirect following (a redirect is a finding, and the key must
// never travel to another origin), a cap on body size, a bounded number of requests
// in flight, and a transcript of every exchange.
import { Agent, request } from 'undici';
import { parseJson } from './json.js';
import { CheckError } from './outcome.js';
import type { Redactor } from './redact.js';
import type { ExchangeRecord } from './types.js';

export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface HttpOptions {
  timeoutMs: number;
  maxBodyBytes: number;
  concurrency: number;
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
  durationMs = 0;
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
    const outcome = this.error ? `no response (${this.error})` : String(this.status);
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
        response: { status: this.status, headers: redactHeaders(this.headers), body: r(this.text), truncated: this.truncated },
      }),
      ...(this.error && { error: r(this.error) }),
      durationMs: Math.round(this.durationMs),
      curl: this.redactor.redactShell(curlCommand(this.request)),
    };
  }
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

export class HttpClient {
  readonly exchanges: Exchange[] = [];
  private readonly agent: Agent;
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly options: HttpOptions) {
    this.agent = new Agent({
      connect: { timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  get requestCount(): number {
    return this.exchanges.length;
  }

  /** Sends one request; throws CheckError when no complete response arrives. */
  async send(req: HttpRequest): Promise<Exchange> {
    const exchange = new Exchange(
      { ...req, headers: { 'user-agent': this.options.userAgent, ...req.headers } },
      this.options.redactor,
    );
    await this.acquire();
    const started = performance.now();
    try {
      this.exchanges.push(exchange);
      await this.exchange(exchange);
    } finally {
      exchange.durationMs = performance.now() - started;
      this.release();
    }
    if (exchange.error) throw new CheckError(`${exchange.summary}`, [exchange]);
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
      const res = await request(ex.request.url, {
        method: ex.request.method as any,
        headers: ex.request.headers,
        body: ex.request.body,
        signal,
        dispatcher: this.agent,
      });
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
    await this.agent.destroy().catch(() => undefined);
  }
}

function describeNetworkError(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.code ?? e?.cause?.code;
  const message = e?.cause?.message ?? e?.message ?? String(err);
  return code ? `${code}: ${message}` : message;
}
