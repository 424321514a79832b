// An animal getPet shows, so that its probes do not fail for want of one.
import { pollWithinWindow } from './window.js';
import { integerText, isInteger } from '../model/json.js';
import type { Session } from './session.js';
import { pageItems } from './animals.js';
import type { Seeding } from './seeding.js';

export class Visible {
  private found?: Promise<{ id: string; unseen: boolean }>;

  constructor(
    private readonly session: Session,
    private readonly seeding: Seeding,
  ) {}

  async liveId() {
    return this.session.removed('getPet') ? undefined : (await this.animal()).id;
  }

  /** `unseen`: getPet still did not show it when the consistency window passed. */
  animal() {
    return (this.found ??= this.find());
  }

  private async find(): Promise<{ id: string; unseen: boolean }> {
    const created = (await this.seeding.created()).find((c) => c.pet && isInteger(c.pet.id));
    if (!created) {
      const listed = (pageItems(await this.seeding.preflight()) ?? []).find((p) => p && isInteger(p.id));
      // an empty store has no animal to show: the id is a guess, which getPet need not know
      return listed ? { id: integerText(listed.id), unseen: false } : { id: '1', unseen: true };
    }
    const id = integerText(created.pet!.id);
    if (this.session.removed('getPet')) return { id, unseen: false };
    const read = () => this.session.call('store', 'getPet', { params: { petId: id } });
    const since = await this.seeding.writesEnded();
    // no answer here is the getPet checks' to report; the probes go on with the id
    const polled = await read()
      .then((first) => pollWithinWindow(this.session, first, read, (ex) => ex.status === 404, since))
      .catch(() => undefined);
    return { id, unseen: polled?.pending ?? false };
  }
}
