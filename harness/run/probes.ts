// Requests the store must refuse, and an id no animal has, shared by the checks.
import { randomBytes } from 'node:crypto';
import type { Exchange } from '../http/exchange.js';
import { negativeNewPets, type NegativeBody, type NegativeFamily } from '../api/bodies.js';
import { INT64_MAX } from '../model/json.js';
import type { Session } from './session.js';
import type { Lists } from './list-pages.js';

/** A random int64 in [2^62, 2^63), at least 2^32 from every known id. */
export function unlikelyId(known: bigint[]): bigint {
  for (;;) {
    const id = 2n ** 62n + (randomBytes(8).readBigUInt64BE() >> 2n);
    if (known.every((k) => (k > id ? k - id : id - k) > 2n ** 32n)) return id;
  }
}

export class Probes {
  private errors?: Promise<void>;
  private readonly keyed = new Map<string, Promise<Exchange>>();
  private negatives?: Promise<Record<NegativeFamily, NegativeBody[]>>;

  constructor(
    private readonly session: Session,
    private readonly lists: Lists,
  ) {}

  /** Far above every id the run has seen. */
  async absentId() {
    const known = [...(await this.lists.knownPets()).keys()].map(BigInt);
    const candidate = known.reduce((a, b) => (b > a ? b : a), 0n) + 1_000_000_000n;
    // a store whose ids reach the top of int64 (drawn at random, or from the top down)
    return (candidate > INT64_MAX ? unlikelyId(known) : candidate).toString();
  }

  /** Each documented error status not seen yet, and requests off the documented surface (PATCH: ERR-BODY-SHAPE's accepts). */
  errorResponses() {
    return (this.errors ??= this.provokeErrors());
  }

  private async provokeErrors() {
    const probes = [
      { status: 401, operationId: 'listPets', send: () => this.session.call('store', 'listPets', { auth: 'none' }) },
      { status: 400, operationId: 'createPet', send: () => this.session.call('store', 'createPet', { json: {} }) },
      { status: 404, operationId: 'getPet', send: async () => this.session.call('store', 'getPet', { params: { petId: await this.absentId() } }) },
    ];
    const seen = new Set(this.session.answered('store').map((ex) => ex.status));
    const itemPathLive = !this.session.removed('getPet');
    const offSurface = [
      () => this.session.request('store', 'GET', `/${this.session.runPrefix}-no-such-route`),
      // the item path often has its own framework page; after getPet's removal date it is not the API's
      ...(itemPathLive ? [async () => this.session.request('store', 'PATCH', `/pets/${await this.absentId()}`)] : []),
      // health keeps its requests few: the item path stands for both, while it lives
      ...(this.session.options.profile === 'certify' || !itemPathLive ? [() => this.session.request('store', 'PATCH', '/pets')] : []),
    ];
    await Promise.all([
      // a probe that got no answer leaves nothing to judge: the check of that operation reports it
      ...probes.filter((p) => !seen.has(p.status) && !this.session.removed(p.operationId)).map((p) => p.send().catch(() => undefined)),
      ...offSurface.map((send) => send().catch(() => undefined)),
    ]);
  }

  withKey(operationId: string) {
    return this.keyed.get(operationId) ?? this.keyed.set(operationId, this.session.call('store', operationId)).get(operationId)!;
  }

  negativeBodies() {
    return (this.negatives ??= (async () => negativeNewPets(this.session.specs.store, this.session.petValues(`${this.session.runPrefix}-invalid`)))());
  }
}
