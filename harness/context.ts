// What a check gets: the spec, the profile, one request helper for each service,
// the shared fixtures, and a place for notes and evidence.
import type { Exchange } from './http.js';
import type { Session } from './session.js';
import type { Requirement } from './types.js';
import { nearMiss } from './redact.js';

/** valid: Bearer <the configured key>; none: no Authorization header; any other string: that header value. */
export type Auth = 'valid' | 'none' | { header: string };

export interface CallOptions {
  params?: Record<string, string | number | bigint>;
  query?: Record<string, string | number>;
  auth?: Auth;
  /** A JSON value to send (serialised), or raw text to send as is. */
  json?: unknown;
  raw?: string;
  /** Content-Type of a body: application/json unless given; null sends none. */
  contentType?: string | null;
}

export class CheckContext {
  readonly notes: string[] = [];
  readonly evidence: Exchange[] = [];

  constructor(readonly session: Session, readonly requirement: Requirement) {}

  get spec() { return this.session.specs.store; }
  get quickstartSpec() { return this.session.specs.quickstart; }
  get profile() { return this.session.options.profile; }
  get now() { return this.session.options.now; }
  get fixtures() { return this.session.fixtures; }
  get runPrefix() { return this.session.runPrefix; }
  get apiKey() { return this.session.options.target.apiKey; }
  get quickstartApiKey() { return this.session.options.target.quickstartApiKey ?? this.apiKey; }
  /** The key with its last character changed: invalid, though of the right form. */
  get invalidKey() { return nearMiss(this.apiKey, '$API_KEY').value; }
  get invalidQuickstartKey() { return nearMiss(this.quickstartApiKey, '$QUICKSTART_API_KEY').value; }

  note(message: string): void {
    this.notes.push(message);
  }

  /** Calls an animal-store operation by its operationId, built from the spec. */
  async call(operationId: string, options: CallOptions = {}): Promise<Exchange> {
    const op = this.spec.operation(operationId);
    const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      const value = options.params?.[name];
      if (value === undefined) throw new Error(`${operationId} needs path parameter ${name}`);
      return encodeURIComponent(String(value));
    });
    const ex = await this.session.send({ ...op, url: this.session.options.target.baseUrl + path }, options, this.apiKey);
    this.evidence.push(ex);
    return ex;
  }

  /** Sends to the quickstart message service. */
  async sendMessage(options: CallOptions = {}): Promise<Exchange> {
    const op = this.quickstartSpec.operation('sendMessage');
    const base = this.session.options.target.quickstartBaseUrl!;
    const ex = await this.session.send({ ...op, url: base + op.path }, options, this.quickstartApiKey);
    this.evidence.push(ex);
    return ex;
  }

  /** Adds exchanges made elsewhere (a shared fixture) to this check's evidence. */
  cite(...exchanges: Exchange[]): void {
    for (const ex of exchanges) if (!this.evidence.includes(ex)) this.evidence.push(ex);
  }
}
