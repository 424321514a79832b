// Error bodies, judged on every error response the run observed, the error probes' too.
import type { CheckContext } from '../harness/run/context.js';
import { check, expectNoServerErrors, Inconclusive, type Check } from '../harness/run/kit.js';
import { judgeErrorBodies, judgeErrorStatuses, storeErrors } from './transcript.js';

async function observedErrors(ctx: CheckContext) {
  await ctx.probes.errorResponses();
  return storeErrors(ctx);
}

export const ERRORS_CHECKS: Check[] = [
  check('ERR-BODY-SHAPE', async (ctx) => {
    const errors = await observedErrors(ctx);
    if (errors.length === 0) throw new Inconclusive('no error response was observed, not even to the probes');
    judgeErrorBodies(ctx, errors);
  }),

  check('ERR-STATUS-MATCHES', async (ctx) => {
    const errors = await observedErrors(ctx);
    if (judgeErrorStatuses(ctx, errors) === 0) throw new Inconclusive(`none of ${errors.length} error responses carried an integer status field`);
  }),

  check('STORE-NO-5XX', async (ctx) => {
    await ctx.probes.errorResponses(); // when run alone, the error probes are what it judges
    expectNoServerErrors(ctx, 'store');
  }),
];
