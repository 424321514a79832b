// The run's round trips (certify). Apart from round-trip.ts because examples.ts, which it loads, imports that module.
import type { Exchange } from '../http/exchange.js';
import type { Session } from './session.js';
import { edgeNewPets } from '../api/bodies.js';
import { compareListed, createForTrip, followBack, type RoundTrip } from './round-trip.js';
import type { Examples } from './examples.js';
import type { Seeding } from './seeding.js';
import type { Lists } from './list-pages.js';

export class RoundTrips {
  private made?: Promise<{ trips: RoundTrip[]; examples?: Examples; listing?: Exchange; listed: number }>;

  constructor(
    private readonly session: Session,
    private readonly seeding: Seeding,
    private readonly lists: Lists,
  ) {}

  /** Without a status and after the list pages, so that they change no page the list checks judge. */
  followed() {
    return (this.made ??= this.make());
  }

  private async make() {
    const { session } = this;
    const store = session.specs.store;
    if (session.options.profile !== 'certify') return { trips: [], listed: 0 };
    // fast-check is loaded only when examples are drawn; they are drawn while the pages are fetched
    const drawn = session.options.examples > 0 ? import('./examples.js').then((m) => m.drawExamples(session)) : undefined;
    drawn?.catch(() => undefined); // awaited below, unless the pages fail first
    await this.lists.pages();
    const prefix = session.runPrefix;
    const edges = edgeNewPets(store, session.petValues(`${prefix}-edge`), {}, prefix);
    const edgesCreated = edges.map((b) => createForTrip(session, b.json, b.label, b.field));
    const generated = drawn?.then((d) => d.send());
    // the list page needs only the animals to exist: asked for while getPet fetches them
    const listingAsked = Promise.all([...edgesCreated, generated?.then((g) => g.created)]).then(() =>
      session.call('store', 'listPets', { query: { limit: store.limit.max } }),
    );
    const firstTrip = this.seeding.firstTrip;
    const [first, edgeTrips, examples, listing] = await Promise.all([
      firstTrip && followBack(session, firstTrip),
      Promise.all(edgesCreated.map(async (trip) => followBack(session, await trip))),
      generated?.then((g) => g.examples),
      listingAsked,
    ]);
    const trips = [...(first ? [first] : []), ...edgeTrips, ...(examples?.trips ?? [])];
    return { trips, examples, listing, listed: compareListed(trips, listing) };
  }
}
