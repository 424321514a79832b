// One request and what came back: the Exchange every check judges and cites, its
// record for the reports (body capped), and the curl command that sends it again.
// The client (client.ts) makes them; a failed one is thrown as ExchangeFailed.
import { parseJson } from '../model/json.js';
import { CheckError } from '../model/outcome.js';
import type { ExchangeRecord, Service } from '../model/types.js';
import type { Redactor } from './redact.js';

export interface HttpRequest {
  /** Which service it is sent to: the reports judge each service's answers apart (never by URL prefix). */
  service?: Service;
  /** The operationId, for latency figures and evidence. */
  operation?: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Send the body chunked (Transfer-Encoding: chunked, RFC 9112 7.1) instead of with a Content-Length. */
  chunked?: boolean;
}

/**
 * Why no complete answer arrived. timeout: the request timeout ended it (before the
 * status line or during the body); connection: reset, refused, closed, a socket error;
 * body-cap: the body was cut at --max-body; deadline: the run deadline (or an
 * interruption) ended it; stopped: the target had stopped answering (reobserve.ts).
 */
export type Failure = 'timeout' | 'connection' | 'body-cap' | 'deadline' | 'stopped';

/** A safe method (RFC 9110 9.2.1): it reads and changes nothing on the server. */
export const isSafeMethod = (method: string) => method === 'GET' || method === 'HEAD' || method === 'OPTIONS';

/** A 429, or a 503 with Retry-After: the server asks to be called again later (rate limits are "not shown"). */
export const isRateLimit = (ex: Exchange) => ex.status === 429 || (ex.status === 503 && ex.headers['retry-after'] !== undefined);

/**
 * A server error: a 5xx that is neither a rate limit nor a 501 (HTTP's answer for a
 * method the server does not implement, which says the same whenever it is asked). It
 * is STORE-NO-5XX's (or QS-NO-5XX's) finding, and no other requirement's.
 */
export const isServerError = (ex: Exchange) => ex.status >= 500 && ex.status !== 501 && !isRateLimit(ex);

/** The service a request goes to (a request built without one: the store). */
export const serviceOf = (req: HttpRequest): Service => req.service ?? 'store';

/** What makes requests of one kind: method, operation (or path), and the names of the query parameters. */
export function kindOf(req: HttpRequest): string {
  const url = new URL(req.url);
  const names = [...new Set(url.searchParams.keys())].sort();
  return `${req.method} ${req.operation ?? url.pathname}?${names.join('&')}`;
}

/** The server answered: a status line and a body (cut at the cap or whole), not silence after a status line. */
export const answered = (ex: Exchange) => ex.status > 0 && !ex.silent;

/** How much of the start of a body bodyExcerpt reads: an HTML page's title is in its first few kilobytes. */
const EXCERPT_CHARS = 64 * 1024;

export class Exchange {
  status = 0;
  headers: Record<string, string> = {};
  text = '';
  truncated = false;
  error?: string;
  /** Set with error: why no complete answer arrived. */
  failure?: Failure;
  /** No other request of the client was in flight at any moment of this one. */
  sentAlone = false;
  durationMs = 0;
  /** The timeout it was sent with (ms): the run's, or more for a liveness probe. */
  timeoutMs = 0;
  /** performance.now() when the request was sent. */
  sentAt = 0;
  attempt = 1;
  /** The same-origin redirect this exchange followed, when it did. */
  redirectedFrom?: Exchange;
  /** This answer was a redirect the client followed: the next hop is the answer that counts. */
  followed = false;
  /** The attempt that was sent in place of this one (after a 429, a retry, no answer): its answer counts, not this one. */
  next?: Exchange;
  /** The body parsed, with the text it was parsed from: the text is '' until the client has read the whole body. */
  private parsed?: { text: string; value: unknown };
  /** transcribed() as last made, and how many secrets the redactor knew then (a record is made again once it knows more). */
  private transcript?: { secrets: number; record: Omit<ExchangeRecord, 'curl'> };

  constructor(
    readonly request: HttpRequest,
    private readonly redactor: Redactor,
  ) {}

  /** A 2xx answer. */
  get succeeded(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  /** Another attempt of the same request was sent in its place (next). */
  get superseded(): boolean {
    return this.next !== undefined;
  }

  /** The last attempt of this request: the one whose answer counts. */
  get final(): Exchange {
    return this.next ? this.next.final : this;
  }

  /**
   * No answer for a reason of observation: a timeout, or a connection that failed; not
   * the run deadline, and not the body cap. The client observes such a request again
   * before anything is blamed on the server (client.ts).
   */
  get silent(): boolean {
    return this.failure === 'timeout' || this.failure === 'connection';
  }

  /** Set when the body is not what its Content-Encoding says (a coding the request accepted): why it could not be decoded. */
  undecodable?: string;

  /** "GET /v1/pets?limit=1", for messages. */
  get target(): string {
    const url = new URL(this.request.url);
    return this.redactor.redact(`${this.request.method} ${url.pathname}${url.search}`);
  }

  /**
   * The body parsed as JSON (int64-exact), or undefined when it is not JSON. A body
   * cut off (at the size cap, by a timeout) is never parsed: it is not the server's
   * answer, and parsing a megabyte of a hostile body cost seconds of the run's CPU.
   */
  get json(): unknown {
    if (this.truncated || this.error !== undefined || this.undecodable !== undefined) return undefined;
    this.parse();
    return this.parsed?.value;
  }

  /**
   * Parses the body, once. The client calls it as each answer completes, so that every
   * body is parsed as a piece of work of its own (an 11 MB page took 0.15 s), never many
   * in one go where checks judge many pages together and the run can do nothing else.
   */
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

  /**
   * A body that is not JSON, for a message: its media type and one line of it (an HTML
   * page's title, else its first characters, white space folded), never the page itself:
   * 'a text/html body of 1532 bytes, titled "502 Bad Gateway"'.
   */
  get bodyExcerpt(): string {
    if (this.undecodable) return this.undecodable;
    const type = this.mediaType || 'no Content-Type';
    // the start of a body is all a message shows (a title, 80 characters): a body may be megabytes
    const text = this.text.slice(0, EXCERPT_CHARS).replace(/\s+/g, ' ').trim();
    if (!text) return `an empty body (${type})`;
    const title = type.includes('html') ? /<title[^>]*>([^<]*)</i.exec(text)?.[1]?.trim() : undefined;
    const chars = [...this.redactor.redact(title || text)];
    const line = `"${chars.slice(0, 80).join('')}${chars.length > 80 ? '…' : ''}"`;
    const article = /^[aeiou]/i.test(type) ? 'an' : 'a';
    return `${article} ${type} body of ${Buffer.byteLength(this.text)} bytes${this.truncated ? ' (cut off)' : ''}, ${title ? 'titled' : 'beginning'} ${line}`;
  }

  /** "GET /v1/pets?limit=1 -> 200", for messages. */
  get summary(): string {
    // a status line may have arrived before the body failed (cap, timeout, reset)
    const outcome = !this.error ? String(this.status) : this.status > 0 ? `${this.status}, body incomplete (${this.error})` : `no response (${this.error})`;
    const from = this.redirectedFrom && new URL(this.redirectedFrom.request.url);
    const after = from ? ` (after a redirect from ${from.pathname}${from.search})` : '';
    return `${this.target} -> ${this.redactor.redact(outcome + after)}`;
  }

  /** The exchange as evidence: redacted, the body capped, and the curl line that sends it again. */
  record(): ExchangeRecord {
    return { ...this.transcribed(), curl: this.redactor.redactShell(curlCommand(this.request)) };
  }

  /**
   * The record without its curl line (which no transcript shows). Made once for the
   * reports that cite the exchange and the transcript alike (an exchange is complete by
   * the time any report asks), so each body is redacted once.
   */
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

/**
 * The most of a body one piece of evidence shows. A requirement cites up to 8
 * exchanges and the body cap is 16 MiB (--max-body), so without it a server answering
 * with endless bodies made each report hundreds of megabytes, written after the deadline.
 */
export const MAX_EVIDENCE_BODY_CHARS = 16 * 1024;

/**
 * A body as evidence: redacted, then cut, so that no secret is left half-shown at the cut.
 * Only the part shown and the longest secret beyond it are redacted, not the megabytes
 * after (each a scan for every secret); the last of that part, where a secret may have
 * been cut off unredacted, is never shown.
 */
function evidenceBody(text: string, truncated: boolean, redactor: Redactor): { body: string; truncated: boolean } {
  const margin = redactor.longest;
  const read = text.length > MAX_EVIDENCE_BODY_CHARS + margin ? text.slice(0, MAX_EVIDENCE_BODY_CHARS + margin) : text;
  const body = redactor.redact(read);
  const most = read === text ? MAX_EVIDENCE_BODY_CHARS : Math.min(MAX_EVIDENCE_BODY_CHARS, body.length - margin);
  return body.length > most ? { body: body.slice(0, most), truncated: true } : { body, truncated };
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
    if (req.chunked) parts.push('-H', quote('Transfer-Encoding: chunked'));
    parts.push('--data-raw', quote(req.body));
  }
  return parts.join(' ');
}

/** No complete response could be observed (cap, deadline, a target that never answered): a check error that carries the exchange. */
export class ExchangeFailed extends CheckError {
  constructor(
    readonly exchange: Exchange,
    message = exchange.summary,
  ) {
    super(message, [exchange]);
  }
}
