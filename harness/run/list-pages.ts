// The list pages checks/list.ts declares, fetched once a run, and the animals known to exist.
import type { Exchange } from '../http/exchange.js';
import type { AnimalStoreSpec } from '../api/spec.js';
import { pollWithinWindow, type Polled } from './window.js';
import { integerText, isInteger } from '../model/json.js';
import type { Session } from './session.js';
import { missingFrom, pageItems, type RunAnimal } from './animals.js';
import type { CreatedPet, Seeding } from './seeding.js';

type PageQuery = { status?: string; limit?: number };

export interface ListPage extends PageQuery {
  /** Its limit, or the default page size. */
  most: number;
  ex: Exchange;
}

export type ListPages = ListPage[];

/** The pages a run fetches (checks/list.ts: the harness imports no check); each group asked at once, after the one before. */
export type ListPageTable = (spec: AnimalStoreSpec) => PageQuery[][];

export class Lists {
  private fetched?: Promise<ListPages>;
  private relisted?: Promise<Polled<ListPages>>;

  constructor(
    private readonly session: Session,
    private readonly seeding: Seeding,
    private readonly table: ListPageTable | undefined,
  ) {}

  /** In health, which creates nothing, the preflight is the page without a query. */
  pages() {
    return (this.fetched ??= this.seeding.created().then(() => this.fetchPages(this.session.options.profile === 'health')));
  }

  listed(): Promise<Polled<ListPages>> {
    return (this.relisted ??= (async () => {
      const [created, first, since] = await Promise.all([this.seeding.created(), this.pages(), this.seeding.writesEnded()]);
      const unseen = (pages: ListPages) => this.unseen(pages, created) > 0;
      return pollWithinWindow(this.session, first, () => this.fetchPages(false), unseen, since);
    })());
  }

  /** A page that is no list is the checks' to judge, not a reason to wait. */
  private unseen(pages: ListPages, created: CreatedPet[]) {
    const written = created.filter((c) => c.pet && isInteger(c.pet.id)).length;
    const known = [...knownIn(this.seeding.runAnimals(), pages).values()];
    let unseen = 0;
    for (const { status, most, ex } of pages) {
      const items = pageItems(ex);
      if (!items) continue;
      if (status === undefined) unseen += Math.max(0, Math.min(most, written) - items.length);
      else if (items.length < most) unseen += missingFrom(items, known, status).length;
    }
    return unseen;
  }

  private async fetchPages(preflightIsUnfiltered: boolean) {
    if (!this.table) throw new Error('the run was given no list pages (listPages)');
    const store = this.session.specs.store;
    const pages: ListPages = [];
    for (const group of this.table(store)) {
      const fetched = group.map(async (query) => {
        const unfiltered = preflightIsUnfiltered && query.status === undefined && query.limit === undefined;
        const ex = await (unfiltered ? this.seeding.preflight() : this.session.call('store', 'listPets', { query }));
        return { ...query, most: query.limit ?? store.limit.default, ex };
      });
      pages.push(...(await Promise.all(fetched)));
    }
    return pages;
  }

  /** Animals known to exist, by id (shared: never change it). */
  async knownPets(pages?: ListPages): Promise<Map<string, Record<string, any>>> {
    await this.seeding.created();
    return knownIn(this.seeding.runAnimals(), pages ?? (await this.pages()));
  }

  /** Those known before `ex` was sent: another client may add some meanwhile. */
  async knownBefore(ex: Exchange, pages?: ListPages): Promise<Map<string, Record<string, any>>> {
    const set = pages ?? (await this.pages());
    const known = await this.knownPets(set);
    const seenBy = new Map<string, number>();
    const seen = (id: string, at: number) => seenBy.set(id, Math.min(at, seenBy.get(id) ?? Infinity));
    for (const { id, created } of this.seeding.runAnimals()) seen(id, created.sentAt + created.durationMs);
    for (const { ex: page } of set) {
      for (const pet of pageItems(page) ?? []) if (pet && isInteger(pet.id)) seen(integerText(pet.id), page.sentAt + page.durationMs);
    }
    return new Map([...known].filter(([id]) => (seenBy.get(id) ?? Infinity) <= ex.sentAt));
  }
}

/** A page's view of an animal the run created replaces only its status (filled in on reads, or changed since). */
function knownIn(made: RunAnimal[], pages: ListPages): Map<string, Record<string, any>> {
  // the animals made only grow: the same count is the same animals
  const cached = knownCache.get(pages);
  if (cached?.made === made.length) return cached.known;
  const known = new Map<string, Record<string, any>>();
  for (const { id, pet } of made) known.set(id, pet);
  for (const [id, { first, status }] of shownOn(pages)) {
    const view = known.get(id) ?? first;
    known.set(id, status != null ? { ...view, status } : view);
  }
  knownCache.set(pages, { made: made.length, known });
  return known;
}

const knownCache = new WeakMap<ListPages, { made: number; known: Map<string, Record<string, any>> }>();

/** Once per set of pages, which may hold 200,000 animals. */
function shownOn(pages: ListPages): Map<string, { first: Record<string, any>; status?: unknown }> {
  let shown = shownCache.get(pages);
  if (shown) return shown;
  shown = new Map();
  for (const { ex } of pages) {
    for (const pet of pageItems(ex) ?? []) {
      if (!pet || !isInteger(pet.id)) continue;
      const id = integerText(pet.id);
      const seen = shown.get(id);
      if (!seen) shown.set(id, { first: pet, status: pet.status ?? undefined });
      else if (pet.status != null) seen.status = pet.status;
    }
  }
  shownCache.set(pages, shown);
  return shown;
}

const shownCache = new WeakMap<ListPages, Map<string, { first: Record<string, any>; status?: unknown }>>();
