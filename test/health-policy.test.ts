// The health profile's request budget, derived from the catalogue (each entry's
// health.requests and healthShared) without running anything, and held to what a
// health run against the reference server sends, check by check.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadCatalogue } from '../harness/api/catalogue.js';
import { readSpecDocument } from '../harness/api/documents.js';
import { SPEC_DIR } from '../harness/model/paths.js';
import { startReferenceServer } from '../reference/server.js';
import { runConformance } from '../harness/run/runner.js';
import type { Check } from '../harness/run/check.js';
import { conformanceChecks } from '../checks/index.js';
import { API_KEY, referenceRun, violations } from './support/run.js';

const health = loadCatalogue().filter((r) => r.profiles.includes('health'));
const shared: Record<string, number> = readSpecDocument(join(SPEC_DIR, 'requirements.yaml')).healthShared;
// a quiet requirement's latency sample is sent only with a latency budget, and comes on top (as in certify's budget)
const budget = Object.values(shared).reduce((a, b) => a + b, 0) + health.filter((r) => !r.quiet).reduce((n, r) => n + r.health!.requests, 0);

describe('the health profile', () => {
  it('sends at most 110 requests, by the catalogue', () => {
    expect(budget).toBeLessThanOrEqual(110);
  });

  it('sends the reference server no more than the catalogue declares, for each requirement and in all', async () => {
    const ref = await startReferenceServer({ apiKey: API_KEY, prefill: 30 });
    try {
      const sent = new Map<string, number>();
      const checks: Check[] = conformanceChecks().map(({ id, run }) => ({
        id,
        run: async (ctx) => {
          try {
            await run(ctx);
          } finally {
            sent.set(id, ctx.requestsSent);
          }
        },
      }));
      const report = await runConformance(referenceRun(ref, { profile: 'health', checks }));
      expect(violations(report)).toEqual([]);
      const over = health.filter((r) => (sent.get(r.id) ?? 0) > r.health!.requests).map((r) => `${r.id}: ${sent.get(r.id)} > ${r.health!.requests}`);
      expect(over).toEqual([]);
      expect(sent.size).toBeGreaterThan(40);
      expect(report.requestCount).toBeLessThanOrEqual(budget);
    } finally {
      await ref.close();
    }
  });
});
