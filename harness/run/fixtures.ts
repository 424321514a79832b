// The data the checks share, one part per job, each made once per run.
import type { Session } from './session.js';
import { Seeding } from './seeding.js';
import { Lists } from './list-pages.js';
import { Probes } from './probes.js';
import { Visible } from './visible.js';
import { RoundTrips } from './round-trips.js';
import { QuickstartMessage } from './quickstart-message.js';

export class Fixtures {
  readonly seeding: Seeding;
  readonly lists: Lists;
  readonly probes: Probes;
  readonly visible: Visible;
  readonly roundTrips: RoundTrips;
  readonly quickstart: QuickstartMessage;

  constructor(session: Session) {
    this.seeding = new Seeding(session);
    this.lists = new Lists(session, this.seeding);
    this.probes = new Probes(session, this.lists);
    this.visible = new Visible(session, this.seeding);
    this.roundTrips = new RoundTrips(session, this.seeding, this.lists);
    this.quickstart = new QuickstartMessage(session);
  }
}
