// The animals the run creates (certify) so that the checks have data to judge.
import type { Exchange } from '../http/exchange.js';
import { pollWithinWindow, type Polled } from './window.js';
import { validNewPet } from '../api/bodies.js';
import { integerText, isInteger } from '../model/json.js';
import type { Session } from './session.js';
import { createForTrip, type RoundTrip } from './round-trip.js';
import { mixedClassesName } from '../api/edge-values.js';
import { absentFrom, animalsMadeBy, pageItems } from './animals.js';

export interface CreatedPet {
  sent: Record<string, unknown>;
  exchange: Exchange;
  pet?: Record<string, any>;
}

/** The status the run gives most of its animals, and asks once more without limit (list-pages.ts). */
export const favouredStatus = (spec: { statuses: string[] }) => spec.statuses[spec.statuses.length - 1];

export class Seeding {
  private made?: Promise<CreatedPet[]>;

  constructor(private readonly session: Session) {}

  private writtenAt?: number;

  /** Created with the first animals; round-trips.ts follows it back. */
  firstTrip?: RoundTrip;

  private early?: Promise<{ polled: Polled<Exchange>; known: Map<string, Record<string, any>> }>;

  private get store() {
    return this.session.specs.store;
  }

  private list(query: Record<string, string | number> = {}) {
    return this.session.call('store', 'listPets', { query });
  }

  preflight() {
    return this.session.preflightList();
  }

  /** certify: more animals than the largest page holds, so that page bounds are really tested. */
  created() {
    return (this.made ??= this.create());
  }

  private async create(): Promise<CreatedPet[]> {
    if (this.session.options.profile !== 'certify') return [];
    const { max, default: pageDefault } = this.store.limit;
    const prefix = this.session.runPrefix;
    const newPet = (label: string, extra?: Record<string, unknown>) => validNewPet(this.store, this.session.petValues(`${prefix}-${label}`), extra);
    const samples = [...this.store.statuses.map((status) => newPet(status, { status })), newPet('no-status')];
    // the longest chain of the run: queued at once, not behind the probes that fill the pool meanwhile
    const preflight = this.session.preflightAnswer ?? (await this.preflight());
    const shortDefault = (pageItems(preflight)?.length ?? pageDefault) < pageDefault;
    // a short default page is the whole store
    const before = shortDefault ? preflight : await this.list({ limit: max });
    const beforeCount = pageItems(before)?.length ?? 0;
    const mixed = validNewPet(this.store, this.session.petValues(mixedClassesName(prefix)));
    const [first, mixedTrip] = await Promise.all([
      Promise.all(samples.map((sent) => this.createPet(sent))),
      createForTrip(this.session, mixed, 'name holds many character classes (created before the bulk)', 'name'),
    ]);
    this.firstTrip = mixedTrip;
    if (beforeCount + samples.length + 1 < max) this.early = this.earlyPage(before, first, mixedTrip);
    await this.early;
    const fill = Math.max(0, max + 1 - beforeCount - samples.length - 1);
    // two thirds take the last status: a filtered list capped below its size is seen (LIST-STATUS-COMPLETE),
    // one that leaves it out falls far short of a full page (LIST-PAGE-FULL). One body is sent twice (CREATE-ID-UNIQUE)
    const favoured = favouredStatus(this.store);
    const others = this.store.statuses.slice(0, -1);
    const statusOf = (i: number) => (i % 3 !== 0 || others.length === 0 ? favoured : others[Math.floor(i / 3) % others.length]);
    const bodies = Array.from({ length: fill }, (_, i) => newPet(`seed-${i + 1}`, { status: statusOf(i) }));
    if (bodies.length > 1) bodies[1] = bodies[0];
    const rest = await Promise.all(bodies.map((sent) => this.createPet(sent)));
    this.writtenAt = performance.now();
    return [...first, ...rest];
  }

  private async createPet(sent: Record<string, unknown>): Promise<CreatedPet> {
    const exchange = await this.session.call('store', 'createPet', { json: sent });
    const body = exchange.json;
    const pet = exchange.succeeded && body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, any>) : undefined;
    return { sent, exchange, pet };
  }

  /** Asked while the store is smaller than the page, so that it must hold every known animal. */
  private async earlyPage(before: Exchange, first: CreatedPet[], trip: RoundTrip) {
    const known = new Map<string, Record<string, any>>();
    for (const pet of [...(pageItems(before) ?? []), ...first.map((c) => c.pet)]) if (pet && isInteger(pet.id)) known.set(integerText(pet.id), pet);
    if (trip.id !== undefined) known.set(trip.id, { id: trip.id, ...trip.sent });
    const since = performance.now();
    const read = () => this.list({ limit: this.store.limit.max });
    const lacking = (ex: Exchange) => {
      const items = pageItems(ex);
      return items !== undefined && items.length < this.store.limit.max && absentFrom(items, known.keys()).length > 0;
    };
    const polled = await pollWithinWindow(this.session, await read(), read, lacking, since);
    return { polled, known };
  }

  async earlyListing() {
    await this.created();
    return this.early;
  }

  /** performance.now() once the run's animals had all been written; undefined: nothing written. */
  async writesEnded() {
    await this.created();
    return this.writtenAt;
  }

  async samples() {
    return (await this.created()).slice(0, this.store.statuses.length + 1);
  }

  runAnimals() {
    return animalsMadeBy(this.session.answered('store'));
  }
}
