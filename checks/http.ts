// The forms HTTP allows a request besides the suite's own; without a key they are AUTH-NO-BYPASS's.
import type { CallOptions, CheckContext } from '../harness/run/context.js';
import {
  bodySpellingsOf,
  check,
  eachProbe,
  expectSchema,
  fail,
  integerText,
  itemSpellings,
  pathSpellings,
  READ_HEADER_SPELLINGS,
  sameMeaning,
  showJson,
  Violation,
  type Check,
  type Exchange,
  type Spelling,
} from '../harness/run/kit.js';

interface Probe {
  what: string;
  send: (spelled: boolean) => Promise<Exchange>;
  judge: (ex: Exchange, what: string) => void;
  chunked?: boolean;
}

function expectAnimal(ctx: CheckContext, ex: Exchange, id: string, what: string) {
  const pet = expectSchema(ctx.spec, ex, 'Pet', what);
  if (integerText(pet.id) !== id) fail(`${what}: answered with animal ${integerText(pet.id)}, not ${id}`, ex);
}

/** A 2xx the suite's own spelling fails the same way is the operation's check's to judge. */
async function judgeAgainstOwn({ what, send, judge }: Probe, ex: Exchange) {
  try {
    judge(ex, what);
  } catch (err) {
    if (!(err instanceof Violation)) throw err;
    const own = await send(false);
    try {
      judge(own, what);
    } catch {
      return;
    }
    throw err;
  }
}

export const HTTP_CHECKS: Check[] = [
  check('HTTP-PATH-SPELLINGS', async (ctx) => {
    const id = await ctx.visible.liveId();
    const listPath = ctx.spec.operation('listPets').path;
    const get = (s: Spelling, own: () => Promise<Exchange>, judge: Probe['judge']): Probe => ({
      what: `GET ${s.path} (${s.label}) with the key`,
      send: (spelled) => (spelled ? ctx.request('GET', s.path) : own()),
      judge,
    });
    const list = ctx.sample(pathSpellings(listPath), 'listPets').map((s) =>
      get(
        s,
        () => ctx.call('listPets'),
        (ex, what) => expectSchema(ctx.spec, ex, 'Pets', what),
      ),
    );
    const item = ctx.sample(id === undefined ? [] : itemSpellings(ctx.spec.operation('getPet').path, id), 'getPet').map((s) =>
      get(
        s,
        () => ctx.call('getPet', { params: { petId: id! } }),
        (ex, what) => expectAnimal(ctx, ex, id!, what),
      ),
    );
    // after the pages the list checks judge
    const writes = (ctx.profile === 'certify' ? pathSpellings(listPath) : []).map((s): Probe => {
      const json = ctx.newPet('spelling-post');
      return {
        what: `POST ${s.path} (${s.label}) of a valid NewPet with the key`,
        send: async (spelled) => {
          await ctx.lists.pages();
          return spelled ? ctx.request('POST', s.path, { json }) : ctx.call('createPet', { json });
        },
        judge: (ex, what) => {
          const pet = expectSchema(ctx.spec, ex, 'Pet', what);
          if (!sameMeaning(pet.name, json.name)) fail(`${what}: answered with an animal named ${showJson(pet.name)}, not the one sent`, ex);
        },
      };
    });
    const unfollowed: string[] = [];
    await eachProbe([...list, ...item, ...writes], async (probe) => {
      const ex = await probe.send(true);
      if (ex.status >= 300 && ex.status < 400) unfollowed.push(ex.summary);
      if (ex.succeeded) await judgeAgainstOwn(probe, ex);
    });
    if (unfollowed.length) ctx.note(`redirects not followed (another origin, or too many hops), not judged: ${unfollowed.join(' | ')}`);
  }),

  check('HTTP-VALID-SPELLINGS', async (ctx) => {
    // getPet's answer is small: a proxy may leave it uncompressed, and say otherwise
    const fetchSpellings = ctx.sample(READ_HEADER_SPELLINGS.slice(0, 2), 'getPet');
    const id = fetchSpellings.length ? await ctx.visible.liveId() : undefined;
    const createPet = ctx.spec.operation('createPet');
    const spelledAs = (spelled: boolean, options: CallOptions) => (spelled ? options : {});
    const reads = ctx.sample(READ_HEADER_SPELLINGS, 'listPets').map(({ label, headers }): Probe => ({
      what: `listPets with ${label}`,
      send: (spelled) => ctx.call('listPets', spelledAs(spelled, { headers })),
      judge: (ex, what) => expectSchema(ctx.spec, ex, 'Pets', what),
    }));
    const fetch = (id === undefined ? [] : fetchSpellings).map(({ label, headers }): Probe => ({
      what: `getPet ${id} with ${label}`,
      send: (spelled) => ctx.call('getPet', { params: { petId: id! }, ...spelledAs(spelled, { headers }) }),
      judge: (ex, what) => expectAnimal(ctx, ex, id!, what),
    }));
    const bodySpellings = ctx.profile === 'certify' && createPet.mediaType ? bodySpellingsOf(createPet.mediaType) : [];
    const writes = bodySpellings.map(({ label, options }, i): Probe => ({
      what: `createPet of a valid NewPet with ${label}`,
      send: async (spelled) => {
        await ctx.lists.pages(); // after the pages the list checks judge
        return ctx.call('createPet', { json: ctx.newPet(`spelling-${i + 1}`), ...spelledAs(spelled, options) });
      },
      judge: (ex, what) => expectSchema(ctx.spec, ex, 'Pet', what),
      chunked: options.chunked,
    }));
    await eachProbe([...reads, ...fetch, ...writes], async (probe) => {
      const ex = await probe.send(true);
      if (ex.succeeded) return judgeAgainstOwn(probe, ex);
      // a 5xx is STORE-NO-5XX's; a 411 to the chunked body passes (why: the catalogue)
      if (ex.status >= 500 || (probe.chunked && ex.status === 411)) return;
      const own = await probe.send(false);
      if (own.status !== ex.status) fail(`${probe.what}: ${ex.summary}, where the suite's own spelling gets ${own.summary}`, ex, own);
    });
  }),
];
