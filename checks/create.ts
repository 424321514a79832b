// createPet: the animals the run created (one per status, one without, and the
// filling ones) are judged for status, shape, echo and unique ids; the negative
// bodies are generated from the NewPet schema, one requirement per kind of defect.
import { check } from '../harness/registry.js';
import { eachProbe, expectSchema, expectStatus } from '../harness/expect.js';
import { integerText, isInteger, sameJson, showJson } from '../harness/json.js';
import { Inconclusive, fail } from '../harness/outcome.js';
import type { CheckContext } from '../harness/context.js';
import type { CreatedPet } from '../harness/fixtures.js';

check('CREATE-OK', async (ctx) => {
  const created = await ctx.fixtures.created();
  for (const c of created) {
    const what = `createPet with ${showJson(c.sent)}`;
    expectStatus(c.exchange, [201], what);
    const pet = expectSchema(ctx.spec, c.exchange, 'Pet', what);
    if (!isInteger(pet.id)) fail(`${what}: id ${showJson(pet.id)} is not an integer`, c.exchange);
  }
  ctx.cite(...created.slice(0, 4).map((c) => c.exchange));
  ctx.note(`${created.length} animals created`);
});

/** The creations that answered with a Pet; inconclusive when none did (CREATE-OK says why). */
async function createdPets(ctx: CheckContext): Promise<Array<CreatedPet & { pet: Record<string, any> }>> {
  const created = (await ctx.fixtures.created()).filter((c): c is CreatedPet & { pet: Record<string, any> } => c.pet !== undefined);
  if (created.length === 0) throw new Inconclusive('no animal was created (see CREATE-OK)');
  return created;
}

check('CREATE-ECHO', async (ctx) => {
  const created = await createdPets(ctx);
  for (const c of created) {
    for (const [field, value] of Object.entries(c.sent)) {
      if (!sameJson(c.pet[field], value)) {
        fail(`${c.exchange.summary}: ${field} was sent as ${showJson(value)} but came back as ${showJson(c.pet[field])}`, c.exchange);
      }
    }
    if (!('status' in c.sent) && c.pet.status != null && !ctx.spec.statuses.includes(c.pet.status)) {
      fail(`${c.exchange.summary}: status was omitted and came back as ${showJson(c.pet.status)}, not a PetStatus`, c.exchange);
    }
  }
  const withoutStatus = created.find((c) => !('status' in c.sent));
  if (withoutStatus) ctx.note(`status omitted on creation came back as ${showJson(withoutStatus.pet.status)}`);
  ctx.cite(...created.slice(0, 4).map((c) => c.exchange));
});

check('CREATE-ID-UNIQUE', async (ctx) => {
  const created = (await createdPets(ctx)).filter((c) => isInteger(c.pet.id));
  const byId = new Map<string, typeof created[number]>();
  for (const c of created) {
    const id = integerText(c.pet.id);
    const earlier = byId.get(id);
    if (earlier) fail(`two animals got id ${id}: ${earlier.exchange.summary} and ${c.exchange.summary}`, c.exchange, earlier.exchange);
    byId.set(id, c);
  }
  ctx.note(`${byId.size} distinct ids`);
});

/** Sends every negative body of one kind; each must get 400. */
async function rejects(ctx: CheckContext, requirementId: string): Promise<void> {
  const bodies = (await ctx.fixtures.negativeBodies())[requirementId];
  await eachProbe(bodies, async (body) => {
    const ex = await ctx.call('createPet', body.raw !== undefined ? { raw: body.raw } : { json: body.json });
    if (ex.status >= 200 && ex.status < 300) fail(`createPet accepted an invalid body (${body.label}): ${ex.summary}`, ex);
    expectStatus(ex, [400], `createPet where ${body.label}`);
  });
}

for (const id of ['CREATE-MISSING-REQUIRED', 'CREATE-WRONG-TYPE', 'CREATE-STATUS-ENUM', 'CREATE-NON-INTEGER',
  'CREATE-NOT-OBJECT', 'CREATE-EMPTY-BODY', 'CREATE-MALFORMED-JSON']) {
  check(id, (ctx) => rejects(ctx, id));
}
