// listPets: the bare array, page bounds from the spec's limit parameter, the status filter.
import { waitedFor, type CheckContext, type ListPage, type ListPageTable, type Polled } from '../harness/run/context.js';
import {
  absentFrom,
  check,
  eachProbe,
  enumProbes,
  expectRefusal,
  expectSchema,
  expectStatus,
  fail,
  favouredStatus,
  Inconclusive,
  integerProbes,
  isRefusal,
  missingFrom,
  pageItems,
  showJson,
  type Check,
  type Exchange,
  type ListPages,
} from '../harness/run/kit.js';
import { judgeListAnswers, judgeUniqueIds } from './transcript.js';

// The pages the list checks share: unfiltered first (an animal seen unfiltered then existed
// when its status page was asked), each status with the largest limit (the more a short
// page holds, the more it says), the favoured one without limit (the default with a filter).
export const LIST_PAGES: ListPageTable = ({ limit: { min, max }, statuses }) => [
  [{}, { limit: min }, { limit: max }],
  [...statuses.map((status) => ({ status, limit: max })), { status: favouredStatus({ statuses }) }],
];

const unfiltered = (pages: ListPages) => pages.filter((p) => p.status === undefined).sort((a, b) => a.most - b.most);

function validPage(ctx: CheckContext, ex: Exchange, what: string): Array<Record<string, any>> {
  ctx.cite(ex);
  expectStatus(ex, [200], what);
  return expectSchema(ctx.spec, ex, 'Pets', what);
}

function expectAtMost(ctx: CheckContext, ex: Exchange, most: number, what: string) {
  const items = validPage(ctx, ex, what);
  if (items.length > most) fail(`${what}: ${items.length} animals returned, more than ${most}`, ex);
}

function noteLag(ctx: CheckContext, { asked, pending, lagMs }: Polled<ListPages>) {
  const lag = `${(lagMs / 1000).toFixed(1)} s`;
  if (asked > 1 && !pending) ctx.note(`the list showed the run's animals within ${lag} of the writes (asked ${asked} times; --consistency-window)`);
}

async function pagesAtMost(ctx: CheckContext, limit: number | undefined) {
  for (const { status, most, ex } of (await ctx.lists.pages()).filter((p) => p.limit === limit)) {
    const filter = status ? `status=${status}` : '';
    const none = filter ? `listPets with ${filter} and no limit` : 'listPets without limit';
    const what = limit === undefined ? none : `listPets with ${filter && `${filter}&`}limit=${limit}`;
    expectAtMost(ctx, ex, most, what);
  }
}

/** What passes and why: LIST-LIMIT-BELOW-MIN's accepts. */
async function outOfRangeLimit(ctx: CheckContext, values: string[]) {
  await ctx.seeding.created(); // a store with more animals than any page, so a missing bound shows
  const queries: Array<Record<string, string>> = [
    ...ctx.sample(values, 'limits').map((limit) => ({ limit })),
    ...ctx.sample(ctx.spec.statuses, 'statuses').map((status) => ({ status, limit: values[0] })),
  ];
  await eachProbe(queries, async (query) => {
    const ex = await ctx.call('listPets', { query });
    const what = `listPets with ${new URLSearchParams(query)}`;
    expectRefusal(ex, what, [200]);
    if (ex.status === 200) expectAtMost(ctx, ex, ctx.spec.limit.max, `${what} (answered 200, so it must be a valid page)`);
  });
}

const limitProbes = (ctx: CheckContext) => integerProbes(ctx.spec.parameter('listPets', 'limit'));

export const LIST_CHECKS: Check[] = [
  check('LIST-OK', async (ctx) => {
    const { min } = ctx.spec.limit;
    for (const { limit, ex } of (await ctx.lists.pages()).filter((p) => p.status === undefined)) {
      validPage(ctx, ex, `listPets with ${limit === undefined ? 'no parameters' : `limit=${limit === min ? 'min' : 'max'}`}`);
    }
    judgeListAnswers(ctx);
  }),

  // with the status filter too: a server may apply the default on one path only
  check('LIST-LIMIT-DEFAULT', (ctx) => pagesAtMost(ctx, undefined)),

  check('LIST-LIMIT-MIN', async (ctx) => {
    const { min } = ctx.spec.limit;
    // a server may enforce the bound on one query only
    const filtered = ctx.seeding.created().then(() =>
      eachProbe(ctx.sample(ctx.spec.statuses), async (status) => {
        expectAtMost(ctx, await ctx.call('listPets', { query: { status, limit: min } }), min, `listPets with status=${status}&limit=${min}`);
      }),
    );
    filtered.catch(() => undefined); // not left unhandled when the page fails first
    await pagesAtMost(ctx, min);
    await filtered;
  }),

  check('LIST-LIMIT-MAX', (ctx) => pagesAtMost(ctx, ctx.spec.limit.max)),

  check('LIST-PAGE-FULL', async (ctx) => {
    const listed = await ctx.lists.listed();
    // another client may add animals meanwhile
    const asked = await Promise.all(
      unfiltered(listed.value).map(async ({ ex, most }) => ({ ex, limit: most, held: (await ctx.lists.knownBefore(ex, listed.value)).size })),
    );
    const cases = asked.filter(({ limit, held }) => held >= limit);
    const storeHasAtLeast = Math.max(...asked.map((a) => a.held));
    const few = `the store held at least ${storeHasAtLeast} animals when its pages were asked, too few to fill a page of ${ctx.spec.limit.min}`;
    if (cases.length === 0) throw new Inconclusive(storeHasAtLeast === 0 ? 'the store shows no animals: no page can be required to hold any' : few);
    for (const { ex, limit, held } of cases) {
      const items = validPage(ctx, ex, `listPets (limit ${limit})`);
      if (items.length < limit) {
        fail(`${ex.summary}: ${items.length} animals on a page of ${limit}, though the store held at least ${held} when it was asked${waitedFor(listed)}`, ex);
      }
    }
    ctx.note(`store held at least ${storeHasAtLeast} animals; judged pages of ${cases.map((c) => c.limit).join(', ')}`);
    noteLag(ctx, listed);
  }),

  check('LIST-LIMIT-BELOW-MIN', (ctx) => outOfRangeLimit(ctx, limitProbes(ctx).below)),

  check('LIST-LIMIT-ABOVE-MAX', async (ctx) => {
    await outOfRangeLimit(ctx, limitProbes(ctx).above);
    const known = (await ctx.lists.knownPets()).size;
    if (known <= ctx.spec.limit.max) ctx.note(`the store holds at least ${known} animals: a missing maximum could not show`);
  }),

  check('LIST-LIMIT-NOT-INTEGER', (ctx) => {
    const { notInteger, lenient } = limitProbes(ctx);
    return outOfRangeLimit(ctx, [...notInteger, ...lenient]);
  }),

  check('LIST-LIMIT-ANY', async (ctx) => {
    const { interior } = limitProbes(ctx);
    if (!interior) throw new Inconclusive('the limit has no values between its bounds');
    const { max } = ctx.spec.limit;
    const statuses = ctx.sample(ctx.spec.statuses, 'statuses');
    const plain = ctx.sampleSize(3, 'unfiltered');
    const twice = 2 * ctx.sampleSize(1, 'repeated');
    const drawn = await ctx.drawIntegers(plain + statuses.length + twice, interior, 'LIST-LIMIT-ANY');
    const listed = await ctx.lists.listed();
    const known = [...(await ctx.lists.knownPets(listed.value)).values()];
    const knownOf = (status?: string) => (status === undefined ? known.length : known.filter((p) => p.status === status).length);
    // the limit given twice: refused, or read as anything a page of at most the maximum shows
    const asked: Array<{ status?: string; limit: number | number[] }> = [
      ...drawn.slice(0, plain).map((limit) => ({ limit })),
      ...statuses.map((status, i) => ({ status, limit: drawn[plain + i] })),
      ...(twice ? [{ limit: drawn.slice(-2) }] : []),
    ];
    await eachProbe(asked, async ({ status, limit }) => {
      const ex = await ctx.call('listPets', { query: { ...(status && { status }), limit } });
      const [most, least] = Array.isArray(limit) ? [max, 0] : [limit, limit];
      const what = ex.target;
      if (Array.isArray(limit) && isRefusal(ex.status)) return;
      const items = validPage(ctx, ex, what);
      if (items.length > most) fail(`${what}: ${items.length} animals, more than ${most}`, ex);
      if (items.length >= Math.min(least, knownOf(status))) return;
      // asked again with the largest page: an animal sold meanwhile (a live store) does not count
      const again = await ctx.call('listPets', { query: { ...(status && { status }), limit: max } });
      const holds = Math.min(knownOf(status), pageItems(again)?.length ?? Infinity);
      if (items.length < Math.min(least, holds)) {
        fail(
          `${what}: ${items.length} animals, though the store holds at least ${holds}${status ? ` of status ${status}` : ''}${waitedFor(listed)}`,
          ex,
          again,
        );
      }
    });
    ctx.note(`limits drawn with --seed ${ctx.seed}: ${drawn.join(', ')}`);
  }),

  // the early page (certify) shows a missing kind on a store smaller than a page
  check('LIST-UNFILTERED-COMPLETE', async (ctx) => {
    const judged: string[] = [];
    const expectWhole = (ex: Exchange, items: Array<Record<string, any>>, limit: number, known: Map<string, Record<string, any>>, polled: Polled<unknown>) => {
      const missing = absentFrom(items, known.keys());
      const shown = missing
        .slice(0, 3)
        .map((id) => `id ${id} (${showJson(known.get(id)?.name)}, status ${known.get(id)?.status == null ? 'none' : showJson(known.get(id)!.status)})`);
      if (missing.length) {
        fail(
          `${ex.summary}: the page holds ${items.length} animals (fewer than its limit ${limit}, so all of them) but lacks ${missing.length} known animals, e.g. ${shown.join(', ')}${waitedFor(polled)}`,
          ex,
        );
      }
      judged.push(`${ex.target} (${items.length} animals)`);
    };
    const { max } = ctx.spec.limit;
    const early = await ctx.seeding.earlyListing();
    if (early) {
      const items = validPage(ctx, early.polled.value, "listPets with the largest limit, after the run's first animals");
      if (items.length < max) expectWhole(early.polled.value, items, max, early.known, early.polled);
    }
    const listed = await ctx.lists.listed();
    for (const { ex, most: limit } of unfiltered(listed.value)) {
      const known = await ctx.lists.knownBefore(ex, listed.value);
      const items = validPage(ctx, ex, `listPets (limit ${limit})`);
      // a full page may leave out any animal; one short of what the store holds is LIST-PAGE-FULL's
      if (items.length < limit && items.length >= Math.min(limit, known.size)) expectWhole(ex, items, limit, known, listed);
    }
    if (judged.length === 0) throw new Inconclusive('every unfiltered page was full: a full page may leave out any animal');
    ctx.note(`judged: ${judged.join(', ')}`);
  }),

  check('LIST-STATUS-FILTER', async (ctx) => {
    for (const { status, ex } of statusPages(await ctx.lists.pages())) {
      const items = validPage(ctx, ex, `listPets with status=${status}`);
      const others = items.filter((pet) => pet.status !== status);
      if (others.length) {
        const shown = others.slice(0, 3).map((p) => `id ${showJson(p.id)} has status ${showJson(p.status)}`);
        fail(`${ex.summary}: ${others.length} of ${items.length} animals are not ${status}: ${shown.join(', ')}`, ex);
      }
    }
    const twice = ctx.spec.statuses.slice(0, 2);
    if (twice.length < 2 || ctx.sampleSize(1, 'repeated') === 0) return;
    const ex = await ctx.call('listPets', { query: { status: twice } });
    if (!isRefusal(ex.status)) validPage(ctx, ex, `listPets with the status filter given twice`);
  }),

  // each re-listing asks unfiltered first, so the status known is the one shown last
  check('LIST-STATUS-COMPLETE', async (ctx) => {
    const listed = await ctx.lists.listed();
    const judged: string[] = [];
    const full: string[] = [];
    // a full page may leave out animals of its status
    for (const { status, limit, ex, most } of statusPages(listed.value)) {
      const items = validPage(ctx, ex, `listPets with status=${status}`);
      const page = `${status}${limit === undefined ? ' (no limit)' : ''}`;
      if (items.length >= most) {
        full.push(page);
        continue;
      }
      const missing = missingFrom(items, (await ctx.lists.knownBefore(ex, listed.value)).values(), status);
      if (missing.length) {
        fail(
          `${ex.summary}: the page holds ${items.length} animals (fewer than its limit ${most}, so all of them) but lacks ${missing.length} known ${status} animals, e.g. id ${missing.slice(0, 3).join(', ')}${waitedFor(listed)}`,
          ex,
        );
      }
      judged.push(page);
    }
    if (judged.length === 0) throw new Inconclusive('every status page was full: the store may hold more of each status than one page');
    if (full.length) ctx.note(`inconclusive for ${full.join(', ')}: those pages were full`);
    noteLag(ctx, listed);
  }),

  check('LIST-STATUS-UNKNOWN', async (ctx) => {
    const { outside } = enumProbes(ctx.spec.parameter('listPets', 'status'));
    await eachProbe(ctx.sample(outside), async (status) => {
      const ex = await ctx.call('listPets', { query: { status } });
      expectRefusal(ex, `listPets with status=${status}`, [200]);
      if (ex.status === 200) expectSchema(ctx.spec, ex, 'Pets', `listPets with status=${status} (answered 200)`);
    });
  }),

  check('LIST-IDS-UNIQUE', async (ctx) => {
    if ((await judgeUniqueIds(ctx)) === 0) throw new Inconclusive('no list page was observed');
  }),
];

const statusPages = (pages: ListPages) => pages.filter((p): p is ListPage & { status: string } => p.status !== undefined);
