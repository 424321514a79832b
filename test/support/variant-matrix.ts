// Servers that take another reasonable reading where the description is silent are
// judged compliant, with no requirement failed at all but the SHOULDs a variant's
// entry names (reference/variants.ts), on the date its entry gives. The variants are
// dealt to two test files (test/variant-matrix-*.test.ts), so that the workers share them.
import { describe, expect, it } from 'vitest';
import { VARIANT_NAMES, VARIANT_SPECS } from '../../reference/variants.js';
import { certifyReference, violations } from './run.js';

export const failedIds = (report: Awaited<ReturnType<typeof certifyReference>>) =>
  violations(report)
    .map((v) => v.split(':')[0])
    .sort();

/** Declares the tests of part `part` (from 1) of `parts`: each variant whose place in VARIANT_NAMES is `part` modulo `parts`, alone. */
export function variantMatrix(part: number, parts: number): void {
  const variants = VARIANT_NAMES.filter((_, i) => i % parts === part - 1);
  describe.concurrent(`allowed variants, part ${part} of ${parts}`, () => {
    it.each(variants)('%s is compliant', async (variant) => {
      const { shouldFail = [], now, apiKey } = VARIANT_SPECS[variant] ?? {};
      const report = await certifyReference({ variants: [variant], apiKey }, now ? { now: new Date(now) } : {});
      expect(failedIds(report), violations(report).join('\n')).toEqual([...shouldFail].sort());
      expect(report.verdict).toBe('compliant');
    });
  });
}
