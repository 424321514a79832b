// getPet: deprecated, not removed: until its removal date (x-removal-date) it must work.
import { waitedFor, type CheckContext } from '../harness/run/context.js';
import {
  check,
  eachProbe,
  expectRefusal,
  expectSchema,
  expectStatus,
  fail,
  Inconclusive,
  integerProbes,
  integerText,
  isInteger,
  isRemoved,
  pageItems,
  sameMeaning,
  showJson,
  Skip,
  type Check,
  type Exchange,
} from '../harness/run/kit.js';
import { judgeSuccesses } from './transcript.js';

function skipWhenRemoved(ctx: CheckContext) {
  const op = ctx.spec.operation('getPet');
  if (isRemoved(op, ctx.now)) {
    throw new Skip(`getPet was to be removed on ${op.removalDate} (x-removal-date); it is ${ctx.now.toISOString().slice(0, 10)}`);
  }
}

/** The animals to fetch, with the fields they must come back with: health creates none. */
async function animalsToFetch(ctx: CheckContext): Promise<Array<{ id: string; expected: Record<string, unknown>; from: string }>> {
  if (ctx.profile === 'certify') {
    return (await ctx.seeding.samples())
      .filter((c) => c.pet && isInteger(c.pet.id))
      .map((c) => ({ id: integerText(c.pet!.id), expected: c.sent, from: 'created' }));
  }
  // not on status, which may change on a live store
  return ctx.sample((pageItems(await ctx.seeding.preflight()) ?? []).filter((p) => p && isInteger(p.id))).map((p) => ({
    id: integerText(p.id),
    expected: Object.fromEntries(['name', 'categoryId'].filter((k) => k in p).map((k) => [k, p[k]])),
    from: 'listed',
  }));
}

const shows = (ex: Exchange, id: string) => ex.status === 200 && isInteger((ex.json as any)?.id) && integerText((ex.json as any).id) === id;

const petIdProbes = (ctx: CheckContext, near?: string) => integerProbes(ctx.spec.parameter('getPet', 'petId'), near);

export const GET_CHECKS: Check[] = [
  check('GET-OK', async (ctx) => {
    skipWhenRemoved(ctx);
    const animals = await animalsToFetch(ctx);
    if (animals.length === 0) throw new Inconclusive('no animal to fetch: none was created and the list is empty');
    const headers = new Set<string>();
    const since = ctx.profile === 'certify' ? await ctx.seeding.writesEnded() : undefined;
    const lags: number[] = [];
    await eachProbe(animals, async ({ id, expected, from }) => {
      // a store may show a write late: a 404 is asked again within --consistency-window
      const read = () => ctx.call('getPet', { params: { petId: id } });
      const polled = await ctx.poll(read, (ex) => ex.status === 404, since);
      const ex = polled.value;
      if (polled.asked > 1 && !polled.pending) lags.push(polled.lagMs);
      const what = `getPet for the ${from} animal ${id}${polled.pending ? waitedFor(polled) : ''}`;
      // a live store may lose a listed animal
      if (ex.status === 404 && from === 'listed') {
        const again = await ctx.call('listPets', { query: { limit: ctx.spec.limit.max } });
        if (!(pageItems(again) ?? []).some((p) => isInteger(p?.id) && integerText(p.id) === id)) {
          throw new Inconclusive(`${what}: ${ex.summary}, and the list no longer shows it: removed meanwhile?`, [ex, again]);
        }
      }
      expectStatus(ex, [200], what);
      const pet = expectSchema(ctx.spec, ex, 'Pet', what);
      if (integerText(pet.id) !== id) fail(`${what}: answered with animal ${integerText(pet.id)}`, ex);
      // a form of the text is CREATE-STORED-AS-SENT's; a status may have changed since, but one is shown
      for (const [field, value] of Object.entries(expected)) {
        const kept = field === 'status' ? pet.status != null : sameMeaning(pet[field], value);
        if (!kept) fail(`${what}: ${field} is ${showJson(pet[field])}, expected ${showJson(value)}`, ex);
      }
      for (const header of ['deprecation', 'sunset', 'link']) {
        if (ex.headers[header]) headers.add(`${header}: ${ex.headers[header]}`);
      }
    });
    judgeSuccesses(ctx, 'getPet', 'Pet');
    for (const h of headers) ctx.note(`deprecation signalled: ${h}`);
    const lag = `${(Math.max(...lags) / 1000).toFixed(1)} s`;
    if (lags.length) ctx.note(`getPet showed ${lags.length} animals only after a 404, at most ${lag} after they were written (--consistency-window)`);
  }),

  check('GET-NOT-FOUND', async (ctx) => {
    skipWhenRemoved(ctx);
    const id = await ctx.probes.absentId();
    const ex = await ctx.call('getPet', { params: { petId: id } });
    if (shows(ex, id)) throw new Inconclusive(`an animal with id ${id} exists after all`, [ex]);
    expectStatus(ex, [404], `getPet for id ${id}, far above every id seen`);
  }),

  check('GET-INVALID-ID', async (ctx) => {
    skipWhenRemoved(ctx);
    // the id of an animal that exists, followed by letters: parseInt reads it as that id
    const { notInteger, beyondInt64 } = petIdProbes(ctx, (await ctx.visible.animal()).id);
    await eachProbe([...ctx.sample(notInteger, 'notInteger'), ...ctx.sample(beyondInt64, 'beyondInt64')], async (petId) => {
      const ex = await ctx.call('getPet', { params: { petId } });
      expectRefusal(ex, `getPet with petId=${petId}`);
    });
  }),

  check('GET-EDGE-IDS', async (ctx) => {
    skipWhenRemoved(ctx);
    const known = await ctx.lists.knownPets();
    const ids = ctx.sample(petIdProbes(ctx).edges).filter((id) => !known.has(id));
    await eachProbe(ids, async (petId) => {
      const ex = await ctx.call('getPet', { params: { petId } });
      if (shows(ex, petId)) return ctx.note(`an animal with id ${petId} exists: not judged`);
      expectRefusal(ex, `getPet with petId=${petId}, which names no animal the run has seen`);
    });
  }),
];
