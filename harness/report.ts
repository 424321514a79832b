// Turns requirement results into the run report: counts, per-area verdicts, the
// run's verdict and exit code. Compliant means every MUST passed (or was
// inconclusive or skipped); a MUST that failed or could not be carried out is not.
import type { AreaReport, Counts, RequirementResult, RunReport, Verdict } from './types.js';
import { AREAS } from './catalogue.js';

export function countResults(results: RequirementResult[]): Counts {
  const violated = (r: RequirementResult) => r.outcome === 'failed' || r.outcome === 'error';
  return {
    total: results.length,
    passed: results.filter((r) => r.outcome === 'passed').length,
    failed: results.filter((r) => r.outcome === 'failed').length,
    error: results.filter((r) => r.outcome === 'error').length,
    skipped: results.filter((r) => r.outcome === 'skipped').length,
    inconclusive: results.filter((r) => r.outcome === 'inconclusive').length,
    mustViolations: results.filter((r) => r.level === 'MUST' && violated(r)).length,
    shouldViolations: results.filter((r) => r.level === 'SHOULD' && violated(r)).length,
  };
}

const verdictOf = (counts: Counts): Verdict => (counts.mustViolations > 0 ? 'non-compliant' : 'compliant');

export function buildReport(
  base: Omit<RunReport, 'verdict' | 'exitCode' | 'counts' | 'areas' | 'requirements'>,
  results: RequirementResult[],
): RunReport {
  const order = (r: RequirementResult) => (AREAS as readonly string[]).indexOf(r.area);
  const requirements = [...results].sort((a, b) => order(a) - order(b));
  const counts = countResults(requirements);
  const areas: AreaReport[] = AREAS
    .map((area) => requirements.filter((r) => r.area === area))
    .filter((list) => list.length > 0)
    .map((list) => {
      const areaCounts = countResults(list);
      return { area: list[0].area, verdict: base.abortReason ? 'aborted' : verdictOf(areaCounts), counts: areaCounts };
    });
  const verdict: Verdict = base.abortReason ? 'aborted' : verdictOf(counts);
  const exitCode = verdict === 'aborted' ? 2 : verdict === 'compliant' ? 0 : 1;
  return { ...base, verdict, exitCode, counts, areas, requirements };
}
