// Turns requirement results into the run report: counts, coverage, per-area
// verdicts, the run's verdict and exit code. Compliant means every MUST passed (or
// was inconclusive or skipped); a MUST that failed or could not be carried out is
// not, unless the known-deviations file lists it. --strict counts SHOULDs the same
// way. A run (or area) that judged nothing is not-tested, never compliant: the
// run's exit code is then 2, as for a run that could not be made, because it says
// nothing about the server (1 would blame the server, 0 would let CI go green on nothing).
import type { AreaReport, Counts, Coverage, Requirement, RequirementResult, RunReport, Verdict } from '../model/types.js';
import { AREAS } from '../api/catalogue.js';
import type { ReportBase } from './session.js';

/** Failed or could not be carried out, and not listed as an expected failure. */
export const isViolation = (r: RequirementResult) => (r.outcome === 'failed' || r.outcome === 'error') && r.expectedFailure === undefined;

/** Listed as an expected failure, yet passed: its line in the file can go. */
export const listedButPassed = (r: RequirementResult) => r.expectedFailure !== undefined && r.outcome === 'passed';

/** Whether this result makes the run non-compliant: a violated MUST, or with --strict any violation. */
export const countsAgainstVerdict = (r: RequirementResult, strict: boolean) => isViolation(r) && (r.level === 'MUST' || strict);

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

/** A duration for people: 12 ms, 1.5 s, 3 min 4 s, 1 h 2 min (a value that is no number reads 0 ms). */
export function formatDuration(ms: number): string {
  const v = Number.isFinite(ms) ? Math.max(0, ms) : 0;
  if (v < 1000) return `${Math.round(v)} ms`;
  if (v < 60_000) return `${(v / 1000).toFixed(1)} s`;
  const minutes = Math.floor(v / 60_000);
  return minutes < 60 ? `${minutes} min ${Math.round((v % 60_000) / 1000)} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A verdict as words: "not tested" rather than its id. */
export const verdictText = (v: Verdict) => (v === 'not-tested' ? 'not tested' : v);

/** Judged: passed, failed or error (see Coverage); counts of skipped and inconclusive aside. */
export function coverageOf(c: Counts): Coverage {
  return { judged: c.passed + c.failed + c.error, total: c.total, skipped: c.skipped, inconclusive: c.inconclusive };
}

/** "3 of 45 requirements judged; 42 skipped": the wording every output gives the coverage. */
export function coverageText(c: Coverage): string {
  const rest = [c.skipped && `${c.skipped} skipped`, c.inconclusive && `${c.inconclusive} inconclusive`].filter(Boolean);
  return `${c.judged} of ${c.total} requirements judged${rest.length ? `; ${rest.join(', ')}` : ''}`;
}

/** What the outputs warn about when the verdict rests on little or nothing (an aborted run says why instead). */
export function coverageWarning(report: Pick<RunReport, 'verdict' | 'coverage'>): string | undefined {
  const c = report.coverage;
  if (report.verdict === 'aborted') return undefined;
  if (report.verdict === 'not-tested') {
    return `no requirement was judged (${coverageText(c)}): this run says nothing about the server; see why they were skipped (ONLY, SKIP, PROFILE, QUICKSTART_BASE_URL)`;
  }
  if (c.judged * 2 < c.total) return `only ${c.judged} of ${c.total} requirements were judged: this verdict covers those only`;
  return undefined;
}

function verdictOf(counts: Counts, strict: boolean): Verdict {
  if (coverageOf(counts).judged === 0) return 'not-tested';
  return counts.mustViolations > 0 || (strict && counts.shouldViolations > 0) ? 'non-compliant' : 'compliant';
}

/** The result of a requirement the run does not carry out. */
export function skippedResult(r: Requirement, message: string): RequirementResult {
  return {
    id: r.id,
    level: r.level,
    area: r.area,
    operation: r.operation,
    title: r.title,
    source: r.source,
    outcome: 'skipped',
    message,
    notes: [],
    durationMs: 0,
    evidence: [],
  };
}

export function buildReport(base: ReportBase, results: RequirementResult[]): RunReport {
  const order = (r: RequirementResult) => (AREAS as readonly string[]).indexOf(r.area);
  const requirements = [...results].sort((a, b) => order(a) - order(b));
  const counts = countResults(requirements);
  const areas: AreaReport[] = AREAS.map((area) => requirements.filter((r) => r.area === area))
    .filter((list) => list.length > 0)
    .map((list) => {
      const areaCounts = countResults(list);
      return { area: list[0].area, verdict: base.abortReason ? 'aborted' : verdictOf(areaCounts, base.strict), counts: areaCounts };
    });
  const verdict: Verdict = base.abortReason ? 'aborted' : verdictOf(counts, base.strict);
  const exitCode = verdict === 'compliant' ? 0 : verdict === 'non-compliant' ? 1 : 2;
  return { ...base, verdict, exitCode, coverage: coverageOf(counts), counts, areas, requirements };
}
