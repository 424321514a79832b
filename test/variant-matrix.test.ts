// Servers that take another reasonable reading where the description is silent are
// judged compliant, with no requirement failed at all but the SHOULDs a variant's
// entry names (reference/variants.ts), on the date its entry gives.
import { describe, expect, it } from 'vitest';
import { VARIANT_NAMES, VARIANT_SPECS } from '../reference/variants.js';
import { certifyReference, violations } from './support/run.js';

const failedIds = (report: Awaited<ReturnType<typeof certifyReference>>) =>
  violations(report)
    .map((v) => v.split(':')[0])
    .sort();

describe.concurrent('allowed variants', () => {
  it.each(VARIANT_NAMES)('%s is compliant', async (variant) => {
    const { shouldFail = [], now, apiKey } = VARIANT_SPECS[variant] ?? {};
    const report = await certifyReference({ variants: [variant], apiKey }, now ? { now: new Date(now) } : {});
    expect(failedIds(report), violations(report).join('\n')).toEqual([...shouldFail].sort());
    expect(report.verdict).toBe('compliant');
  });

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
