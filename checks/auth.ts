// Authentication: every secured operation, probed without a valid bearer credential.
import { fillPath, type Auth, type CheckContext } from '../harness/run/context.js';
import {
  animalsShown,
  check,
  difference,
  eachProbe,
  expectNoData,
  expectStatus,
  fail,
  Inconclusive,
  integerText,
  isRemoved,
  itemSpellings,
  newPetProperties,
  pathSpellings,
  Skip,
  undocumentedMethods,
  type Check,
  type Exchange,
  type Operation,
  type Spelling,
} from '../harness/run/kit.js';

interface Probe {
  op: Operation;
  judged: Promise<'credential' | 'no-data'>;
  auth: Auth;
  label: string;
  query?: Record<string, string>;
}

/** `everywhere`: to the other operations, which health samples. */
function toOperations(ctx: CheckContext, credentials: Omit<Probe, 'op' | 'judged'>[], everywhere = ctx.sample(credentials, 'everyOperation')): Probe[] {
  // filtered before judgedAs runs: an operation left out adds no note
  const ops = ctx.spec.operations.filter((op) => op.secured && !isRemoved(op, ctx.now) && (everywhere.length > 0 || op.id === 'listPets'));
  return ops.flatMap((op) => {
    const judged = judgedAs(ctx, op);
    return (op.id === 'listPets' ? credentials : everywhere).map((c) => ({ op, judged, ...c }));
  });
}

/** By no data where no success is documented and the key gets no 2xx (why: AUTH-MISSING-HEADER's accepts). */
async function judgedAs(ctx: CheckContext, op: Operation) {
  if (op.successShown) return 'credential';
  const ex = await ctx.probes.withKey(op.id).catch(() => undefined);
  if (ex?.succeeded) return 'credential';
  ctx.note(`${op.id}: with the key it got ${ex?.summary ?? 'no answer'}, so it is not there for this key: its probes must only get no data (no 2xx)`);
  return 'no-data';
}

// an operation with a petId gets an animal getPet shows, so that it cannot fail for want of one
async function expect401(ctx: CheckContext, probes: Probe[]) {
  const valid = ctx.profile === 'certify';
  await eachProbe(probes, async ({ op, judged, auth, label, query }) => {
    const json = !op.hasBody ? undefined : valid ? ctx.newPet('auth-probe') : {};
    const animal = op.path.includes('{petId}') ? await ctx.visible.animal() : undefined;
    const ex = await ctx.call(op.id, { auth, json, params: animal && { petId: animal.id }, query });
    const sent = `${op.id}${query ? `?${new URLSearchParams(query)}` : ''} with ${label}`;
    if ((await judged) === 'no-data') {
      if (ex.succeeded) fail(`${sent}: ${ex.summary}, data without a valid credential`, ex);
      return;
    }
    // a lookup before the credential is AUTH-BEFORE-LOOKUP's
    const unseen = `for animal ${animal?.id}, which getPet did not show even with the key within the consistency window (--consistency-window)`;
    if (animal?.unseen && ex.status === 404) return ctx.note(`${sent}: ${ex.summary}, ${unseen}`);
    expectStatus(ex, json !== undefined && !valid ? [401, 400] : [401], sent);
  });
}

const WITHOUT_KEY_VARIANTS = 'it sends the real key in another spelling than Bearer <key>, which this run does not (--key-variants; off in health)';

export const AUTH_CHECKS: Check[] = [
  check('AUTH-MISSING-HEADER', async (ctx) => {
    const [none] = ctx.credentials('store', 'missing');
    const parameters = ctx.sample<Record<string, string>>([{ status: ctx.spec.statuses[0] }, { limit: String(ctx.spec.limit.min) }], 'parameters');
    const withParameters = parameters.map((query) => ({ ...none, query }));
    await expect401(ctx, [...toOperations(ctx, ctx.credentials('store', 'missing', 'empty')), ...toOperations(ctx, withParameters, [])]);
  }),

  check('AUTH-INVALID-KEY', async (ctx) => {
    const kinds = ['random', 'changed', 'extended', 'shortened', 'case-changed', 'prefixed', 'second-word', 'scheme-only', 'unset-variable'] as const;
    const twice = ctx.sample(ctx.credentials('store', 'scheme-twice'), 'schemeTwice');
    await expect401(ctx, [...toOperations(ctx, ctx.credentials('store', ...kinds)), ...toOperations(ctx, twice, [])]);
  }),

  check('AUTH-WRONG-SCHEME', (ctx) => expect401(ctx, toOperations(ctx, ctx.credentials('store', 'other-scheme')))),

  check('AUTH-NO-SCHEME', (ctx) => expect401(ctx, toOperations(ctx, ctx.sample(ctx.credentials('store', 'no-scheme', 'glued'), 'credentials')))),

  check('AUTH-SCHEME-CASE', async (ctx) => {
    const [valid] = ctx.credentials('store', 'scheme-case');
    if (!valid) throw new Skip(WITHOUT_KEY_VARIANTS);
    const ex = await ctx.call('listPets', { auth: valid.auth });
    expectStatus(ex, [200], `listPets with ${valid.label}`);
  }),

  check('AUTH-NO-BYPASS', async (ctx) => {
    const none = { auth: 'none' as const };
    const id = await ctx.visible.liveId();
    const listPath = ctx.spec.operation('listPets').path;
    const list = () => ctx.call('listPets', none);
    const item = () => ctx.call('getPet', { ...none, params: { petId: id! } });
    const create = () => ctx.call('createPet', { ...none, json: ctx.newPet('bypass-probe') });
    const get = (canonical: () => Promise<Exchange>) => (s: Spelling) => ({
      label: `GET ${s.path} (${s.label}) with no key`,
      send: () => ctx.request('GET', s.path, none),
      canonical,
    });
    // access_token is RFC 6750's: AUTH-NO-QUERY-TOKEN
    const elsewhere = !ctx.keyVariants
      ? []
      : [
          ...['api_key', 'key', 'apikey', 'apiKey', 'token', 'auth'].map((name) => ({
            where: `in the query (${name})`,
            options: { query: { [name]: ctx.apiKey } },
          })),
          { where: 'in an X-API-Key header', options: { headers: { 'x-api-key': ctx.apiKey } } },
        ];
    const writes = (ctx.profile === 'certify' ? pathSpellings(listPath) : []).map((s) => ({
      label: `POST ${s.path} (${s.label}) of a valid NewPet with no key`,
      send: () => ctx.request('POST', s.path, { ...none, json: ctx.newPet('bypass-probe') }),
      canonical: create,
    }));
    const keyElsewhere = ctx
      .sample(elsewhere, 'keyElsewhere')
      .map(({ where, options }) => ({ label: `listPets with the key ${where}`, send: () => ctx.call('listPets', { ...none, ...options }), canonical: list }));
    const items = id === undefined ? [] : ctx.sample(itemSpellings(ctx.spec.operation('getPet').path, id).map(get(item)), 'getPet');
    await expectNoData(ctx, [...ctx.sample(pathSpellings(listPath).map(get(list)), 'listPets'), ...keyElsewhere, ...items, ...writes], 'AUTH-MISSING-HEADER');
  }),

  check('AUTH-NO-QUERY-TOKEN', (ctx) => {
    if (!ctx.keyVariants) throw new Skip(WITHOUT_KEY_VARIANTS);
    const label = 'listPets with the key in the query (access_token)';
    const send = () => ctx.call('listPets', { auth: 'none', query: { access_token: ctx.apiKey } });
    return expectNoData(ctx, [{ label, send, canonical: () => ctx.call('listPets', { auth: 'none' }) }], 'AUTH-MISSING-HEADER');
  }),

  check('AUTH-EVERY-METHOD', async (ctx) => {
    const listPath = ctx.spec.operation('listPets').path;
    const itemTemplate = ctx.spec.operation('getPet').path;
    // started first: its animal is made at once, off the run's longest chain
    const writes = ctx.profile === 'certify' && !isRemoved(ctx.spec.operation('getPet'), ctx.now) ? unsafeMethodsChangeNothing(ctx, itemTemplate) : undefined;
    writes?.catch(() => undefined); // awaited below
    const id = await ctx.visible.liveId();
    const paths = [
      { template: listPath, path: listPath },
      ...(id === undefined ? [] : [{ template: itemTemplate, path: fillPath(itemTemplate, 'getPet', { petId: id }) }]),
    ];
    const cors = { origin: 'https://conformance.example', 'access-control-request-method': 'GET' };
    // by method first, so that a health sample has each method
    const reads = undocumentedMethods(ctx.spec, listPath).safe.flatMap((method) =>
      paths.filter(({ template }) => undocumentedMethods(ctx.spec, template).safe.includes(method)).map(({ path }) => ({ method, path })),
    );
    const probes = ctx.sample(reads).map(({ method, path }) => async () => {
      const ex = await ctx.request(method, path, { auth: 'none', ...(method === 'OPTIONS' && { headers: cors }) });
      // HEAD answered as GET would be is GET without the key; a bare 2xx is AUTH-HEAD-REFUSED's
      if (method === 'HEAD' ? headLikeGet(ex) : animalsShown(ex).length > 0) {
        fail(`${method} ${path} with no key: ${ex.summary}${method === 'OPTIONS' ? ', with animals in the body' : ", with GET's media type or length"}`, ex);
      }
    });
    await eachProbe([...probes, ...(writes ? [() => writes] : [])], (probe) => probe());
  }),

  check('AUTH-HEAD-REFUSED', async (ctx) => {
    const headsWithoutKey = () => ctx.observed('store').filter((ex) => ex.request.method === 'HEAD' && ex.request.headers?.authorization === undefined);
    // run without AUTH-EVERY-METHOD, it sends its own
    if (headsWithoutKey().length === 0) await ctx.request('HEAD', ctx.spec.operation('listPets').path, { auth: 'none' });
    const heads = headsWithoutKey().filter((ex) => !headLikeGet(ex));
    if (heads.length === 0) return ctx.note('every HEAD without a key got no 2xx, or one answered as GET (AUTH-EVERY-METHOD judges those)');
    const through = heads.filter((ex) => ex.succeeded);
    if (through.length) fail(`${through.map((ex) => ex.summary).join(' | ')}: a 2xx to HEAD with no key, though GET needs the key`, ...through);
    ctx.note(`${heads.length} HEAD requests without a key, none answered 2xx`);
  }),

  check('AUTH-BEFORE-VALIDATION', async (ctx) => {
    const ex = await ctx.call('createPet', { auth: 'none', json: {} });
    expectStatus(ex, [401], 'createPet with an invalid body ({}) and no key (authentication comes before validation)');
  }),

  check('AUTH-BEFORE-LOOKUP', async (ctx) => {
    if (isRemoved(ctx.spec.operation('getPet'), ctx.now)) throw new Skip('getPet is past its removal date');
    const ex = await ctx.call('getPet', { auth: 'none', params: { petId: await ctx.probes.absentId() } });
    expectStatus(ex, [401], 'getPet of an animal that does not exist, with no key (authentication comes before the lookup)');
  }),
];

/** A HEAD answered as GET would be: GET's media type, or a body length (RFC 9110 9.3.2). */
const headLikeGet = (ex: Exchange) => ex.succeeded && (ex.mediaType === 'application/json' || Number(ex.headers['content-length'] ?? 0) > 0);

async function unsafeMethodsChangeNothing(ctx: CheckContext, itemTemplate: string) {
  // an animal without a status changes no page the list checks judge: it need not wait for them
  const created = await ctx.call('createPet', { json: ctx.newPet('method-probe') });
  const [pet] = animalsShown(created);
  if (!pet) throw new Inconclusive(`no animal to send the methods to: ${created.summary}`, [created]);
  const petId = integerText(pet.id);
  const read = () => ctx.call('getPet', { params: { petId } });
  const before = await ctx.poll(read, (ex) => ex.status === 404);
  if (before.value.status !== 200) throw new Inconclusive(`getPet does not show the animal made for the methods: ${before.value.summary}`, [before.value]);
  const bodies: Record<string, unknown> = {
    PUT: ctx.newPet('method-probe-replaced'),
    POST: ctx.newPet('method-probe-posted'),
    PATCH: { name: `${ctx.runPrefix}-method-probe-patched` },
  };
  const { unsafe } = undocumentedMethods(ctx.spec, itemTemplate);
  const path = fillPath(itemTemplate, 'getPet', { petId });
  const answers = await Promise.all(
    unsafe.map((method) => ctx.request(method, path, { auth: 'none', ...(bodies[method] !== undefined && { json: bodies[method] }) })),
  );
  const through = answers.filter((ex) => ex.succeeded);
  if (through.length) fail(`${through.map((ex) => ex.summary).join(' | ')}: a write with no key answered 2xx`, ...through);
  // a field such as a signed URL may differ on every read
  const after = await read();
  const fields = Object.keys(newPetProperties(ctx.spec));
  const shownBefore = Object.fromEntries(Object.entries(before.value.json as Record<string, unknown>).filter(([k]) => fields.includes(k)));
  const changed = after.status !== 200 ? after.summary : difference(shownBefore, after.json);
  if (changed) fail(`after ${unsafe.join(', ')} ${path} with no key, each refused, getPet with the key: ${changed}`, after, ...answers);
}
