// Data the checks share, prepared once per run and reused: the preflight list, the
// animals the run creates (certify), the list pages after creation, one sent
// message. Each is memoised, so concurrent checks wait for the same requests.
import type { Exchange } from './http.js';
import { negativeNewPets, validNewPet, type NegativeBody } from './bodies.js';
import { isInteger, integerText } from './json.js';
import type { Session } from './session.js';
import { isRemoved } from './spec.js';
import { edgeNewPets } from './bodies.js';
import { compareListed, roundTrip, type RoundTrip } from './round-trip.js';
import type { Examples } from './examples.js';

export interface CreatedPet {
  sent: Record<string, unknown>;
  exchange: Exchange;
  /** The body of a 2xx answer, when it is an object. */
  pet?: Record<string, any>;
}

export interface ListPages {
  /** No limit: the default page size. */
  default: Exchange;
  /** limit = the minimum. */
  min: Exchange;
  /** limit = the maximum; fetched before the status pages. */
  max: Exchange;
  /**
   * One page per PetStatus: the first without limit (so the default page size is
   * shown to hold with the filter too), the others with limit = the maximum.
   */
  byStatus: StatusPage[];
}

export interface StatusPage {
  status: string;
  /** The limit the page was asked with; undefined for the default. */
  limit?: number;
  /** The most the page may hold: that limit, or the default page size. */
  most: number;
  ex: Exchange;
}

export interface SentMessage {
  sent: { message: string };
  exchange: Exchange;
  /** The suite's clock (ms since the epoch) just before sending and once the answer was in. */
  sentAt: number;
  answeredAt: number;
}

/** The items of a list answer, when it is 200 with a JSON array. */
export function pageItems(ex: Exchange): Array<Record<string, any>> | undefined {
  return ex.status === 200 && Array.isArray(ex.json) ? ex.json : undefined;
}

export class Fixtures {
  private readonly memo = new Map<string, Promise<unknown>>();

  constructor(private readonly session: Session) {}

  private once<T>(key: string, make: () => Promise<T>): Promise<T> {
    if (!this.memo.has(key)) this.memo.set(key, make());
    return this.memo.get(key) as Promise<T>;
  }

  private get store() { return this.session.specs.store; }

  private list(query: Record<string, string | number> = {}): Promise<Exchange> {
    return this.session.call('store', 'listPets', { query });
  }

  /** The authenticated list with no parameters that opens every run. */
  preflight(): Promise<Exchange> {
    return this.once('preflight', () => this.list());
  }

  /**
   * certify: creates one animal per PetStatus and one without status (the CREATE
   * checks judge these), then enough more that the store holds more animals than
   * the largest page, so that page bounds are really tested. health: creates nothing.
   */
  created(): Promise<CreatedPet[]> {
    return this.once('created', async () => {
      if (this.session.options.profile !== 'certify') return [];
      const { max, default: pageDefault } = this.store.limit;
      const prefix = this.session.runPrefix;
      const samples = [
        ...this.store.statuses.map((status) => validNewPet(this.store, this.session.petValues(`${prefix}-${status}`), { status })),
        validNewPet(this.store, this.session.petValues(`${prefix}-no-status`)),
      ];
      const preflight = pageItems(await this.preflight());
      const before = preflight && preflight.length < pageDefault
        ? preflight.length // a short default page is the whole store
        : pageItems(await this.list({ limit: max }))?.length ?? 0;
      const fill = Math.max(0, max + 1 - before - samples.length);
      const statuses = this.store.statuses;
      const bodies = [
        ...samples,
        ...Array.from({ length: fill }, (_, i) =>
          validNewPet(this.store, this.session.petValues(`${prefix}-seed-${i + 1}`), { status: statuses[i % statuses.length] })),
      ];
      return Promise.all(bodies.map(async (sent) => {
        const exchange = await this.session.call('store', 'createPet', { json: sent });
        const body = exchange.json;
        const pet = exchange.status >= 200 && exchange.status < 300 && body && typeof body === 'object' && !Array.isArray(body)
          ? body as Record<string, any> : undefined;
        return { sent, exchange, pet };
      }));
    });
  }

  /** The sample animals (one per status, one without) the run created. */
  async samples(): Promise<CreatedPet[]> {
    return (await this.created()).slice(0, this.store.statuses.length + 1);
  }

  /** The list pages every list check judges, fetched after the run's animals exist. */
  pages(): Promise<ListPages> {
    return this.once('pages', async () => {
      await this.created();
      const { min, max } = this.store.limit;
      // health creates nothing, so the preflight already is the default page
      const [pageDefault, pageMin, pageMax] = await Promise.all([
        this.session.options.profile === 'health' ? this.preflight() : this.list(),
        this.list({ limit: min }),
        this.list({ limit: max }),
      ]);
      // status pages come after the unfiltered ones, so an animal seen unfiltered
      // already existed when its status page was asked for
      const byStatus = await Promise.all(this.store.statuses.map(async (status, i): Promise<StatusPage> => {
        const limit = i === 0 ? undefined : max;
        const ex = await this.list(limit === undefined ? { status } : { status, limit });
        return { status, limit, most: limit ?? this.store.limit.default, ex };
      }));
      return { default: pageDefault, min: pageMin, max: pageMax, byStatus };
    });
  }

  /**
   * Animals known to exist, by id: those the run created (as the server answered)
   * and those the unfiltered pages showed.
   */
  async knownPets(): Promise<Map<string, Record<string, any>>> {
    const known = new Map<string, Record<string, any>>();
    for (const c of await this.created()) {
      if (c.pet && isInteger(c.pet.id)) known.set(integerText(c.pet.id), c.pet);
    }
    const pages = await this.pages();
    for (const ex of [pages.default, pages.min, pages.max]) {
      for (const pet of pageItems(ex) ?? []) if (pet && isInteger(pet.id)) known.set(integerText(pet.id), pet);
    }
    return known;
  }

  /** A valid int64 far above every id the run has seen: no animal should have it. */
  async absentId(): Promise<string> {
    const highest = [...(await this.knownPets()).keys()].map(BigInt).reduce((a, b) => (b > a ? b : a), 0n);
    const candidate = highest + 1_000_000_000n;
    const INT64_MAX = 2n ** 63n - 1n;
    return (candidate > INT64_MAX ? INT64_MAX : candidate).toString();
  }

  /**
   * One response of each documented error status (401, 400, 404) of the animal store,
   * for the error-body checks: those the run has not seen yet (as when the observers
   * run alone) are provoked, once for all of them. An operation past its removal date
   * is never sent (getPet, the only documented source of a 404, after 2030-12-05).
   */
  documentedErrors(): Promise<void> {
    return this.once('documentedErrors', async () => {
      const probes: Array<{ status: number; operationId: string; send: () => Promise<Exchange> }> = [
        { status: 401, operationId: 'listPets', send: () => this.session.call('store', 'listPets', { auth: 'none' }) },
        { status: 400, operationId: 'createPet', send: () => this.session.call('store', 'createPet', { json: {} }) },
        { status: 404, operationId: 'getPet', send: async () => this.session.call('store', 'getPet', { params: { petId: await this.absentId() } }) },
      ];
      const seen = new Set(this.session.answered('store').map((ex) => ex.status));
      await Promise.all(probes
        .filter((p) => !seen.has(p.status) && !isRemoved(this.store.operation(p.operationId), this.session.options.now))
        .map((p) => p.send()));
    });
  }

  /**
   * One call of an operation with the key and nothing else: ORDERS-EXISTS judges it, and
   * the auth checks probe an operation whose response is not shown only where it exists.
   */
  withKey(operationId: string): Promise<Exchange> {
    return this.once(`withKey:${operationId}`, () => this.session.call('store', operationId));
  }

  /** The negative NewPet bodies, by requirement id (generated and checked once). */
  negativeBodies(): Promise<Record<string, NegativeBody[]>> {
    return this.once('negativeBodies', async () =>
      negativeNewPets(this.store, this.session.petValues(`${this.session.runPrefix}-invalid`)));
  }

  /**
   * certify: valid values followed back (round-trip.ts): one animal per edge body (one
   * edge value in one field, edge-values.ts) and the generated examples (--examples,
   * --seed), then the list page of the largest limit, where those it shows are compared
   * too (a store listing newest first shows them). Created after pages() and without a
   * status, so they change none of the pages the list checks judge, nor what those
   * checks see when they ask again: a status page that lacks its most recent animal must
   * still lack one the run knows. health: nothing.
   */
  roundTrips(): Promise<{ trips: RoundTrip[]; examples?: Examples; listing?: Exchange; listed: number }> {
    return this.once('roundTrips', async () => {
      if (this.session.options.profile !== 'certify') return { trips: [], listed: 0 };
      await this.pages();
      const prefix = this.session.runPrefix;
      const edges = edgeNewPets(this.store, this.session.petValues(`${prefix}-edge`), {}, prefix);
      const [edgeTrips, examples] = await Promise.all([
        Promise.all(edges.map((b) => roundTrip(this.session, b.json, b.label, b.field))),
        // fast-check is loaded only when examples are drawn (not in health, not for --help)
        this.session.examples > 0
          ? import('./examples.js').then((m) => m.runExamples(this.session, this.session.examples, this.session.seed)) : undefined,
      ]);
      const trips = [...edgeTrips, ...(examples?.trips ?? [])];
      const listing = await this.list({ limit: this.store.limit.max });
      return { trips, examples, listing, listed: compareListed(trips, listing) };
    });
  }

  /** An id that exists, for probes on getPet that must not fail for want of one. */
  async someId(): Promise<string> {
    const created = (await this.created()).find((c) => c.pet && isInteger(c.pet.id));
    if (created) return integerText(created.pet!.id);
    const listed = (pageItems(await this.preflight()) ?? []).find((p) => p && isInteger(p.id));
    return listed ? integerText(listed.id) : '1';
  }

  private sendMessage(json: unknown): Promise<Exchange> {
    return this.session.call('quickstart', 'sendMessage', { json });
  }

  /** certify: one valid message sent to the quickstart service. */
  message(): Promise<SentMessage> {
    return this.once('message', async () => {
      const sent = { message: `${this.session.runPrefix} hello` };
      const sentAt = Date.now();
      const exchange = await this.sendMessage(sent);
      return { sent, exchange, sentAt, answeredAt: Date.now() };
    });
  }

  /** The quickstart preflight, and QS-MISSING-MESSAGE's probe: {} with the key. */
  messagePreflight(): Promise<Exchange> {
    return this.once('messagePreflight', () => this.sendMessage({}));
  }
}
