// Data the checks share, prepared once per run and reused: the preflight list, the
// animals the run creates (certify), the list pages after creation, one sent
// message. Each is memoised, so concurrent checks wait for the same requests.
import { randomBytes } from 'node:crypto';
import type { Exchange } from '../http/exchange.js';
import { pollWithinWindow, type Polled } from './window.js';
import { negativeNewPets, validNewPet, type NegativeBody, type NegativeFamily } from '../api/bodies.js';
import { INT64_MAX, isInteger, integerText } from '../model/json.js';
import type { Session } from './session.js';
import { isRemoved } from '../api/spec.js';
import { edgeNewPets } from '../api/bodies.js';
import { compareListed, createForTrip, followBack, type RoundTrip } from './round-trip.js';
import { mixedClassesName } from '../api/edge-values.js';
import { animalsMadeBy, type RunAnimal } from './animals.js';
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
   * One page per PetStatus with limit = the maximum, and the last status (which holds
   * most of the run's animals, see created()) once more
   * without limit (so the default page size is shown to hold with the filter too).
   */
  byStatus: StatusPage[];
}

interface StatusPage {
  status: string;
  /** The limit the page was asked with; undefined for the default. */
  limit?: number;
  /** The most the page may hold: that limit, or the default page size. */
  most: number;
  ex: Exchange;
}

interface SentMessage {
  sent: { message: string };
  exchange: Exchange;
  /** The suite's clock (ms since the epoch) just before sending and once the answer was in. */
  sentAt: number;
  answeredAt: number;
}

/** The status the run gives most of its animals (created()), and asks once more without limit (pages()). */
export const favouredStatus = (spec: { statuses: string[] }) => spec.statuses[spec.statuses.length - 1];

/** A random int64 in [2^62, 2^63): far from the ids a store hands out, unless it draws them at random. */
export function unlikelyId(known: bigint[]): bigint {
  for (;;) {
    const id = 2n ** 62n + (randomBytes(8).readBigUInt64BE() >> 2n);
    if (known.every((k) => (k > id ? k - id : id - k) > 2n ** 32n)) return id;
  }
}

/** The items of a list answer, when it is 200 with a JSON array. */
export function pageItems(ex: Exchange): Array<Record<string, any>> | undefined {
  return ex.status === 200 && Array.isArray(ex.json) ? ex.json : undefined;
}

/** The ids of known animals of this status that a page lacks. */
export function missingFrom(page: Array<Record<string, any>>, known: Iterable<Record<string, any>>, status: string): string[] {
  return absentFrom(
    page,
    [...known].filter((p) => p.status === status).map((p) => integerText(p.id)),
  );
}

/** The ids a page lacks. */
export function absentFrom(page: Array<Record<string, any>>, ids: Iterable<string>): string[] {
  const present = new Set(page.filter((p) => isInteger(p?.id)).map((p) => integerText(p.id)));
  return [...ids].filter((id) => !present.has(id));
}

/** The unfiltered page asked between the run's first animals and the bulk, and the animals known to exist then. */
interface EarlyPage {
  polled: Polled<Exchange>;
  known: Map<string, Record<string, any>>;
}

export class Fixtures {
  private readonly memo = new Map<string, Promise<unknown>>();

  constructor(private readonly session: Session) {}

  /** performance.now() when the run's animals had all been answered. */
  private writtenAt?: number;

  private once<T>(key: string, make: () => Promise<T>): Promise<T> {
    if (!this.memo.has(key)) this.memo.set(key, make());
    return this.memo.get(key) as Promise<T>;
  }

  private get store() {
    return this.session.specs.store;
  }

  private list(query: Record<string, string | number> = {}): Promise<Exchange> {
    return this.session.call('store', 'listPets', { query });
  }

  /** The authenticated list with no parameters that opens every run (the session's preflight). */
  preflight(): Promise<Exchange> {
    return this.session.preflightList();
  }

  /**
   * certify: creates the run's first animals, one per PetStatus, one without status (the
   * CREATE checks judge these) and one whose name holds many character classes (a round
   * trip); asks for the unfiltered page of the largest limit once they show (earlyPage);
   * then adds enough more that the store holds more animals than the largest page, so
   * that page bounds are really tested, one NewPet among them sent twice. health:
   * creates nothing.
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
      // the seeding starts the longest chain of the run (pages, status pages, round trips):
      // with the preflight answered it is queued at once, not after the probes that wait on
      // nothing, which fill the pool meanwhile
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
      // two thirds of the filling animals take the last status, the rest share the others:
      // its filtered page then must show some 65 known animals, so a filtered list capped
      // below that is seen (LIST-STATUS-COMPLETE), an unfiltered list that leaves it out
      // falls far short of a full page (LIST-PAGE-FULL), and every status has animals. The
      // first body is sent twice: "add an animal" adds one each time (CREATE-ID-UNIQUE)
      const favoured = favouredStatus(this.store);
      const others = this.store.statuses.slice(0, -1);
      const statusOf = (i: number) => (i % 3 !== 0 || others.length === 0 ? favoured : others[Math.floor(i / 3) % others.length]);
      const bodies = Array.from({ length: fill }, (_, i) =>
        validNewPet(this.store, this.session.petValues(`${prefix}-seed-${i + 1}`), { status: statusOf(i) }),
      );
      if (bodies.length > 1) bodies[1] = bodies[0];
      const rest = await Promise.all(bodies.map((sent) => this.createPet(sent)));
      this.writtenAt = performance.now();
      return [...first, ...rest];
    });
  }

  private async createPet(sent: Record<string, unknown>): Promise<CreatedPet> {
    const exchange = await this.session.call('store', 'createPet', { json: sent });
    const body = exchange.json;
    const pet = exchange.succeeded && body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, any>) : undefined;
    return { sent, exchange, pet };
  }

  /** The round trip created with the run's first animals, before the bulk (roundTrips() follows it back). */
  private firstTrip?: RoundTrip;

  /** The unfiltered page asked between the first animals and the bulk, when the store was smaller than a page. */
  private early?: Promise<EarlyPage>;

  /**
   * The unfiltered page of the largest limit, once it shows the run's first animals (read
   * again within the consistency window while it lacks any), with the animals known to
   * exist then: those the page asked before them showed, and the first ones the store
   * accepted. Asked before the bulk, while the store is smaller than the page, so that
   * the page is the whole list and must hold each of them, whatever its order.
   */
  private async earlyPage(before: Exchange, first: CreatedPet[], trip: RoundTrip): Promise<EarlyPage> {
    const known = new Map<string, Record<string, any>>();
    for (const pet of pageItems(before) ?? []) if (pet && isInteger(pet.id)) known.set(integerText(pet.id), pet);
    for (const c of first) if (c.pet && isInteger(c.pet.id)) known.set(integerText(c.pet.id), c.pet);
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

  /** The early unfiltered page (see earlyPage), when the run asked for one. */
  async earlyListing(): Promise<EarlyPage | undefined> {
    await this.created();
    return this.early;
  }

  /** When the run's animals had all been written (performance.now()), for the consistency window; undefined: nothing written. */
  async writesEnded(): Promise<number | undefined> {
    await this.created();
    return this.writtenAt;
  }

  /** The sample animals (one per status, one without) the run created. */
  async samples(): Promise<CreatedPet[]> {
    return (await this.created()).slice(0, this.store.statuses.length + 1);
  }

  /**
   * One of the list pages the run fetches once its animals exist (pages(): no query, the
   * smallest and the largest limit, each status with the largest limit, the favoured
   * status alone), named by its query.
   */
  async page(query: { status?: string; limit?: number } = {}): Promise<Exchange> {
    const pages = await this.pages();
    const { min, max } = this.store.limit;
    if (query.status === undefined) {
      if (query.limit === undefined) return pages.default;
      if (query.limit === min) return pages.min;
      if (query.limit === max) return pages.max;
    } else {
      const found = pages.byStatus.find((p) => p.status === query.status && p.limit === query.limit);
      if (found) return found.ex;
    }
    throw new Error(`listPets ${JSON.stringify(query)} is none of the pages the run fetches (Fixtures.pages)`);
  }

  /** The list pages every list check judges, fetched after the run's animals exist. */
  pages(): Promise<ListPages> {
    return this.once('pages', async () => {
      await this.created();
      // health creates nothing, so the preflight already is the default page
      return this.fetchPages(this.session.options.profile === 'health' ? this.preflight() : this.list());
    });
  }

  /**
   * The list pages once they show every animal the run knows of (unseen()), or
   * as they were when the consistency window passed: for the checks that need the
   * run's writes to be visible. One re-listing serves every check that waits on it;
   * the others judge pages() and go on meanwhile.
   */
  listed(): Promise<Polled<ListPages>> {
    return this.once('listed', async () => {
      const [created, first, since] = await Promise.all([this.created(), this.pages(), this.writesEnded()]);
      return pollWithinWindow(
        this.session,
        first,
        () => this.fetchPages(this.list()),
        (pages) => this.unseen(pages, created) > 0,
        since,
      );
    });
  }

  /**
   * How many known animals the pages fail to show where they must: an unfiltered page
   * holds at least as many animals as the run created (up to its limit), and a status
   * page that is not full holds every known animal of its status. Pages that are not
   * a list at all are the checks' to judge, not a reason to wait.
   */
  private unseen(pages: ListPages, created: CreatedPet[]): number {
    const written = created.filter((c) => c.pet && isInteger(c.pet.id)).length;
    const { min, max, default: pageDefault } = this.store.limit;
    let unseen = 0;
    for (const [ex, limit] of [
      [pages.min, min],
      [pages.default, pageDefault],
      [pages.max, max],
    ] as const) {
      const items = pageItems(ex);
      if (items) unseen += Math.max(0, Math.min(limit, written) - items.length);
    }
    const known = [...knownIn(this.runAnimals(), pages).values()];
    for (const { status, ex, most } of pages.byStatus) {
      const items = pageItems(ex);
      if (items && items.length < most) unseen += missingFrom(items, known, status).length;
    }
    return unseen;
  }

  /** One set of list pages: the default page (given), limit = min and max, then one page per status. */
  private async fetchPages(defaultPage: Promise<Exchange>): Promise<ListPages> {
    const { min, max } = this.store.limit;
    const [pageDefault, pageMin, pageMax] = await Promise.all([defaultPage, this.list({ limit: min }), this.list({ limit: max })]);
    // status pages come after the unfiltered ones, so an animal seen unfiltered
    // already existed when its status page was asked for; each status with the largest
    // limit (the more a short page holds, the more it says), and the last one also
    // without limit (the default page size must hold with the filter too)
    const asked = [
      ...this.store.statuses.map((status) => ({ status, limit: max as number | undefined })),
      { status: favouredStatus(this.store), limit: undefined },
    ];
    const byStatus = await Promise.all(
      asked.map(async ({ status, limit }): Promise<StatusPage> => {
        const ex = await this.list(limit === undefined ? { status } : { status, limit });
        return { status, limit, most: limit ?? this.store.limit.default, ex };
      }),
    );
    return { default: pageDefault, min: pageMin, max: pageMax, byStatus };
  }

  /**
   * Animals known to exist, by id: those the run created (as the server answered)
   * and those the unfiltered pages showed (default: pages(); the checks that waited
   * pass listed()'s). The map is shared by every check that asks: read it, never change it.
   */
  async knownPets(pages?: ListPages): Promise<Map<string, Record<string, any>>> {
    await this.created();
    return knownIn(this.runAnimals(), pages ?? (await this.pages()));
  }

  /**
   * The known animals (knownPets) the run knew of before `ex` was sent: created by an
   * answer that came before it, or shown by a page answered before it. Another client
   * may add animals while the run lists: a page is held only to what existed when it was
   * asked.
   */
  async knownBefore(ex: Exchange, pages?: ListPages): Promise<Map<string, Record<string, any>>> {
    const set = pages ?? (await this.pages());
    const known = await this.knownPets(set);
    const seenBy = new Map<string, number>();
    const seen = (id: string, at: number) => seenBy.set(id, Math.min(at, seenBy.get(id) ?? Infinity));
    for (const { id, created } of this.runAnimals()) seen(id, created.sentAt + created.durationMs);
    for (const page of [set.default, set.min, set.max, ...set.byStatus.map((p) => p.ex)]) {
      for (const pet of pageItems(page) ?? []) if (pet && isInteger(pet.id)) seen(integerText(pet.id), page.sentAt + page.durationMs);
    }
    return new Map([...known].filter(([id]) => (seenBy.get(id) ?? Infinity) <= ex.sentAt));
  }

  /** Every animal the run has made so far (animals.ts), in the order sent. */
  runAnimals(): RunAnimal[] {
    return animalsMadeBy(this.session.answered('store'));
  }

  /** A valid int64 far above every id the run has seen: no animal should have it. */
  async absentId(): Promise<string> {
    const known = [...(await this.knownPets()).keys()].map(BigInt);
    const candidate = known.reduce((a, b) => (b > a ? b : a), 0n) + 1_000_000_000n;
    // a store whose ids reach the top of int64 (drawn at random, or from the top down)
    return (candidate > INT64_MAX ? unlikelyId(known) : candidate).toString();
  }

  /**
   * The error responses the error-body checks judge, provoked once per run (the checks
   * also judge every other error the run saw):
   * - one of each documented error status of the animal store (401, 400, 404) the run has
   *   not seen yet, as when the observers run alone. An operation past its removal date
   *   is never sent (getPet, the only documented source of a 404, after 2030-12-05).
   * - two off the documented surface, always, with the key ("All error responses in the
   *   animal store use the Error body", also those a web framework answers for the API):
   *   GET on a path under the base address that no API has, named by the run, and PATCH
   *   with no body on /pets/{an id no animal has} and (certify) on /pets, a method the
   *   description does not give those paths (why PATCH: ERR-BODY-SHAPE's accepts; not
   *   TRACE, which proxies often stop). Neither writes, so health sends both too. Their status codes
   *   are not judged, only their bodies.
   */
  errorResponses(): Promise<void> {
    return this.once('errorResponses', async () => {
      const probes: Array<{ status: number; operationId: string; send: () => Promise<Exchange> }> = [
        { status: 401, operationId: 'listPets', send: () => this.session.call('store', 'listPets', { auth: 'none' }) },
        { status: 400, operationId: 'createPet', send: () => this.session.call('store', 'createPet', { json: {} }) },
        { status: 404, operationId: 'getPet', send: async () => this.session.call('store', 'getPet', { params: { petId: await this.absentId() } }) },
      ];
      const seen = new Set(this.session.answered('store').map((ex) => ex.status));
      const itemPathLive = !isRemoved(this.store.operation('getPet'), this.session.options.now);
      const offSurface = [
        () => this.session.request('store', 'GET', `/${this.session.runPrefix}-no-such-route`),
        // the item path has its own route, often its own framework page for a method it
        // lacks; after getPet's removal date the path is no longer the API's to judge
        ...(itemPathLive ? [async () => this.session.request('store', 'PATCH', `/pets/${await this.absentId()}`)] : []),
        // health keeps its requests few: the item path stands for both, while it lives
        ...(this.session.options.profile === 'certify' || !itemPathLive ? [() => this.session.request('store', 'PATCH', '/pets')] : []),
      ];
      await Promise.all([
        // a probe no answer could be had for (timeout, reset, a route that never answers)
        // leaves nothing to judge here: the check of that operation reports it
        ...probes
          .filter((p) => !seen.has(p.status) && !isRemoved(this.store.operation(p.operationId), this.session.options.now))
          .map((p) => p.send().catch(() => undefined)),
        ...offSurface.map((send) => send().catch(() => undefined)),
      ]);
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
  negativeBodies(): Promise<Record<NegativeFamily, NegativeBody[]>> {
    return this.once('negativeBodies', async () => negativeNewPets(this.store, this.session.petValues(`${this.session.runPrefix}-invalid`)));
  }

  /**
   * certify: valid values followed back (round-trip.ts): one animal per edge body (one
   * edge value in one field, edge-values.ts) and the generated examples (--examples,
   * --seed), and the list page of the largest limit once they all exist, where those it
   * shows are compared too (a store listing newest first shows them). Created after pages() and without a
   * status, so they change none of the pages the list checks judge, nor what those
   * checks see when they ask again: a status page that lacks its most recent animal must
   * still lack one the run knows. health: nothing.
   */
  roundTrips(): Promise<{ trips: RoundTrip[]; examples?: Examples; listing?: Exchange; listed: number }> {
    return this.once('roundTrips', async () => {
      if (this.session.options.profile !== 'certify') return { trips: [], listed: 0 };
      // fast-check is loaded only when examples are drawn (not in health, not for --help);
      // they are drawn while the pages are fetched
      const drawn =
        this.session.examples > 0 ? import('./examples.js').then((m) => m.drawExamples(this.session, this.session.examples, this.session.seed)) : undefined;
      drawn?.catch(() => undefined); // awaited below, unless the pages fail first
      await this.pages();
      const prefix = this.session.runPrefix;
      const edges = edgeNewPets(this.store, this.session.petValues(`${prefix}-edge`), {}, prefix);
      const edgesCreated = edges.map((b) => createForTrip(this.session, b.json, b.label, b.field));
      const generated = drawn?.then((d) => d.send());
      // the list page needs only the animals to exist: asked for while getPet fetches them
      const listingAsked = Promise.all([...edgesCreated, generated?.then((g) => g.created)]).then(() => this.list({ limit: this.store.limit.max }));
      const [first, edgeTrips, examples, listing] = await Promise.all([
        this.firstTrip && followBack(this.session, this.firstTrip),
        Promise.all(edgesCreated.map(async (trip) => followBack(this.session, await trip))),
        generated?.then((g) => g.examples),
        listingAsked,
      ]);
      const trips = [...(first ? [first] : []), ...edgeTrips, ...(examples?.trips ?? [])];
      return { trips, examples, listing, listed: compareListed(trips, listing) };
    });
  }

  /** The id of the animal the probes of getPet use (visibleId), while getPet lives; undefined after its removal date. */
  async liveAnimal(): Promise<string | undefined> {
    return isRemoved(this.store.operation('getPet'), this.session.options.now) ? undefined : (await this.visibleId()).id;
  }

  /**
   * An animal that getPet shows, for probes on getPet that must not fail for want of
   * one: in certify a sample the run created, read with the key until getPet shows it
   * within the consistency window (a store may show a write late); in health one the
   * list showed. `unseen`: getPet still did not show it when the window passed.
   */
  visibleId(): Promise<{ id: string; unseen: boolean }> {
    return this.once('visibleId', async () => {
      const created = (await this.created()).find((c) => c.pet && isInteger(c.pet.id));
      if (!created) {
        const listed = (pageItems(await this.preflight()) ?? []).find((p) => p && isInteger(p.id));
        // an empty store has no animal to show: the id is a guess, which getPet need not know
        return listed ? { id: integerText(listed.id), unseen: false } : { id: '1', unseen: true };
      }
      const id = integerText(created.pet!.id);
      if (isRemoved(this.store.operation('getPet'), this.session.options.now)) return { id, unseen: false };
      const read = () => this.session.call('store', 'getPet', { params: { petId: id } });
      const since = await this.writesEnded();
      // no answer here is the getPet checks' to report; the probes go on with the id
      const polled = await read()
        .then((first) => pollWithinWindow(this.session, first, read, (ex) => ex.status === 404, since))
        .catch(() => undefined);
      return { id, unseen: polled?.pending ?? false };
    });
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
    return this.session.preflightMessage();
  }
}

/**
 * The animals the run created (as the store answered their creation), then those the
 * pages showed that the run did not create (as they show them now), by id. A page's view
 * of an animal the run created replaces only its status (a default filled in on reads, or
 * a transition since): its status page must hold it with that status. Views that
 * disagree otherwise are CREATE-VIEWS-AGREE's to judge.
 */
function knownIn(made: RunAnimal[], pages: ListPages): Map<string, Record<string, any>> {
  // the animals made only grow in number (animalsMadeBy): the same count is the same animals
  const cached = knownCache.get(pages);
  if (cached?.made === made.length) return cached.known;
  const known = new Map<string, Record<string, any>>();
  for (const { id, pet } of made) known.set(id, pet);
  for (const [id, { first, status }] of shownOn(pages)) {
    const view = known.get(id) ?? first;
    // the status a page shows (a default filled in on reads, a transition since the
    // creation): its status page must hold it with that status
    known.set(id, status != null ? { ...view, status } : view);
  }
  knownCache.set(pages, { made: made.length, known });
  return known;
}

/** knownIn's answer for a set of pages, with how many animals the run had made then: each check asks for it. */
const knownCache = new WeakMap<ListPages, { made: number; known: Map<string, Record<string, any>> }>();

/**
 * The animals the pages show, by id: each as first shown, with the last status shown
 * for it. Worked out once per set of pages: the pages are asked for many times, and a
 * page may hold 200,000 animals.
 */
function shownOn(pages: ListPages): Map<string, { first: Record<string, any>; status?: unknown }> {
  let shown = shownCache.get(pages);
  if (shown) return shown;
  shown = new Map();
  // every page shows animals that exist: the status pages too, so that an unfiltered
  // list that hides a status (a filter applied by default) is judged against them
  for (const ex of [pages.default, pages.min, pages.max, ...pages.byStatus.map((p) => p.ex)]) {
    for (const pet of pageItems(ex) ?? []) {
      if (!pet || !isInteger(pet.id)) continue;
      const id = integerText(pet.id);
      const seen = shown.get(id);
      // the status shown last is the animal's now: it may have changed since (a transition)
      if (!seen) shown.set(id, { first: pet, status: pet.status ?? undefined });
      else if (pet.status != null) seen.status = pet.status;
    }
  }
  shownCache.set(pages, shown);
  return shown;
}

const shownCache = new WeakMap<ListPages, Map<string, { first: Record<string, any>; status?: unknown }>>();
