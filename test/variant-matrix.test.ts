// Servers that take another reasonable reading where the description is silent are
// judged compliant, with no requirement failed at all (SHOULD included).
import { describe, expect, it } from 'vitest';
import { VARIANT_NAMES } from '../reference/variants.js';
import { certifyReference, violations } from './support/run.js';

describe.concurrent('allowed variants', () => {
  it.each(VARIANT_NAMES)('%s is compliant', async (variant) => {
    const report = await certifyReference({ variants: [variant] });
    expect(violations(report)).toEqual([]);
    expect(report.verdict).toBe('compliant');
  });

  it('all variants at once are compliant', async () => {
    const report = await certifyReference({ variants: [...VARIANT_NAMES] });
    expect(violations(report)).toEqual([]);
  });

  it.each(['certify', 'health'] as const)('a store pre-filled with 400 animals is compliant (%s), full status pages reported inconclusive', async (profile) => {
    const report = await certifyReference({ prefill: 400, variants: ['newest-first'] }, { profile });
    expect(violations(report)).toEqual([]);
    const complete = report.requirements.find((r) => r.id === 'LIST-STATUS-COMPLETE')!;
    expect(complete.outcome).toBe('inconclusive');
    expect(complete.message).toMatch(/full/);
  });
});
