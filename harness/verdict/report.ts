// The run report over the results. What the run could not observe is never a violation. First match wins:
//   aborted        the run could not be made, or stopped (abortReason)
//   non-compliant  a MUST failed (with --strict, a SHOULD too), unless listed as a known deviation
//   incomplete     a MUST could not be judged (with --strict, a SHOULD too)
//   not-tested     nothing was judged
//   compliant      otherwise
// Exit codes: compliant 0, non-compliant 1, the others 2: they say nothing final about the server.
import type { AreaReport, Counts, Coverage, Requirement, RequirementResult, RunReport, Verdict } from '../model/types.js';
import { AREAS } from '../api/catalogue.js';
import { TOOL } from '../model/tool.js';
import { plural } from '../model/words.js';

export type ReportBase = Omit<RunReport, 'verdict' | 'exitCode' | 'incompleteReason' | 'coverage' | 'counts' | 'areas' | 'requirements' | 'sinceBaseline'>;

export const isViolation = (r: RequirementResult) => r.outcome === 'failed' && r.expectedFailure === undefined;
export const isUnjudged = (r: RequirementResult) => r.outcome === 'error' && r.expectedFailure === undefined;
export const failedAsExpected = (r: RequirementResult) => r.expectedFailure !== undefined && (r.outcome === 'failed' || r.outcome === 'error');

/** Its line in the expected-failures file can go. */
export const listedButPassed = (r: RequirementResult) => r.expectedFailure !== undefined && r.outcome === 'passed';
export const listedButPassedNote = (r: RequirementResult) =>
  `listed as an expected failure (${r.expectedFailure}) but passed: remove it from the expected-failures file`;

const decides = (r: RequirementResult, strict: boolean) => r.level === 'MUST' || strict;
export const countsAgainstVerdict = (r: RequirementResult, strict: boolean) => isViolation(r) && decides(r, strict);

/** Keeps the run from being compliant without blaming the server. */
export const leavesIncomplete = (r: RequirementResult, strict: boolean) => isUnjudged(r) && decides(r, strict);

/** None in an aborted run: it was not carried out to the end. */
export const countedViolations = (report: Pick<RunReport, 'abortReason' | 'requirements'>) =>
  report.abortReason !== undefined ? [] : report.requirements.filter(isViolation);

export function countResults(results: RequirementResult[], aborted = false): Counts {
  const counts = { total: results.length, passed: 0, failed: 0, error: 0, skipped: 0, inconclusive: 0, mustViolations: 0, shouldViolations: 0 };
  for (const r of results) {
    counts[r.outcome]++;
    if (!aborted && isViolation(r)) counts[r.level === 'MUST' ? 'mustViolations' : 'shouldViolations']++;
  }
  return counts;
}

/** 12 ms, 1.5 s, 3 min 4 s, 1 h 2 min. */
export function formatDuration(ms: number) {
  const v = Number.isFinite(ms) ? Math.max(0, ms) : 0;
  if (v < 1000) return `${Math.round(v)} ms`;
  if (v < 60_000) return `${(v / 1000).toFixed(1)} s`;
  const minutes = Math.floor(v / 60_000);
  return minutes < 60 ? `${minutes} min ${Math.round((v % 60_000) / 1000)} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export const verdictText = (v: Verdict) => (v === 'not-tested' ? 'not tested' : v);

function coverageOf(c: Counts): Coverage {
  return { judged: c.passed + c.failed, total: c.total, error: c.error, skipped: c.skipped, inconclusive: c.inconclusive };
}

/** "40 of 55 requirements judged; 3 could not be judged, 12 skipped". */
export function coverageText(c: Coverage) {
  const parts = [c.error && `${c.error} could not be judged`, c.skipped && `${c.skipped} skipped`, c.inconclusive && `${c.inconclusive} inconclusive`];
  const rest = parts.filter(Boolean);
  return `${c.judged} of ${c.total} requirements judged${rest.length ? `; ${rest.join(', ')}` : ''}`;
}

/** An aborted run says why instead. */
export function coverageWarning(report: Pick<RunReport, 'verdict' | 'coverage' | 'configError'>): string | undefined {
  const c = report.coverage;
  if (report.verdict === 'aborted') return undefined;
  if (report.configError !== undefined) return `the run could not start: ${report.configError}`;
  if (report.verdict === 'not-tested')
    return `no requirement was judged (${coverageText(c)}): this run says nothing about the server; see why they were skipped (ONLY, SKIP, PROFILE, QUICKSTART_BASE_URL)`;
  if (c.judged * 2 < c.total) return `only ${c.judged} of ${c.total} requirements were judged: this verdict covers those only`;
  return undefined;
}

export const writesAcceptedCount = (report: Pick<RunReport, 'writesAccepted'>) => Object.values(report.writesAccepted ?? {}).reduce((a, b) => a + b, 0);

/** A health run sends only what a conforming server refuses or reads. */
export function dataWarning(report: Pick<RunReport, 'profile' | 'writesAccepted' | 'runPrefix'>): string | undefined {
  const n = writesAcceptedCount(report);
  if (report.profile !== 'health' || n === 0) return undefined;
  const which = Object.entries(report.writesAccepted!).map(([what, count]) => `${what} ×${count}`);
  return (
    `this read-only health run changed the server: ${n} write${n === 1 ? ' was' : 's were'} accepted (${which.join(', ')}), ` +
    `where a conforming server refuses every write health sends${report.runPrefix ? ` (the names the run sends start with ${report.runPrefix})` : ''}`
  );
}

function verdictOf(results: RequirementResult[], strict: boolean) {
  if (results.some((r) => countsAgainstVerdict(r, strict))) return 'non-compliant';
  if (results.some((r) => leavesIncomplete(r, strict))) return 'incomplete';
  return results.some((r) => r.outcome === 'passed' || r.outcome === 'failed') ? 'compliant' : 'not-tested';
}

/** The most common cause, or every service the run could not reach. */
function incompleteReasonOf(results: RequirementResult[], strict: boolean, unreachable: string[] = []) {
  const unjudged = results.filter((r) => leavesIncomplete(r, strict));
  const must = unjudged.filter((r) => r.level === 'MUST').length;
  const should = unjudged.length - must;
  const who = should === 0 ? plural(must, 'MUST requirement') : `${must} MUST and ${should} SHOULD requirements`;
  const byCause = new Map<string, number>();
  for (const r of unjudged) {
    const cause = r.cause ?? r.message ?? 'no reason given';
    byCause.set(cause, (byCause.get(cause) ?? 0) + 1);
  }
  const causes = unreachable.length > 0 ? unreachable : [[...byCause].sort((a, b) => b[1] - a[1])[0][0]];
  const others = unjudged.length - causes.reduce((n, cause) => n + (byCause.get(cause) ?? 0), 0);
  return `${who} could not be judged: ${causes.join('; ')}${others ? ` (${others} for other causes: see the report)` : ''}`;
}

export const notCarriedOut = (reason: string) => `not carried out: ${reason}`;
export const notRun = (reason: string) => `not run: ${reason}`;
export const cutShortBy = (r: { message?: string }, reason: string) => r.message === notCarriedOut(reason);
export const leftUnjudgedBy = (r: { message?: string }, reason: string) => cutShortBy(r, reason) || r.message === notRun(reason);

export const describing = ({ id, level, area, operation, title, source }: Requirement) => ({ id, level, area, operation, title, source });

export function skippedResult(r: Requirement, message: string): RequirementResult {
  return { ...describing(r), outcome: 'skipped', message, notes: [], durationMs: 0, evidence: [] };
}

export function refusedRunReport(reason: string, settings: Pick<ReportBase, 'profile' | 'strict' | 'target' | 'spec'>, catalogue: Requirement[]): RunReport {
  const now = new Date().toISOString();
  const { spec, target, profile, strict } = settings;
  const run = { tool: TOOL, spec, target, profile, strict, startedAt: now, finishedAt: now, durationMs: 0, configError: reason };
  const results = catalogue.map((r) => skippedResult(r, notRun(reason)));
  return buildReport({ ...run, requestCount: 0, retries: 0, rateLimited: 0, latency: {} }, results);
}

/** Read from the text: an id may be no int64, or a string. */
const idsIn = (body: string | undefined) => new Set([...(body ?? '').matchAll(/"id"\s*:\s*("?)(-?\d+)\1/g)].map((m) => m[2]));

/** Listed after its cause: a failure on animals whose creation got no valid Pet. */
function rootCauses(results: RequirementResult[]) {
  const failed = results.filter((r) => r.outcome === 'failed');
  const causes = failed
    .filter((r) => r.area === 'create' && /not a valid Pet\b/.test(r.message ?? ''))
    .map((r) => ({ id: r.id, animals: new Set(r.evidence.filter((e) => e.request.method === 'POST').flatMap((e) => [...idsIn(e.response?.body)])) }));
  if (causes.length === 0) return results;
  for (const r of failed.filter((f) => f.area !== 'create' && /not a valid Pets?\b/.test(f.message ?? ''))) {
    const shown = r.evidence.flatMap((e) => [...idsIn(e.response?.body)]);
    const cause = causes.find((c) => shown.some((id) => c.animals.has(id)));
    if (cause) r.followsFrom = cause.id;
  }
  const rank = new Map(results.map((r, i) => [r.id, i]));
  const at = (r: RequirementResult) => (r.followsFrom ? rank.get(r.followsFrom)! + 0.5 : rank.get(r.id)!);
  return [...results].sort((a, b) => at(a) - at(b));
}

/** What base holds of a report (the Vitest view passes one) is computed anew. */
export function buildReport(base: ReportBase, results: RequirementResult[]): RunReport {
  const { incompleteReason, ...figures } = base as ReportBase & Partial<RunReport>;
  const order = (r: RequirementResult) => (AREAS as readonly string[]).indexOf(r.area);
  const requirements = rootCauses([...results].sort((a, b) => order(a) - order(b)));
  const aborted = figures.abortReason !== undefined;
  const counts = countResults(requirements, aborted);
  const areas: AreaReport[] = AREAS.map((area) => requirements.filter((r) => r.area === area))
    .filter((list) => list.length > 0)
    .map((list) => ({ area: list[0].area, verdict: aborted ? 'aborted' : verdictOf(list, figures.strict), counts: countResults(list, aborted) }));
  const verdict: Verdict = aborted ? 'aborted' : verdictOf(requirements, figures.strict);
  const exitCode = verdict === 'compliant' ? 0 : verdict === 'non-compliant' ? 1 : 2;
  return {
    ...figures,
    verdict,
    exitCode,
    ...(verdict === 'incomplete' && { incompleteReason: incompleteReasonOf(requirements, figures.strict, figures.unreachable) }),
    coverage: coverageOf(counts),
    counts,
    areas,
    requirements,
  };
}
