// Authentication: every operation the spec secures, probed without a valid bearer
// credential, must answer 401. Operations past their removal date are left out.
import { check } from '../harness/registry.js';
import type { Auth, CheckContext } from '../harness/context.js';
import { eachProbe, expectStatus } from '../harness/expect.js';
import { validNewPet } from '../harness/bodies.js';
import { isRemoved, type Operation } from '../harness/spec.js';

/** Operations that must demand the key today (a removed operation need not exist). */
function liveSecuredOperations(ctx: CheckContext): Operation[] {
  return ctx.spec.operations.filter((op) => op.secured && !isRemoved(op, ctx.now));
}

/**
 * Sends each credential to each secured operation and expects 401. A body, where
 * the operation takes one, is a valid NewPet in certify (so only the credential is
 * wrong) and an empty object in health (so that even a server that ignores the
 * credential stores nothing).
 */
async function expect401Everywhere(
  ctx: CheckContext,
  credentials: Array<{ auth: Auth; label: string }>,
  operations = liveSecuredOperations(ctx),
): Promise<void> {
  const petId = await ctx.fixtures.someId();
  const probes = operations.flatMap((op) => credentials.map((c) => ({ op, ...c })));
  await eachProbe(probes, async ({ op, auth, label }) => {
    const json = !op.hasBody ? undefined
      : ctx.profile === 'certify' ? validNewPet(ctx.spec, ctx.session.petValues(`${ctx.runPrefix}-auth-probe`)) : {};
    const ex = await ctx.call(op.id, { auth, json, params: { petId } });
    expectStatus(ex, [401], `${op.id} with ${label}`);
  });
}

check('AUTH-MISSING-HEADER', (ctx) =>
  expect401Everywhere(ctx, [{ auth: 'none', label: 'no Authorization header' }]));

check('AUTH-INVALID-KEY', (ctx) =>
  expect401Everywhere(ctx, [{ auth: { header: `Bearer ${ctx.invalidKey}` }, label: 'an invalid bearer key (the key with its last character changed)' }]));

/**
 * The scheme probes reach every operation in certify. Health, which runs every few
 * minutes against production, sends them to listPets only: the header is parsed by
 * the same code on every route far more often than not, and missing or invalid keys
 * are still probed everywhere.
 */
function schemeProbeOperations(ctx: CheckContext): Operation[] {
  const live = liveSecuredOperations(ctx);
  return ctx.profile === 'certify' ? live : live.filter((op) => op.id === 'listPets');
}

check('AUTH-WRONG-SCHEME', (ctx) =>
  expect401Everywhere(ctx, ['Basic', 'Token'].map((scheme) => ({
    auth: { header: `${scheme} ${ctx.apiKey}` }, label: `the valid key under the ${scheme} scheme`,
  })), schemeProbeOperations(ctx)));

check('AUTH-NO-SCHEME', (ctx) =>
  expect401Everywhere(ctx, [{ auth: { header: ctx.apiKey }, label: 'the valid key with no scheme' }], schemeProbeOperations(ctx)));

check('AUTH-BEFORE-VALIDATION', async (ctx) => {
  const ex = await ctx.call('createPet', { auth: 'none', json: {} });
  expectStatus(ex, [401], 'createPet with an invalid body ({}) and no key (authentication comes before validation)');
});
