// Latency: per-operation response times of the whole run, against the budget the
// user set. Not an API requirement: a health signal made into one on request.
import { check, type Check } from '../harness/run/check.js';
import { Skip, fail } from '../harness/model/outcome.js';

export const PERFORMANCE_CHECKS: Check[] = [
  check('PERF-LATENCY-P95', async (ctx) => {
    const budget = ctx.latencyBudgetMs;
    if (budget === undefined) throw new Skip('no latency budget set (--max-latency-ms)');
    const stats = ctx.latency();
    const over = Object.entries(stats).filter(([, s]) => s.p95 > budget);
    if (over.length) {
      fail(`p95 over the budget of ${budget} ms: ${over.map(([op, s]) => `${op} ${s.p95} ms (n=${s.count})`).join(', ')}`);
    }
    ctx.note(
      Object.entries(stats)
        .map(([op, s]) => `${op} p95 ${s.p95} ms`)
        .join(', '),
    );
  }),
];
