// Judged on a quiet sample, one request at a time: a server is not blamed for the suite's own load.
import type { CheckContext } from '../harness/run/context.js';
import { check, fail, Inconclusive, isSafeMethod, latencyByOperation, Skip, type Check, type Exchange, type LatencyStats } from '../harness/run/kit.js';

/** With 20, the 95th percentile is the second slowest: one stall does not decide it. */
export const QUIET_SAMPLE = 20;

function requestsToSample(ctx: CheckContext): Exchange[] {
  const chosen = new Map<string, Exchange>();
  const answered = [...ctx.observed('store'), ...ctx.observed('quickstart')].filter(
    (ex) => ex.succeeded && ex.request.operation && (ctx.profile === 'certify' || isSafeMethod(ex.request.method)),
  );
  for (const ex of answered) {
    const op = ex.request.operation!;
    const held = chosen.get(op);
    if (!held || (held.request.url.includes('?') && !ex.request.url.includes('?'))) chosen.set(op, ex);
  }
  return [...chosen.values()];
}

const figures = (stats: Record<string, LatencyStats>) =>
  Object.entries(stats)
    .map(([op, s]) => `${op} ${s.p95} ms (n=${s.count})`)
    .join(', ');

export const PERFORMANCE_CHECKS: Check[] = [
  check('PERF-LATENCY-P95', async (ctx) => {
    const budget = ctx.latencyBudgetMs;
    if (budget === undefined) throw new Skip('no latency budget set (--max-latency-ms)');
    const underLoad = latencyByOperation([...ctx.sent('store'), ...ctx.sent('quickstart')]);
    const sample: Exchange[] = [];
    for (const ex of requestsToSample(ctx)) for (let i = 0; i < QUIET_SAMPLE; i++) sample.push(await ctx.resendQuiet(ex));
    if (!sample.length) throw new Inconclusive('no operation answered 2xx in this run: nothing to time');
    const quiet = latencyByOperation(sample);
    const loaded = `under the run's own load (--concurrency): ${figures(underLoad)}`;
    const over = Object.entries(quiet).filter(([, s]) => s.p95 > budget);
    if (over.length) {
      const slowest = over.map(([op]) => sample.filter((ex) => ex.request.operation === op).sort((a, b) => b.durationMs - a.durationMs)[0]);
      fail(`p95 one request at a time over the budget of ${budget} ms: ${figures(Object.fromEntries(over))}; ${loaded}`, ...slowest);
    }
    ctx.note(`p95 one request at a time: ${figures(quiet)}; ${loaded}`);
  }),
];
