// The list pages every list check judges, fetched once the run's animals exist, and
// the animals known to exist that they are held to. Fetched once per run: concurrent
// checks wait for the same requests.
import type { Exchange } from '../http/exchange.js';
import { pollWithinWindow, type Polled } from './window.js';
import { integerText, isInteger } from '../model/json.js';
import type { Session } from './session.js';
import { missingFrom, pageItems, type RunAnimal } from './animals.js';
import { favouredStatus, type CreatedPet, type Seeding } from './seeding.js';

export interface ListPages {
  /** No limit: the default page size. */
  default: Exchange;
  /** limit = the minimum. */
  min: Exchange;
  /** limit = the maximum; fetched before the status pages. */
  max: Exchange;
  /**
   * One page per PetStatus with limit = the maximum, and the last status (which holds
   * most of the run's animals, see seeding.ts) once more
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

export class Lists {
  private fetched?: Promise<ListPages>;
  private relisted?: Promise<Polled<ListPages>>;

  constructor(
    private readonly session: Session,
    private readonly seeding: Seeding,
  ) {}

  private get store() {
    return this.session.specs.store;
  }

  private list(query: Record<string, string | number> = {}): Promise<Exchange> {
    return this.session.call('store', 'listPets', { query });
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
    throw new Error(`listPets ${JSON.stringify(query)} is none of the pages the run fetches (Lists.pages)`);
  }

  /** The list pages every list check judges, fetched after the run's animals exist. */
  pages(): Promise<ListPages> {
    return (this.fetched ??= (async () => {
      await this.seeding.created();
      // health creates nothing, so the preflight already is the default page
      return this.fetchPages(this.session.options.profile === 'health' ? this.seeding.preflight() : this.list());
    })());
  }

  /**
   * The list pages once they show every animal the run knows of (unseen()), or
   * as they were when the consistency window passed: for the checks that need the
   * run's writes to be visible. One re-listing serves every check that waits on it;
   * the others judge pages() and go on meanwhile.
   */
  listed(): Promise<Polled<ListPages>> {
    return (this.relisted ??= (async () => {
      const [created, first, since] = await Promise.all([this.seeding.created(), this.pages(), this.seeding.writesEnded()]);
      return pollWithinWindow(
        this.session,
        first,
        () => this.fetchPages(this.list()),
        (pages) => this.unseen(pages, created) > 0,
        since,
      );
    })());
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
    const known = [...knownIn(this.seeding.runAnimals(), pages).values()];
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
    await this.seeding.created();
    return knownIn(this.seeding.runAnimals(), pages ?? (await this.pages()));
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
    for (const { id, created } of this.seeding.runAnimals()) seen(id, created.sentAt + created.durationMs);
    for (const page of [set.default, set.min, set.max, ...set.byStatus.map((p) => p.ex)]) {
      for (const pet of pageItems(page) ?? []) if (pet && isInteger(pet.id)) seen(integerText(pet.id), page.sentAt + page.durationMs);
    }
    return new Map([...known].filter(([id]) => (seenBy.get(id) ?? Infinity) <= ex.sentAt));
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
