// The suite catches every deliberate fault of the reference server on exactly the
// requirements the fault declares, no fewer and no more: a fault that breaks a MUST
// makes the verdict non-compliant (exit code 1); one that breaks only a SHOULD is
// reported as that SHOULD failing, and the verdict stays compliant (SHOULDs do not
// decide it). No requirement is left unjudged (error) but those the fault declares.
// The faults are dealt to a few test files (test/fault-matrix-*.test.ts), so that the
// workers share them; each file runs its part in one process, a few at a time.
import { afterAll, describe, expect, it } from 'vitest';
import { FAULT_NAMES, faultSpec, type FaultName } from '../../reference/faults.js';
import { loadCatalogue } from '../../harness/api/catalogue.js';
import { failedIds, judgeHar, recordOf } from './record.js';
import { dealt } from './limit.js';

/** Faults whose exchanges.har is judged too (`judge`), each with a requirement it breaks that a record can show. */
const JUDGED = new Map<FaultName, string>([
  ['no-auth-on-list', 'AUTH-MISSING-HEADER'],
  ['invalid-key-accepted', 'AUTH-INVALID-KEY'],
  ['list-envelope', 'LIST-OK'],
  ['error-without-code', 'ERR-BODY-SHAPE'],
  ['plain-text-errors', 'MEDIA-JSON'],
  ['error-status-mismatch', 'ERR-STATUS-MATCHES'],
  ['limit-off-by-one', 'LIST-LIMIT-MIN'],
  ['wrong-default', 'LIST-LIMIT-DEFAULT'],
  ['status-filter-mixed', 'LIST-STATUS-FILTER'],
  ['duplicate-ids', 'LIST-IDS-UNIQUE'],
  ['created-200', 'CREATE-OK'],
  ['status-changed', 'CREATE-ECHO'],
  ['name-uppercased', 'CREATE-VIEWS-AGREE'],
  ['refused-write-stored', 'CREATE-WRITES-ACCOUNTED'],
  ['get-wrong-animal', 'GET-OK'],
  ['get-invalid-id-500', 'STORE-NO-5XX'],
  ['qs-local-offset', 'QS-CREATED-AT-UTC'],
  ['qs-missing-id', 'QS-OK'],
]);

/** They mostly wait: a slow server; animals that never show, looked for through the window. */
const WAITING: FaultName[] = ['slow-responses', 'not-persisted'];

const LEVEL = new Map(loadCatalogue().map((r) => [r.id, r.level]));

/** Declares the tests of part `part` (from 1) of `parts`: every fault whose place in FAULT_NAMES is `part` modulo `parts`. */
export function faultMatrix(part: number, parts: number): void {
  const faults = dealt(FAULT_NAMES, part, parts, WAITING);
  const matrix: Array<{ fault: string; expected: string; caughtBy: string; exact: boolean }> = [];

  describe.concurrent(`fault matrix, part ${part} of ${parts}`, () => {
    it.each(faults)('%s is caught', async (fault) => {
      const { expect: expected, mayAlso = [], errors = [], prefill, maxLatencyMs, seed, variants } = faultSpec(fault);
      // the reference server shows every write at once, so a short consistency window loses
      // nothing here and spares the faults that hide animals the default 5 s wait
      const judgedOn = JUDGED.get(fault);
      const {
        run: report,
        har,
        target,
      } = await recordOf(
        { faults: [fault], prefill, variants: variants && [...variants] },
        { maxLatencyMs, seed, consistencyWindowMs: 500 },
        judgedOn !== undefined,
      );
      const ids = (outcome: string) =>
        report.requirements
          .filter((r) => r.outcome === outcome)
          .map((r) => r.id)
          .sort();
      const failed = ids('failed');
      const judged = failed.filter((id) => !mayAlso.includes(id));
      const exact = judged.join(' ') === [...expected].sort().join(' ');
      matrix.push({ fault, expected: expected.join(' '), caughtBy: failed.join(' ') || '(nothing)', exact });
      const messages = report.requirements.filter((r) => r.outcome === 'failed' || r.outcome === 'error').map((r) => `${r.id}: ${r.message}`);
      expect(judged, messages.join('\n')).toEqual([...expected].sort());
      expect(ids('error'), messages.join('\n')).toEqual([...errors].sort());
      const breaksMust = expected.some((id) => LEVEL.get(id) === 'MUST');
      expect(report.verdict).toBe(breaksMust ? 'non-compliant' : 'compliant');
      expect(report.exitCode).toBe(breaksMust ? 1 : 0);
      // a broken server must never crash a check
      expect(report.requirements.filter((r) => r.message?.includes('check crashed')).map((r) => r.message)).toEqual([]);
      if (judgedOn) {
        // its record judged by `judge`: non-compliant on the same requirement
        const judged = await judgeHar(har, { baseUrl: target.baseUrl, quickstartBaseUrl: target.quickstartBaseUrl });
        expect(failedIds(judged)).toContain(judgedOn);
        expect(judged.verdict).toBe('non-compliant');
      }
    });
  });

  // that every requirement is the target of a fault is asserted in test/reference-server.test.ts

  afterAll(() => {
    const width = Math.max(...matrix.map((m) => m.fault.length));
    const rows = matrix
      .sort((a, b) => a.fault.localeCompare(b.fault))
      .map((m) => `${m.fault.padEnd(width)}  expected: ${m.expected}  | caught by: ${m.caughtBy}`);
    const exact = matrix.filter((m) => m.exact).length;
    console.log(`Fault matrix, part ${part} of ${parts}: ${exact}/${faults.length} faults caught on exactly their declared requirements\n${rows.join('\n')}`);
  });
}
