// createPet: the run's animals, the negative bodies, the round trips (round-trip.ts).
import type { CheckContext } from '../harness/run/context.js';
import { judgeViews, judgeWrites } from './model.js';
import { judgeSuccesses, reportOffences } from './transcript.js';
import {
  brief,
  canonicalText,
  check,
  eachProbe,
  expectSchema,
  expectStatus,
  fail,
  Inconclusive,
  integerText,
  isBroken,
  isInteger,
  plural,
  refusalCounts,
  sameMeaning,
  showJson,
  unlikelyId,
  type Check,
  type CreatedPet,
  type NegativeFamily,
  type Examples,
  type RoundTrip,
} from '../harness/run/kit.js';

async function createdPets(ctx: CheckContext) {
  const created = (await ctx.seeding.created()).filter((c): c is CreatedPet & { pet: Record<string, any> } => c.pet !== undefined);
  if (created.length === 0) throw new Inconclusive('no animal was created (see CREATE-OK)');
  return created;
}

/** Text trimmed or normalised is CREATE-STORED-AS-SENT's. */
export function echoProblem(ctx: CheckContext, sent: Record<string, unknown>, pet: Record<string, any>) {
  const changed = Object.entries(sent).find(([field, value]) => !sameMeaning(pet[field], value));
  if (changed) return `${changed[0]} was sent as ${showJson(changed[1])} but came back as ${showJson(pet[changed[0]])}`;
  if (!('status' in sent) && pet.status != null && !ctx.spec.statuses.includes(pet.status))
    return `status was omitted and came back as ${showJson(pet.status)}, not a PetStatus`;
}

const INVALID_BODIES: Record<string, NegativeFamily> = {
  'CREATE-MISSING-REQUIRED': 'missing-required',
  'CREATE-WRONG-TYPE': 'wrong-type',
  'CREATE-STATUS-ENUM': 'outside-enum',
  'CREATE-NON-INTEGER': 'non-integer',
  'CREATE-OUT-OF-RANGE': 'out-of-range',
  'CREATE-NOT-OBJECT': 'not-object',
  'CREATE-EMPTY-BODY': 'empty',
  'CREATE-MALFORMED-JSON': 'malformed-json',
};

async function memberSpellings(ctx: CheckContext) {
  const body = ctx.newPet('member-case');
  const [first, second] = [ctx.newPet('member-twice-1').name, ctx.newPet('member-twice-2').name];
  const probes = [
    {
      what: 'the required members in upper case',
      raw: JSON.stringify(Object.fromEntries(Object.entries(body).map(([k, v]) => [k.toUpperCase(), v]))),
      names: [body.name],
    },
    {
      what: 'name given twice',
      raw: JSON.stringify(body)
        .replace('{', `{"name":${JSON.stringify(first)},`)
        .replace(JSON.stringify(body.name), JSON.stringify(second)),
      names: [first, second],
    },
  ];
  await eachProbe(probes, async ({ what, raw, names }) => {
    const ex = await ctx.call('createPet', { raw });
    if (!ex.succeeded) return expectStatus(ex, [400], `createPet where ${what}`);
    // how a name is stored is CREATE-VIEWS-AGREE's
    const name = (ex.json as Record<string, unknown> | undefined)?.name;
    const read = (sent: unknown) =>
      typeof sent === 'string' && typeof name === 'string' && canonicalText(name).toLowerCase() === canonicalText(sent).toLowerCase();
    if (!names.some(read)) fail(`createPet where ${what}: ${ex.summary} with the name ${brief(name)}, none of the values sent`, ex);
  });
}

/** A generated example is told with its seed and what it shrank to. */
function failTrips(bad: RoundTrip[], trips: RoundTrip[], examples: Examples | undefined, what: string) {
  if (bad.length === 0) return;
  const { shrunk, seed } = examples ?? {};
  const describe = (t: RoundTrip) => {
    if (t.field !== undefined || !examples) return `${t.label}: ${t.why}`;
    const shrank =
      shrunk?.from !== t
        ? ''
        : shrunk.to === t
          ? `; no smaller body failed the same way within ${shrunk.runs} tries`
          : `; shrunk in ${shrunk.runs} tries to ${showJson(shrunk.to.sent)}: ${shrunk.to.why}`;
    return `${t.label} ${showJson(t.sent)} (--seed ${seed}): ${t.why}${shrank}`;
  };
  const first = shrunk && bad.includes(shrunk.from) ? shrunk.to.exchanges : [];
  fail(`${bad.length} of ${trips.length} valid NewPets ${what}: ${bad.slice(0, 4).map(describe).join(' | ')}`, ...first, ...bad.flatMap((t) => t.exchanges));
}

async function roundTrips(ctx: CheckContext) {
  const result = await ctx.roundTrips.followed();
  if (result.trips.length === 0) throw new Inconclusive('no valid value was sent: the NewPet schema gives no edge values and --examples is 0');
  return result;
}

async function views(ctx: CheckContext, found: 'disagree' | 'canonicalised', what: string) {
  const judged = await judgeViews(ctx);
  if (judged.animals === 0) throw new Inconclusive('the run created no animal with an integer id from a valid NewPet (see CREATE-OK)');
  reportOffences(ctx, judged[found], `${plural(judged.views, 'view')} of the run's ${plural(judged.animals, 'animal')}`, what);
}

export const CREATE_CHECKS: Check[] = [
  ...Object.entries(INVALID_BODIES).map(([id, family]) =>
    check(id, async (ctx) => {
      await eachProbe((await ctx.probes.negativeBodies())[family], async (body) => {
        const ex = await ctx.call('createPet', body.raw !== undefined ? { raw: body.raw } : { json: body.json });
        if (ex.succeeded) fail(`createPet accepted an invalid body (${body.label}): ${ex.summary}`, ex);
        expectStatus(ex, [400], `createPet where ${body.label}`);
      });
      if (family === 'missing-required' && ctx.profile === 'certify') await memberSpellings(ctx);
    }),
  ),

  check('CREATE-OK', async (ctx) => {
    const created = await ctx.seeding.created();
    for (const c of created) {
      const what = `createPet with ${showJson(c.sent)}`;
      expectStatus(c.exchange, [201], what);
      const pet = expectSchema(ctx.spec, c.exchange, 'Pet', what);
      if (!isInteger(pet.id)) fail(`${what}: id ${showJson(pet.id)} is not an integer`, c.exchange);
    }
    ctx.cite(...created.slice(0, 4).map((c) => c.exchange));
    ctx.note(`${created.length} animals created`);
    judgeSuccesses(ctx, 'createPet', 'Pet', { status: 201 });
  }),

  check('CREATE-ECHO', async (ctx) => {
    const created = await createdPets(ctx);
    for (const c of created) {
      const why = echoProblem(ctx, c.sent, c.pet);
      if (why) fail(`${c.exchange.summary}: ${why}`, c.exchange);
    }
    const withoutStatus = created.find((c) => !('status' in c.sent));
    if (withoutStatus) ctx.note(`status omitted on creation came back as ${showJson(withoutStatus.pet.status)}`);
    ctx.cite(...created.slice(0, 4).map((c) => c.exchange));
  }),

  check('CREATE-ID-UNIQUE', async (ctx) => {
    const created = (await createdPets(ctx)).filter((c) => isInteger(c.pet.id));
    const byId = new Map<string, (typeof created)[number]>();
    for (const c of created) {
      const id = integerText(c.pet.id);
      const earlier = byId.get(id);
      if (earlier) fail(`two animals got id ${id}: ${earlier.exchange.summary} and ${c.exchange.summary}`, c.exchange, earlier.exchange);
      byId.set(id, c);
    }
    ctx.note(`${byId.size} distinct ids`);
  }),

  check('CREATE-ROUND-TRIP', async (ctx) => {
    const { trips, examples, listing, listed } = await roundTrips(ctx);
    failTrips(trips.filter(isBroken), trips, examples, 'did not come back exactly');
    const accepted = trips.filter((t) => t.kind === 'exact');
    ctx.cite(...accepted.slice(0, 2).flatMap((t) => t.exchanges));
    ctx.note(
      `${accepted.length} of ${trips.length} valid NewPets (edge values${examples ? `, ${examples.trips.length} generated with --seed ${examples.seed}` : ''}) accepted and returned exactly in the 201 body and by getPet;` +
        ` ${listed} of them also in ${listing?.summary ?? 'no list page'} (the list cannot be searched for one animal: those it does not show are not judged there)`,
    );
  }),

  check('CREATE-VALID-ACCEPTED', async (ctx) => {
    const { trips, examples } = await roundTrips(ctx);
    const references = ctx.referenceValues;
    const refused = trips.filter((t) => t.kind === 'refused');
    // many stores cannot hold U+0000 (PostgreSQL's text): refusing it is no limit on names
    const nul = refused.filter((t) => Object.values(t.sent).some((v) => typeof v === 'string' && v.includes('\u0000')));
    if (nul.length) ctx.note(`refused a text holding U+0000, which many stores cannot hold: not judged (${nul[0].exchanges[0].summary})`);
    const judged = refused.filter((t) => !nul.includes(t) && refusalCounts(t, references, trips));
    const excused = refused.filter((t) => !nul.includes(t) && !judged.includes(t));
    const labels = excused.slice(0, 3).map((t) => t.label);
    if (excused.length) {
      ctx.note(
        `${excused.length} refused where ${Object.keys(references).join(', ')} is not the configured one (a server may know only some categories: see CATEGORY_ID), not judged: ${labels.join('; ')}`,
      );
    }
    failTrips(judged, trips, examples, 'were refused, though the description sets no length or character limits');
    ctx.note(`${trips.length - refused.length} of ${trips.length} valid NewPets accepted`);
  }),

  check('CREATE-ID-ASSIGNED', async (ctx) => {
    await ctx.lists.pages(); // after the pages the list checks judge
    const sentId = unlikelyId([...(await ctx.lists.knownPets()).keys()].map(BigInt));
    const body = { ...ctx.newPet('with-id'), id: sentId };
    const ex = await ctx.call('createPet', { json: body });
    const what = `createPet with id ${sentId} in the body`;
    if (ex.status === 400) return ctx.note(`${what}: refused with 400`);
    // 201 rather than another 2xx is CREATE-OK's to judge
    if (ex.status < 200 || ex.status >= 300) fail(`${what}: expected 201 with an id the service assigned, or 400, got ${ex.summary}`, ex);
    const id = (ex.json as Record<string, unknown> | undefined)?.id;
    // a server reading numbers as doubles honours it rounded (no other id is within 1,024 of it)
    const honoured = (got: string) => got === sentId.toString() || Number(got) === Number(sentId);
    if (isInteger(id) && honoured(integerText(id))) fail(`${what}: the animal got that very id (${integerText(id)}), not one assigned by the service`, ex);
    ctx.note(`${what}: ignored, the animal got id ${showJson(id)}`);
  }),

  check('CREATE-VIEWS-AGREE', (ctx) => views(ctx, 'disagree', 'disagree with how they were made')),

  check('CREATE-STORED-AS-SENT', (ctx) => views(ctx, 'canonicalised', 'show text trimmed or normalised, not as it was sent')),

  check('CREATE-WRITES-ACCOUNTED', async (ctx) => {
    const { offences, names } = await judgeWrites(ctx);
    if (names === 0) throw new Inconclusive("no write of the run carried a name of the run's");
    reportOffences(ctx, offences, `the animals shown with the ${names} names the run's writes carried`, 'were added by no write the store accepted');
  }),
];
