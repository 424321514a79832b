// The suite catches every deliberate fault of the reference server on the
// requirement the fault declares: a fault that breaks a MUST makes the verdict
// non-compliant (exit code 1); one that breaks only a SHOULD is reported as that
// SHOULD failing, and the verdict stays compliant (SHOULDs do not decide it).
// All faults run in this one process, a few at a time.
import { afterAll, describe, expect, it } from 'vitest';
import { FAULT_NAMES, faultSpec } from '../reference/faults.js';
import { loadCatalogue } from '../harness/api/catalogue.js';

const LEVEL = new Map(loadCatalogue().map((r) => [r.id, r.level]));
import { certifyReference } from './support/run.js';

const matrix: Array<{ fault: string; expected: string; caughtBy: string }> = [];

describe.concurrent('fault matrix', () => {
  it.each(FAULT_NAMES)('%s is caught', async (fault) => {
    const { expect: expected, prefill, maxLatencyMs, seed, variants } = faultSpec(fault);
    // the reference server shows every write at once, so a short consistency window loses
    // nothing here and spares the faults that hide animals the default 5 s wait
    const report = await certifyReference({ faults: [fault], prefill, variants: variants && [...variants] }, { maxLatencyMs, seed, consistencyWindowMs: 500 });
    const failed = report.requirements.filter((r) => r.outcome === 'failed').map((r) => r.id);
    matrix.push({ fault, expected: expected.join(' '), caughtBy: failed.join(' ') || '(nothing)' });
    expect(failed).toEqual(expect.arrayContaining([...expected]));
    const breaksMust = expected.some((id) => LEVEL.get(id) === 'MUST');
    expect(report.verdict).toBe(breaksMust ? 'non-compliant' : 'compliant');
    expect(report.exitCode).toBe(breaksMust ? 1 : 0);
    // a broken server must never crash a check
    expect(report.requirements.filter((r) => r.message?.includes('check crashed')).map((r) => r.message)).toEqual([]);
  });
});

// that every requirement is the target of a fault is asserted in test/reference-server.test.ts

afterAll(() => {
  const width = Math.max(...matrix.map((m) => m.fault.length));
  const rows = matrix
    .sort((a, b) => a.fault.localeCompare(b.fault))
    .map((m) => `${m.fault.padEnd(width)}  expected: ${m.expected}  | caught by: ${m.caughtBy}`);
  const caught = matrix.filter((m) => m.expected.split(' ').every((id) => m.caughtBy.split(' ').includes(id))).length;
  console.log(`Fault matrix: ${caught}/${FAULT_NAMES.length} faults caught on their declared requirement\n${rows.join('\n')}`);
});
