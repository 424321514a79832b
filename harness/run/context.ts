// All a check may ask of the run (kit.ts: everything else it may use).
import { isRateLimit, type Exchange } from '../http/exchange.js';
import type { Session } from './session.js';
import type { Auth, CallOptions, Service } from './request.js';
import type { CatalogueEntry } from '../api/catalogue.js';
import { validNewPet } from '../api/bodies.js';
import { referenceValues } from './round-trip.js';
import type { Fixtures } from './fixtures.js';
import type { CredentialKind } from '../api/credentials.js';
import { pollWithinWindow } from './window.js';

export type { Auth, CallOptions } from './request.js';
export { fillPath } from './request.js';
export { waitedFor, type Polled } from './window.js';
export type { ListPage, ListPageTable } from './list-pages.js';

export class CheckContext {
  readonly notes: string[] = [];
  readonly evidence: Exchange[] = [];
  /** Requests this check sent (its catalogue health.requests bounds them). */
  requestsSent = 0;

  constructor(
    private readonly session: Session,
    private readonly fixtures: Fixtures,
    readonly requirement: CatalogueEntry,
  ) {}

  get seeding() {
    return this.fixtures.seeding;
  }
  get lists() {
    return this.fixtures.lists;
  }
  get probes() {
    return this.fixtures.probes;
  }
  get visible() {
    return this.fixtures.visible;
  }
  get roundTrips() {
    return this.fixtures.roundTrips;
  }
  get quickstart() {
    return this.fixtures.quickstart;
  }

  get spec() {
    return this.session.specs.store;
  }
  get quickstartSpec() {
    return this.session.specs.quickstart;
  }
  get profile() {
    return this.session.options.profile;
  }
  get now() {
    return this.session.options.now;
  }
  get seed() {
    return this.session.seed;
  }
  get clockToleranceMs() {
    return this.session.options.clockToleranceMs;
  }
  get runPrefix() {
    return this.session.runPrefix;
  }
  get apiKey() {
    return this.session.options.target.apiKey;
  }
  get keyVariants() {
    return this.session.options.keyVariants;
  }
  get latencyBudgetMs() {
    return this.session.options.maxLatencyMs;
  }
  get referenceValues() {
    return referenceValues(this.session);
  }

  /** Those of these kinds the run sends (credentials.ts), in that order. */
  credentials(service: Service, ...kinds: CredentialKind[]): Array<{ auth: Auth; label: string }> {
    const classes = this.session.credentials(service);
    return kinds
      .flatMap((kind) => classes.filter((c) => c.kind === kind))
      .map((c) => ({ auth: c.header === undefined ? 'none' : { header: c.header }, label: c.label }));
  }

  /** `use` names the draw, so that two checks get different values. */
  async drawIntegers(count: number, range: { min: number; max: number }, use: string) {
    const { default: fc } = await import('fast-check');
    const seed = [...use].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0, this.session.seed);
    const n = Math.min(count, range.max - range.min + 1);
    return fc.sample(fc.uniqueArray(fc.integer(range), { minLength: n, maxLength: n }), { seed, numRuns: 1 })[0];
  }

  /** All in certify; in health (production, every few minutes) what the catalogue declares. */
  sampleSize(all: number, name?: string) {
    if (this.profile === 'certify') return all;
    const { samples } = this.requirement.health ?? {};
    const declared = typeof samples === 'object' ? samples[name ?? ''] : samples;
    if (declared === undefined) throw new Error(`${this.requirement.id}: spec/requirements.yaml declares no health sample ${name ?? ''}`);
    return Math.min(all, declared);
  }

  sample<T>(values: T[], name?: string) {
    return values.slice(0, this.sampleSize(values.length, name));
  }

  /** Reported as latencyQuiet, apart from the run's load. */
  resendQuiet(ex: Exchange) {
    this.requestsSent++;
    return this.session.resendQuiet(ex.request);
  }

  /** Rate limits are left out (why: STORE-NO-5XX's accepts). */
  observed(service: Service) {
    return this.session.answered(service).filter((ex) => !isRateLimit(ex));
  }

  sent(service: Service) {
    return this.session.client.exchanges.filter((ex) => ex.request.service === service);
  }

  recovered(service: Service) {
    return this.session.recovered(service);
  }

  newPet(label: string, extra: Record<string, unknown> = {}) {
    return validNewPet(this.spec, this.session.petValues(`${this.runPrefix}-${label}`), extra);
  }

  note(message: string) {
    this.notes.push(message);
  }

  async call(operationId: string, options: CallOptions = {}) {
    return this.collect(await this.session.call('store', operationId, options));
  }

  /** A method and a path no documented operation has. */
  async request(method: string, path: string, options: CallOptions = {}, service: Service = 'store') {
    return this.collect(await this.session.request(service, method, path, options));
  }

  async sendMessage(options: CallOptions = {}) {
    return this.collect(await this.session.call('quickstart', 'sendMessage', options));
  }

  /** Sent again while `pending`, within the consistency window. */
  async poll(send: () => Promise<Exchange>, pending: (ex: Exchange) => boolean, since?: number) {
    const started = since ?? performance.now();
    return pollWithinWindow(this.session, await send(), send, pending, started);
  }

  private collect(ex: Exchange) {
    // a followed redirect shows in the evidence before the answer it led to
    const hops: Exchange[] = [];
    for (let hop = ex.redirectedFrom; hop; hop = hop.redirectedFrom) hops.unshift(hop);
    this.requestsSent += hops.length + 1;
    this.cite(...hops, ex);
    return ex;
  }

  cite(...exchanges: Exchange[]) {
    for (const ex of exchanges) if (!this.evidence.includes(ex)) this.evidence.push(ex);
  }
}
