// The variant matrix (test/support/variant-matrix.ts), part 1 of 2, and the runs of
// several variants at once; part 2 is a file of its own, so that the two run in two
// workers at once.
import { describe, expect, it } from 'vitest';
import { VARIANT_NAMES, VARIANT_SPECS } from '../reference/variants.js';
import { certifyReference, violations } from './support/run.js';
import { failedIds, variantMatrix } from './support/variant-matrix.js';

variantMatrix(1, 2);

describe.concurrent('allowed variants together', () => {
  // two allowed choices at once: a lookup before the key, and reads that lag the writes
  it('lookup-before-auth with lagging-reads is compliant: the auth probes use an animal getPet already shows', async () => {
    const report = await certifyReference({ variants: ['lookup-before-auth', 'lagging-reads'] });
    expect(failedIds(report), violations(report).join('\n')).toEqual(['AUTH-BEFORE-LOOKUP']);
  });

  it("all variants at once are compliant (those of today's date and the default key)", async () => {
    const today = VARIANT_NAMES.filter((v) => !VARIANT_SPECS[v]?.now && !VARIANT_SPECS[v]?.apiKey);
    const report = await certifyReference({ variants: today });
    const shouldFail = [...new Set(today.flatMap((v) => VARIANT_SPECS[v]?.shouldFail ?? []))].sort();
    expect(failedIds(report), violations(report).join('\n')).toEqual(shouldFail);
  });

  it.each(['certify', 'health'] as const)('a store pre-filled with 400 animals is compliant (%s), full status pages reported inconclusive', async (profile) => {
    const report = await certifyReference({ prefill: 400, variants: ['newest-first'] }, { profile });
    expect(violations(report)).toEqual([]);
    const complete = report.requirements.find((r) => r.id === 'LIST-STATUS-COMPLETE')!;
    expect(complete.outcome).toBe('inconclusive');
    expect(complete.message).toMatch(/full/);
  });
});
