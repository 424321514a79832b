// Turns requirement results into the run report: counts, per-area verdicts, the
// run's verdict and exit code. Compliant means every MUST passed (or was
// inconclusive or skipped); a MUST that failed or could not be carried out is not,
// unless the known-deviations file lists it. --strict counts SHOULDs the same way.
import type { AreaReport, Counts, RequirementResult, RunReport, Verdict } from './types.js';
import { AREAS } from './catalogue.js';
import type { ReportBase } from './session.js';

/** Failed or could not be carried out, and not listed as an expected failure. */
export const isViolation = (r: RequirementResult) =>
  (r.outcome === 'failed' || r.outcome === 'error') && r.expectedFailure === undefined;

/** Listed as an expected failure, yet passed: its line in the file can go. */
export const listedButPassed = (r: RequirementResult) => r.expectedFailure !== undefined && r.outcome === 'passed';

/** Whether this result makes the run non-compliant: a violated MUST, or with --strict any violation. */
export const countsAgainstVerdict = (r: RequirementResult, strict: boolean) =>
  isViolation(r) && (r.level === 'MUST' || strict);

export function countResults(results: RequirementResult[]): Counts {
  const count = (outcome: RequirementResult['outcome']) => results.filter((r) => r.outcome === outcome).length;
  return {
    total: results.length,
    passed: count('passed'),
    failed: count('failed'),
    error: count('error'),
    skipped: count('skipped'),
    inconclusive: count('inconclusive'),
    mustViolations: results.filter((r) => r.level === 'MUST' && isViolation(r)).length,
    shouldViolations: results.filter((r) => r.level === 'SHOULD' && isViolation(r)).length,
  };
}

const verdictOf = (counts: Counts, strict: boolean): Verdict =>
  counts.mustViolations > 0 || (strict && counts.shouldViolations > 0) ? 'non-compliant' : 'compliant';

export function buildReport(base: ReportBase, results: RequirementResult[]): RunReport {
  const order = (r: RequirementResult) => (AREAS as readonly string[]).indexOf(r.area);
  const requirements = [...results].sort((a, b) => order(a) - order(b));
  const counts = countResults(requirements);
  const areas: AreaReport[] = AREAS
    .map((area) => requirements.filter((r) => r.area === area))
    .filter((list) => list.length > 0)
    .map((list) => {
      const areaCounts = countResults(list);
      return { area: list[0].area, verdict: base.abortReason ? 'aborted' : verdictOf(areaCounts, base.strict), counts: areaCounts };
    });
  const verdict: Verdict = base.abortReason ? 'aborted' : verdictOf(counts, base.strict);
  const exitCode = verdict === 'aborted' ? 2 : verdict === 'compliant' ? 0 : 1;
  return { ...base, verdict, exitCode, counts, areas, requirements };
}
