// Authentication: every operation the spec secures, probed without a valid bearer
// credential, must answer 401. Operations past their removal date are left out; one
// whose response is not shown and that is not there for this key must only give no data.
import { check, type Check } from '../harness/run/check.js';
import type { Auth, CheckContext } from '../harness/run/context.js';
import { eachProbe, expectStatus } from '../harness/run/expect.js';
import { Inconclusive, Skip, fail } from '../harness/model/outcome.js';
import type { Exchange } from '../harness/http/exchange.js';
import { isRemoved, type Operation } from '../harness/api/spec.js';

/**
 * How an operation's probes are judged: `credential`, each must get 401 (or 400 for an
 * invalid body); `no-data`, each must only get no data (no 2xx).
 */
type Judged = 'credential' | 'no-data';

/** An operation, and how the run judges its probes (judgedAs). */
interface Gated {
  op: Operation;
  judged: Promise<Judged>;
}

/**
 * The operations that must demand the key today: every secured one not past its removal
 * date (a removed operation need not exist). Each comes with how its probes are judged,
 * so that the probes of the others need not wait for the call that decides it.
 */
function probedOperations(ctx: CheckContext, only: (op: Operation) => boolean = () => true): Gated[] {
  const live = ctx.spec.operations.filter((op) => op.secured && !isRemoved(op, ctx.now) && only(op));
  return live.map((op) => ({ op, judged: judgedAs(ctx, op) }));
}

/**
 * An operation whose existence and response are "not shown" (GET /store/orders) is
 * there for this key only where the key gets a 2xx: then its authentication is judged
 * like any operation's. Anything else with the key (404, 405 or 501: not there; 403: not
 * for this key; 400: a parameter nobody documented, checked before the key) says it is
 * not there for this key, whichever status the server picked to say so: its probes
 * without a valid credential must then only get no data (noted).
 */
async function judgedAs(ctx: CheckContext, op: Operation): Promise<Judged> {
  if (op.successShown) return 'credential';
  const ex = await ctx.fixtures.withKey(op.id).catch(() => undefined);
  if (ex?.succeeded) return 'credential';
  ctx.note(`${op.id}: with the key it got ${ex?.summary ?? 'no answer'}, so it is not there for this key: its probes must only get no data (no 2xx)`);
  return 'no-data';
}

interface Credential {
  auth: Auth;
  label: string;
  /** Query parameters the probe carries (listPets with a filter or a limit). */
  query?: Record<string, string | number>;
}

/**
 * Sends each probe and expects 401 (or, for an operation not there for this key, no
 * 2xx: judgedAs). A body, where the operation takes one, is a valid NewPet in certify
 * (so only the credential is wrong) and an empty object in health (so that even a
 * server that ignores the credential stores nothing). With that invalid body a 400
 * refuses the request too: no precedence of 400 and 401 is stated
 * (AUTH-BEFORE-VALIDATION, a SHOULD, asks for 401 first). An operation with a petId
 * gets an animal that getPet shows (visibleId), so that it cannot fail for want of
 * one; the others are sent without waiting for it.
 */
async function expect401(ctx: CheckContext, probes: Array<Gated & Credential>): Promise<void> {
  await eachProbe(probes, async ({ op, judged, auth, label, query }) => {
    const valid = ctx.profile === 'certify';
    const json = !op.hasBody ? undefined : valid ? ctx.newPet('auth-probe') : {};
    const animal = op.path.includes('{petId}') ? await ctx.fixtures.visibleId() : undefined;
    const params = animal && { petId: animal.id };
    const ex = await ctx.call(op.id, { auth, json, params, query });
    const sent = query
      ? `${op.id}?${Object.entries(query)
          .map(([k, v]) => `${k}=${v}`)
          .join('&')}`
      : op.id;
    if ((await judged) === 'no-data') {
      if (ex.succeeded) fail(`${sent} with ${label}: ${ex.summary}, data without a valid credential`, ex);
      return;
    }
    // a lookup before the credential (AUTH-BEFORE-LOOKUP, a SHOULD) answers 404 for an
    // animal the server does not show: that says nothing of the credential
    if (animal?.unseen && ex.status === 404) {
      ctx.note(
        `${sent} with ${label}: ${ex.summary}, for animal ${animal.id}, which getPet did not show even with the key within the consistency window (--consistency-window)`,
      );
      return;
    }
    expectStatus(ex, json !== undefined && !valid ? [401, 400] : [401], `${sent} with ${label}`);
  });
}

/** Sends each credential to each operation (by default every probed one) and expects 401. */
async function expect401Everywhere(ctx: CheckContext, credentials: Credential[], operations?: Gated[]): Promise<void> {
  const ops = operations ?? probedOperations(ctx);
  await expect401(
    ctx,
    ops.flatMap((gated) => credentials.map((c) => ({ ...gated, ...c }))),
  );
}

/**
 * The scheme probes reach every operation in certify. Health, which runs every few
 * minutes against production, sends them to listPets only: the header is parsed by
 * the same code on every route far more often than not, and missing or invalid keys
 * are still probed everywhere.
 */
function schemeProbeOperations(ctx: CheckContext): Gated[] {
  // filtered before judgedAs runs: an operation left out adds no note
  return probedOperations(ctx, (op) => ctx.profile === 'certify' || op.id === 'listPets');
}

/**
 * Requests without an Authorization header that must get no data (no 2xx). Where one
 * does, listPets is asked once more with no key at all: a list that needs no key
 * anywhere is AUTH-MISSING-HEADER's failure, not a way around the key (inconclusive).
 */
async function expectNoData(ctx: CheckContext, probes: Array<{ label: string; send: () => Promise<Exchange> }>): Promise<void> {
  const answers = await Promise.all(probes.map(async (b) => ({ ...b, ex: await b.send() })));
  const through = answers.filter(({ ex }) => ex.succeeded);
  if (through.length === 0) return ctx.note(`${probes.length} requests without an Authorization header, none answered 2xx`);
  const plain = await ctx.call('listPets', { auth: 'none' });
  if (plain.succeeded) {
    throw new Inconclusive(`listPets answers without any key (${plain.summary}): AUTH-MISSING-HEADER fails; nothing is bypassed`, [plain]);
  }
  fail(
    `${through.length} of ${probes.length} got data without an Authorization header: ${through.map(({ label, ex }) => `${label}: ${ex.summary}`).join(' | ')}`,
    ...through.map(({ ex }) => ex),
  );
}

export const AUTH_CHECKS: Check[] = [
  // listPets also with each of its parameters: a server may take a filtered or limited
  // list down another code path (a search index, a cache), and forget the key there
  check('AUTH-MISSING-HEADER', async (ctx) => {
    const none: Credential = { auth: 'none', label: 'no Authorization header' };
    const ops = probedOperations(ctx);
    const listPets = ops.filter(({ op }) => op.id === 'listPets');
    // health (few requests, every few minutes) sends the filter only
    const withParameters = ctx.sample<Record<string, string | number>>([{ status: ctx.spec.statuses[0] }, { limit: ctx.spec.limit.min }], 1);
    await expect401(ctx, [
      ...ops.map((gated) => ({ ...gated, ...none })),
      ...listPets.flatMap((gated) => withParameters.map((query) => ({ ...gated, ...none, query }))),
    ]);
  }),

  /**
   * The near-miss keys (nearMisses: changed, extended, shortened, case-changed, prefixed,
   * a second word after the key). certify sends each to every probed operation. health,
   * which runs every few minutes against production, sends them all to listPets and the
   * changed key to every operation: the key is compared by the same code on every route
   * far more often than not, and a route that skips the check is still found.
   */
  check('AUTH-INVALID-KEY', async (ctx) => {
    const keys = ctx.invalidKeys.map((k): Credential => ({ auth: { header: `Bearer ${k.value}` }, label: `an invalid bearer key (${k.what})` }));
    // certify also sends the scheme twice: the token "Bearer <key>" is not the key, but a
    // server that strips every "Bearer " prefix finds it
    const doubled: Credential = { auth: { header: `Bearer Bearer ${ctx.apiKey}` }, label: 'the scheme twice (Bearer Bearer <key>)' };
    const ops = probedOperations(ctx);
    await expect401(ctx, [
      ...ops.flatMap((gated) => (ctx.profile === 'certify' || gated.op.id === 'listPets' ? keys : keys.slice(0, 1)).map((c) => ({ ...gated, ...c }))),
      ...(ctx.profile === 'certify' ? ops.filter(({ op }) => op.id === 'listPets').map((gated) => ({ ...gated, ...doubled })) : []),
    ]);
  }),

  check('AUTH-WRONG-SCHEME', (ctx) =>
    expect401Everywhere(
      ctx,
      ['Basic', 'Token'].map((scheme) => ({
        auth: { header: `${scheme} ${ctx.apiKey}` },
        label: `the valid key under the ${scheme} scheme`,
      })),
      schemeProbeOperations(ctx),
    ),
  ),

  // certify also glues the key to the scheme (BearerKEY): a server that strips a
  // "Bearer" prefix without its space accepts it
  check('AUTH-NO-SCHEME', (ctx) =>
    expect401Everywhere(
      ctx,
      ctx.sample<Credential>(
        [
          { auth: { header: ctx.apiKey }, label: 'the valid key with no scheme' },
          { auth: { header: `Bearer${ctx.apiKey}` }, label: 'the valid key glued to Bearer, with no space' },
        ],
        1,
      ),
      schemeProbeOperations(ctx),
    ),
  ),

  // Only a 2xx fails: it hands out the store without the documented credential. The
  // key elsewhere must get 401 by the letter (the key is "missing" from Authorization),
  // but that is AUTH-MISSING-HEADER's to demand; /pets/ is not a documented path, so a
  // 404, a 405 or a redirect to /pets (followed: then 401) are as good.
  check('AUTH-NO-BYPASS', (ctx) =>
    expectNoData(
      ctx,
      ctx.sample(
        [
          { label: 'GET /pets/ (a trailing slash) with no key', send: () => ctx.request('GET', '/pets/', { auth: 'none' }) },
          { label: 'listPets with the key in the query (api_key)', send: () => ctx.call('listPets', { auth: 'none', query: { api_key: ctx.apiKey } }) },
          { label: 'listPets with the key in an X-API-Key header', send: () => ctx.call('listPets', { auth: 'none', headers: { 'x-api-key': ctx.apiKey } }) },
        ],
        2,
      ),
    ),
  ),

  // SHOULD: RFC 6750 2.3 lets a resource server take the bearer token from the query
  check('AUTH-NO-QUERY-TOKEN', (ctx) =>
    expectNoData(ctx, [
      { label: 'listPets with the key in the query (access_token)', send: () => ctx.call('listPets', { auth: 'none', query: { access_token: ctx.apiKey } }) },
    ]),
  ),

  // SHOULD: 401 first is what "a missing key yields 401" asks without condition, and it
  // tells an anonymous client nothing about the body; but 400 ("body missing required
  // fields") fits the request too, and no precedence is stated.
  check('AUTH-BEFORE-VALIDATION', async (ctx) => {
    const ex = await ctx.call('createPet', { auth: 'none', json: {} });
    expectStatus(ex, [401], 'createPet with an invalid body ({}) and no key (authentication comes before validation)');
  }),

  // SHOULD, as AUTH-BEFORE-VALIDATION: 404 ("Animal not found") fits the request too, and
  // no precedence is stated; but a 404 to anyone tells which ids exist without a key
  check('AUTH-BEFORE-LOOKUP', async (ctx) => {
    if (isRemoved(ctx.spec.operation('getPet'), ctx.now)) throw new Skip('getPet is past its removal date');
    const ex = await ctx.call('getPet', { auth: 'none', params: { petId: await ctx.fixtures.absentId() } });
    expectStatus(ex, [401], 'getPet of an animal that does not exist, with no key (authentication comes before the lookup)');
  }),
];
