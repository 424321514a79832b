// What a check gets: the spec, the profile, one request helper for each service,
// the shared fixtures, and a place for notes and evidence.
import type { Exchange } from './http.js';
import type { Session } from './session.js';
import type { Requirement } from './types.js';
import { nearMisses } from './redact.js';

/** Five minutes: servers synchronised by NTP agree within seconds; a wrong zone is off by hours. */
export const DEFAULT_CLOCK_TOLERANCE_MS = 5 * 60_000;

/** How long a check waits before it asks again (askAgain). */
export const CONFIRM_DELAY_MS = 500;

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
  /** How far a server's clock may be from the suite's (QS-CREATED-AT-CLOCK). */
  get clockToleranceMs() { return this.session.options.clockToleranceMs ?? DEFAULT_CLOCK_TOLERANCE_MS; }
  get fixtures() { return this.session.fixtures; }
  get runPrefix() { return this.session.runPrefix; }
  get apiKey() { return this.session.options.target.apiKey; }
  get quickstartApiKey() { return this.session.quickstartApiKey; }
  /** Keys that resemble the valid one but are not it (see nearMisses); the first is the key with its last character changed. */
  get invalidKeys() { return nearMisses(this.apiKey, '$API_KEY'); }
  get invalidQuickstartKeys() { return nearMisses(this.quickstartApiKey, '$QUICKSTART_API_KEY'); }

  note(message: string): void {
    this.notes.push(message);
  }

  /** Calls an animal-store operation by its operationId, built from the spec. */
  async call(operationId: string, options: CallOptions = {}): Promise<Exchange> {
    return this.collect(await this.session.call('store', operationId, options));
  }

  /** Sends to the quickstart message service. */
  async sendMessage(options: CallOptions = {}): Promise<Exchange> {
    return this.collect(await this.session.call('quickstart', 'sendMessage', options));
  }

  /** Sends the same request again. */
  async resend(ex: Exchange): Promise<Exchange> {
    return this.collect(await this.session.client.send(ex.request));
  }

  /**
   * Waits, then sends the same request again: a check confirms this way a failure a
   * live or eventually consistent store could cause without being wrong (a write
   * shown late, a status changed by another client).
   */
  async askAgain(ex: Exchange): Promise<Exchange> {
    await new Promise<void>((r) => setTimeout(r, CONFIRM_DELAY_MS));
    return this.resend(ex);
  }

  private collect(ex: Exchange): Exchange {
    this.evidence.push(ex);
    return ex;
  }

  /** Adds exchanges made elsewhere (a shared fixture) to this check's evidence. */
  cite(...exchanges: Exchange[]): void {
    for (const ex of exchanges) if (!this.evidence.includes(ex)) this.evidence.push(ex);
  }
}
