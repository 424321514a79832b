// Error bodies, judged on every error response of the animal store the run
// observed, and on those of two probes off the documented surface (an unknown
// route, an undocumented method). When the run saw no error of a documented status
// (as when these checks run alone), one probe provokes it.
import type { CheckContext } from '../harness/run/context.js';
import { carriesApiBody, check, expectNoServerErrors, fail, Inconclusive, type Check, type Exchange } from '../harness/run/kit.js';

async function observedErrors(ctx: CheckContext): Promise<Exchange[]> {
  await ctx.fixtures.errorResponses();
  return ctx.observed('store').filter((ex) => ex.status >= 400 && carriesApiBody(ex));
}

function reportOffenders(offenders: Array<{ ex: Exchange; why: string }>, total: number, what: string): void {
  if (offenders.length === 0) return;
  const shown = offenders
    .slice(0, 3)
    .map((o) => `${o.ex.summary}: ${o.why}`)
    .join(' | ');
  fail(`${offenders.length} of ${total} error responses ${what}: ${shown}`, ...offenders.map((o) => o.ex));
}

export const ERRORS_CHECKS: Check[] = [
  check('ERR-BODY-SHAPE', async (ctx) => {
    const errors = await observedErrors(ctx);
    if (errors.length === 0) throw new Inconclusive('no error response was observed, not even to the probes');
    const offenders = errors.flatMap((ex) => {
      if (ex.json === undefined) return [{ ex, why: `not JSON: ${ex.bodyExcerpt}` }];
      const problems = ctx.spec.errors('Error', ex.json);
      return problems.length ? [{ ex, why: problems.slice(0, 3).join('; ') }] : [];
    });
    reportOffenders(offenders, errors.length, 'are not an Error body (code, message, status)');
    ctx.note(`${errors.length} error responses judged`);
  }),

  check('ERR-STATUS-MATCHES', async (ctx) => {
    const errors = await observedErrors(ctx);
    const judged = errors.filter((ex) => Number.isInteger((ex.json as any)?.status));
    if (judged.length === 0) throw new Inconclusive(`none of ${errors.length} error responses carried an integer status field`);
    const offenders = judged.filter((ex) => (ex.json as any).status !== ex.status).map((ex) => ({ ex, why: `status field is ${(ex.json as any).status}` }));
    reportOffenders(offenders, judged.length, 'carry a status field that differs from the HTTP status');
    ctx.note(`${judged.length} error responses judged`);
  }),

  // No request the suite sends gets a 5xx: the description documents 200, 201, 400, 401
  // and 404 (rate limits, recovered retries and unimplemented methods aside: see expectNoServerErrors).
  check('STORE-NO-5XX', async (ctx) => {
    await ctx.fixtures.errorResponses(); // when run alone, the error probes are what it judges
    expectNoServerErrors(ctx, 'store');
  }),
];
