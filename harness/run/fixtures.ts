// The data the checks share, one part per job, each made once per run.
import type { Session } from './session.js';
import { Seeding } from './seeding.js';
import { Lists, type ListPageTable } from './list-pages.js';
import { Probes } from './probes.js';
import { Visible } from './visible.js';
import { RoundTrips } from './round-trips.js';
import { QuickstartMessage } from './quickstart-message.js';

export type Fixtures = ReturnType<typeof fixturesFor>;

/** A record sends nothing: it is given no list pages, and fetches none. */
export function fixturesFor(session: Session, listPages?: ListPageTable) {
  const seeding = new Seeding(session);
  const lists = new Lists(session, seeding, listPages);
  return {
    seeding,
    lists,
    probes: new Probes(session, lists),
    visible: new Visible(session, seeding),
    roundTrips: new RoundTrips(session, seeding, lists),
    quickstart: new QuickstartMessage(session),
  };
}
