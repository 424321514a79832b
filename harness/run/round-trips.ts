// The run's round trips (certify), made once: the edge bodies and the generated
// examples, each followed back (round-trip.ts), and the list page that shows them.
// Apart from round-trip.ts because examples.ts, which it loads, imports that module.
import type { Exchange } from '../http/exchange.js';
import type { Session } from './session.js';
import { edgeNewPets } from '../api/bodies.js';
import { compareListed, createForTrip, followBack, type RoundTrip } from './round-trip.js';
import type { Examples } from './examples.js';
import type { Seeding } from './seeding.js';
import type { Lists } from './list-pages.js';

export interface RoundTripResult {
  trips: RoundTrip[];
  examples?: Examples;
  listing?: Exchange;
  listed: number;
}

export class RoundTrips {
  private made?: Promise<RoundTripResult>;

  constructor(
    private readonly session: Session,
    private readonly seeding: Seeding,
    private readonly lists: Lists,
  ) {}

  /**
   * certify: valid values followed back (round-trip.ts): the animal of many character
   * classes the seeding made, one animal per edge body (one edge value in one field,
   * edge-values.ts) and the generated examples (--examples, --seed), and the list page of
   * the largest limit once they all exist, where those it shows are compared too (a store
   * listing newest first shows them). Created after the list pages and without a status,
   * so they change none of the pages the list checks judge, nor what those checks see
   * when they ask again: a status page that lacks its most recent animal must still lack
   * one the run knows. health: nothing.
   */
  followed(): Promise<RoundTripResult> {
    return (this.made ??= this.make());
  }

  private async make(): Promise<RoundTripResult> {
    const store = this.session.specs.store;
    if (this.session.options.profile !== 'certify') return { trips: [], listed: 0 };
    // fast-check is loaded only when examples are drawn (not in health, not for --help);
    // they are drawn while the pages are fetched
    const drawn =
      this.session.examples > 0 ? import('./examples.js').then((m) => m.drawExamples(this.session, this.session.examples, this.session.seed)) : undefined;
    drawn?.catch(() => undefined); // awaited below, unless the pages fail first
    await this.lists.pages();
    const prefix = this.session.runPrefix;
    const edges = edgeNewPets(store, this.session.petValues(`${prefix}-edge`), {}, prefix);
    const edgesCreated = edges.map((b) => createForTrip(this.session, b.json, b.label, b.field));
    const generated = drawn?.then((d) => d.send());
    // the list page needs only the animals to exist: asked for while getPet fetches them
    const listingAsked = Promise.all([...edgesCreated, generated?.then((g) => g.created)]).then(() =>
      this.session.call('store', 'listPets', { query: { limit: store.limit.max } }),
    );
    const firstTrip = this.seeding.firstTrip;
    const [first, edgeTrips, examples, listing] = await Promise.all([
      firstTrip && followBack(this.session, firstTrip),
      Promise.all(edgesCreated.map(async (trip) => followBack(this.session, await trip))),
      generated?.then((g) => g.examples),
      listingAsked,
    ]);
    const trips = [...(first ? [first] : []), ...edgeTrips, ...(examples?.trips ?? [])];
    return { trips, examples, listing, listed: compareListed(trips, listing) };
  }
}
