import { parseJson } from '../model/json.js';
import { CheckError } from '../model/outcome.js';
import type { ExchangeRecord, Service } from '../model/types.js';
import type { Redactor } from './redact.js';

export interface HttpRequest {
  /** The reports judge each service's answers apart, never by URL prefix. */
  service?: Service;
  operation?: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Transfer-Encoding: chunked instead of a Content-Length. */
  chunked?: boolean;
}

/** Why no complete answer arrived; stopped: the target had stopped answering (reobserve.ts). */
type Failure = 'timeout' | 'connection' | 'body-cap' | 'deadline' | 'stopped';

export const isSafeMethod = (method: string) => method === 'GET' || method === 'HEAD' || method === 'OPTIONS';

/** The server asks to be called again later. */
export const isRateLimit = (ex: Exchange) => ex.status === 429 || (ex.status === 503 && ex.headers['retry-after'] !== undefined);

/** A 501 is HTTP's answer for a method the server does not implement, no failure. */
export const isServerError = (ex: Exchange) => ex.status >= 500 && ex.status !== 501 && !isRateLimit(ex);

export const serviceOf = (req: HttpRequest): Service => req.service ?? 'store';

/** Requests of one kind share method, operation (or path) and query parameter names. */
export function kindOf(req: HttpRequest): string {
  const url = new URL(req.url);
  const names = [...new Set(url.searchParams.keys())].sort();
  return `${req.method} ${req.operation ?? url.pathname}?${names.join('&')}`;
}

/** A status line and a body (cut at the cap or whole), not silence after a status line. */
export const answered = (ex: Exchange) => ex.status > 0 && !ex.silent;

/** An HTML page's title is in its first few kilobytes. */
const EXCERPT_CHARS = 64 * 1024;

export class Exchange {
  status = 0;
  headers: Record<string, string> = {};
  text = '';
  truncated = false;
  error?: string;
  failure?: Failure;
  /** No other request of the client was in flight at any moment of this one. */
  sentAlone = false;
  durationMs = 0;
  /** The run's, or more for a liveness probe. */
  timeoutMs = 0;
  sentAt = 0;
  attempt = 1;
  redirectedFrom?: Exchange;
  /** A redirect the client followed: the next hop is the answer that counts. */
  followed = false;
  /** The attempt sent in place of this one (after a 429, a retry, no answer): its answer counts. */
  next?: Exchange;
  /** With the text it was parsed from: the text is '' until the whole body is read. */
  private parsed?: { text: string; value: unknown };
  /** Made again once the redactor knows more secrets. */
  private transcript?: { secrets: number; record: Omit<ExchangeRecord, 'curl'> };

  constructor(
    readonly request: HttpRequest,
    private readonly redactor: Redactor,
  ) {}

  get succeeded(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get superseded(): boolean {
    return this.next !== undefined;
  }

  get final(): Exchange {
    return this.next ? this.next.final : this;
  }

  /** No answer for a reason of observation: the client observes it again before blaming the server. */
  get silent(): boolean {
    return this.failure === 'timeout' || this.failure === 'connection';
  }

  /** Why the body is not what its Content-Encoding says. */
  undecodable?: string;

  get target(): string {
    const url = new URL(this.request.url);
    return this.redactor.redact(`${this.request.method} ${url.pathname}${url.search}`);
  }

  /** A body cut off is not the server's answer, and parsing a hostile one cost seconds of CPU: never parsed. */
  get json(): unknown {
    if (this.truncated || this.error !== undefined || this.undecodable !== undefined) return undefined;
    this.parse();
    return this.parsed?.value;
  }

  /** Called as each answer completes, so that many large bodies are never parsed in one go when checks judge them together. */
  parse(): void {
    if (this.parsed?.text === this.text || this.truncated || this.error !== undefined || this.undecodable !== undefined) return;
    let value: unknown;
    try {
      value = parseJson(this.text);
    } catch {
      value = undefined;
    }
    this.parsed = { text: this.text, value };
  }

  get mediaType(): string {
    return (this.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  }

  /** 'a text/html body of 1532 bytes, titled "502 Bad Gateway"', never the page itself. */
  get bodyExcerpt(): string {
    if (this.undecodable) return this.undecodable;
    const type = this.mediaType || 'no Content-Type';
    const text = this.text.slice(0, EXCERPT_CHARS).replace(/\s+/g, ' ').trim();
    if (!text) return `an empty body (${type})`;
    const title = type.includes('html') ? /<title[^>]*>([^<]*)</i.exec(text)?.[1]?.trim() : undefined;
    const chars = [...this.redactor.redact(title || text)];
    const line = `"${chars.slice(0, 80).join('')}${chars.length > 80 ? '…' : ''}"`;
    const article = /^[aeiou]/i.test(type) ? 'an' : 'a';
    return `${article} ${type} body of ${Buffer.byteLength(this.text)} bytes${this.truncated ? ' (cut off)' : ''}, ${title ? 'titled' : 'beginning'} ${line}`;
  }

  /** "GET /v1/pets?limit=1 -> 200" */
  get summary(): string {
    const outcome = !this.error ? String(this.status) : this.status > 0 ? `${this.status}, body incomplete (${this.error})` : `no response (${this.error})`;
    const from = this.redirectedFrom && new URL(this.redirectedFrom.request.url);
    const after = from ? ` (after a redirect from ${from.pathname}${from.search})` : '';
    return `${this.target} -> ${this.redactor.redact(outcome + after)}`;
  }

  record(): ExchangeRecord {
    return { ...this.transcribed(), curl: this.redactor.redactShell(curlCommand(this.request)) };
  }

  /** Made once for every report that cites it, so each body is redacted once. */
  transcribed(): Omit<ExchangeRecord, 'curl'> {
    const secrets = this.redactor.size;
    if (this.transcript?.secrets !== secrets) this.transcript = { secrets, record: this.redactedRecord() };
    return this.transcript.record;
  }

  private redactedRecord(): Omit<ExchangeRecord, 'curl'> {
    const r = (s: string) => this.redactor.redact(s);
    const redactHeaders = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k, r(v)]));
    return {
      request: {
        method: this.request.method,
        url: r(this.request.url),
        headers: redactHeaders(this.request.headers ?? {}),
        ...(this.request.body !== undefined && { body: r(this.request.body) }),
      },
      ...(this.status > 0 && {
        response: { status: this.status, headers: redactHeaders(this.headers), ...evidenceBody(this.text, this.truncated, this.redactor) },
      }),
      ...(this.error && { error: r(this.error) }),
      durationMs: Math.round(this.durationMs),
      ...(this.attempt > 1 && { attempt: this.attempt }),
      ...(this.request.operation && { operation: this.request.operation }),
    };
  }
}

/** Without it, endless bodies made each report hundreds of megabytes. */
export const MAX_EVIDENCE_BODY_CHARS = 16 * 1024;

/** Redacted, then cut, so that no secret is left half-shown at the cut; only the part shown and the longest secret beyond it are redacted. */
function evidenceBody(text: string, truncated: boolean, redactor: Redactor): { body: string; truncated: boolean } {
  const margin = redactor.longest;
  const read = text.length > MAX_EVIDENCE_BODY_CHARS + margin ? text.slice(0, MAX_EVIDENCE_BODY_CHARS + margin) : text;
  const body = redactor.redact(read);
  const most = read === text ? MAX_EVIDENCE_BODY_CHARS : Math.min(MAX_EVIDENCE_BODY_CHARS, body.length - margin);
  return body.length > most ? { body: body.slice(0, most), truncated: true } : { body, truncated };
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function curlCommand(req: HttpRequest): string {
  const parts = ['curl', '-sS', '-i', '-X', req.method, quote(req.url)];
  const headers = Object.entries(req.headers ?? {}).filter(([k]) => k.toLowerCase() !== 'user-agent');
  for (const [k, v] of headers) parts.push('-H', quote(`${k}: ${v}`));
  if (req.body !== undefined) {
    // curl adds a form Content-Type to a body unless told not to
    if (!headers.some(([k]) => k.toLowerCase() === 'content-type')) parts.push('-H', quote('Content-Type:'));
    if (req.chunked) parts.push('-H', quote('Transfer-Encoding: chunked'));
    parts.push('--data-raw', quote(req.body));
  }
  return parts.join(' ');
}

export class ExchangeFailed extends CheckError {
  constructor(
    readonly exchange: Exchange,
    message = exchange.summary,
  ) {
    super(message, [exchange]);
  }
}
