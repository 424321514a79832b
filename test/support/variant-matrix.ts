// Servers that take another reasonable reading where the description is silent are
// judged compliant, with no requirement failed at all but the SHOULDs a variant's
// entry names (reference/variants.ts), on the date its entry gives. The variants are
// dealt to two test files (test/variant-matrix-*.test.ts), so that the workers share them.
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../harness/model/types.js';
import { VARIANT_NAMES, VARIANT_SPECS, type VariantName } from '../../reference/variants.js';
import { violations } from './run.js';
import { judgeHar, recordOf } from './record.js';
import { dealt } from './limit.js';

export const failedIds = (report: RunReport) =>
  violations(report)
    .map((v) => v.split(':')[0])
    .sort();

/** They mostly wait: animals that show 1.5 s late. */
const WAITING: VariantName[] = ['lagging-list', 'lagging-reads'];

/** Declares the tests of part `part` (from 1) of `parts`: each variant whose place in VARIANT_NAMES is `part` modulo `parts`, alone. */
export function variantMatrix(part: number, parts: number): void {
  const variants = dealt(VARIANT_NAMES, part, parts, WAITING);
  describe.concurrent(`allowed variants, part ${part} of ${parts}`, () => {
    // and its record (exchanges.har) judged (judge): nothing the run did not find fails
    it.each(variants)('%s is compliant, its record too', async (variant) => {
      const { shouldFail = [], now, apiKey } = VARIANT_SPECS[variant] ?? {};
      const overrides = now ? { now: new Date(now) } : {};
      const { har, run: report, target } = await recordOf({ variants: [variant], apiKey }, overrides);
      expect(failedIds(report), violations(report).join('\n')).toEqual([...shouldFail].sort());
      expect(report.verdict).toBe('compliant');
      const judged = await judgeHar(har, { baseUrl: target.baseUrl, quickstartBaseUrl: target.quickstartBaseUrl }, overrides);
      expect(failedIds(judged), violations(judged).join('\n')).toEqual(failedIds(judged).filter((id) => failedIds(report).includes(id)));
      expect(judged.verdict).toBe('compliant');
    });
  });
}
