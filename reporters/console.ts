// The console report: a line per requirement as it completes (the CLI), and the summary.
import type { RequirementResult, RunReport, SinceBaseline } from '../harness/model/types.js';
import { baselineHeading, changeGroups } from '../harness/verdict/baseline.js';
import { plural } from '../harness/model/words.js';
import {
  countedViolations,
  coverageText,
  coverageWarning,
  dataWarning,
  failedAsExpected,
  isUnjudged,
  cutShortBy,
  verdictText,
} from '../harness/verdict/report.js';

const MARK: Record<RequirementResult['outcome'], string> = {
  passed: 'PASS',
  failed: 'FAIL',
  error: 'ERROR',
  skipped: 'SKIP',
  inconclusive: 'INCONCLUSIVE',
};

const markOf = (r: RequirementResult) => (failedAsExpected(r) && r.outcome === 'failed' ? 'XFAIL' : MARK[r.outcome]);

const OUTCOMES = ['passed', 'failed', 'error', 'inconclusive', 'skipped'] as const;

const resultLine = (r: RequirementResult, indent: string) => `${indent}${markOf(r).padEnd(12)} ${r.id.padEnd(26)} ${r.level.padEnd(6)} ${r.title}`;

export function formatProgress(r: RequirementResult): string {
  const line = resultLine(r, '  ');
  return r.outcome === 'passed' || !r.message ? line : `${line}\n${' '.repeat(16)}${r.message}`;
}

function listingByArea(report: RunReport) {
  const lines = ['Results by area:'];
  for (const area of report.areas) {
    const c = area.counts;
    const tally = OUTCOMES.filter((o) => c[o]).map((o) => `${c[o]} ${o}`);
    lines.push(`  ${area.area}: ${verdictText(area.verdict)} (${tally.join(', ')})`);
    for (const r of report.requirements.filter((r) => r.area === area.area)) lines.push(resultLine(r, '    '));
  }
  return lines;
}

function formatSinceBaseline(s: SinceBaseline) {
  const lines = [`${baselineHeading(s)}:`];
  const groups = changeGroups(s);
  for (const { label, changes } of groups) {
    if (changes.length) lines.push(`  ${label}:`, ...changes.map((c) => `    ${c.id} (${c.level}) ${c.title} — ${c.detail}`));
  }
  if (groups.every((g) => !g.changes.length)) lines.push('  Nothing newly fails, recovered or still fails.');
  for (const note of s.notes) lines.push(`  Note: ${note}`);
  return lines;
}

const p95 = ([op, s]: [string, RunReport['latency'][string]]) => `${op} ${s.p95} ms`;
const p95s = (latency: RunReport['latency']) => Object.entries(latency).map(p95).join(', ');

/** What became of a listed known deviation. */
const EXPECTED_NOW: Record<string, string> = { passed: 'now passed: remove it from the list', failed: 'still failed', error: 'could not be judged' };

export function formatSummary(report: RunReport, reportPaths: string[]): string {
  if (report.abortReason) return `The run could not be made: ${report.abortReason} (exit code 2; reports: ${reportPaths.join(', ')})`;
  const c = report.counts;
  const lines = [
    '',
    ...listingByArea(report),
    '',
    `Verdict: ${verdictText(report.verdict).toUpperCase()} (${coverageText(report.coverage)}; exit code ${report.exitCode})`,
    ...(report.incompleteReason ? [`Incomplete: ${report.incompleteReason}`] : []),
    ...[coverageWarning(report), dataWarning(report)].filter(Boolean).map((w) => `Warning: ${w}`),
    `Target: ${report.target.baseUrl} (${report.target.environment}${report.target.deployment ? `, deployment ${report.target.deployment}` : ''}), profile ${report.profile}, spec ${report.spec.version}`,
    `Requirements: ${c.total} — ${OUTCOMES.map((o) => `${c[o]} ${o}`).join(', ')}` +
      ` (MUST violations: ${c.mustViolations}, SHOULD violations: ${c.shouldViolations})`,
    `Requests: ${report.requestCount}${report.retries ? ` (${plural(report.retries, 'retry', 'retries')})` : ''} in ${(report.durationMs / 1000).toFixed(2)} s` +
      (report.rateLimited ? `; ${report.rateLimited} rate-limited (429, or 503 with Retry-After: waited out and sent again)` : '') +
      (report.seed !== undefined ? `; values drawn with --seed ${report.seed}` : ''),
    `Areas: ${report.areas.map((a) => `${a.area} ${verdictText(a.verdict)}`).join(', ')}`,
    `Latency p95${report.latencyQuiet ? " under the run's load" : ''}: ${p95s(report.latency) || '(no responses)'}`,
    ...(report.latencyQuiet ? [`Latency p95 one request at a time: ${p95s(report.latencyQuiet)}`] : []),
  ];
  if (report.strict) lines.push('Strict: SHOULD failures count against the verdict.');
  if (report.profile === 'certify' && report.runPrefix && report.animalsCreated !== undefined) {
    lines.push(`Animals created by this run (${report.animalsCreated}) are named ${report.runPrefix}-… (the API has no delete: filter by this prefix)`);
  }
  if (report.sinceBaseline) lines.push('', ...formatSinceBaseline(report.sinceBaseline));
  const section = <T>(heading: string, items: T[], linesOf: (item: T) => string[]) => items.length && lines.push('', heading, ...items.flatMap(linesOf));
  const listed = report.requirements.filter((r) => r.expectedFailure !== undefined);
  section('Expected failures (not counted):', listed, (r) => [`  ${r.id} (${EXPECTED_NOW[r.outcome] ?? r.outcome}) — ${r.expectedFailure}`]);
  const skippedBy = new Map<string, string[]>();
  for (const r of report.requirements.filter((r) => r.outcome === 'skipped')) {
    skippedBy.set(r.message ?? '', [...(skippedBy.get(r.message ?? '') ?? []), r.id]);
  }
  section('Skipped:', [...skippedBy], ([reason, ids]) => [`  ${ids.length} — ${reason}: ${ids.join(', ')}`]);
  section('Violations (the curl lines need API_KEY, and QUICKSTART_API_KEY if set, in your shell):', countedViolations(report), (r) => [
    `  FAIL ${r.id} (${r.level}) ${r.title}${r.followsFrom ? ` (follows from ${r.followsFrom})` : ''}`,
    `       ${r.message}`,
    ...(r.evidence[0] ? [`       ${r.evidence[0].curl}`] : []),
  ]);
  section('Could not be judged (no answer could be observed: not a violation):', report.requirements.filter(isUnjudged), (r) => [
    `  ERROR ${r.id} (${r.level}) ${r.title}`,
    `       ${r.message}`,
  ]);
  lines.push('', `Reports: ${reportPaths.join(', ')}`);
  return lines.join('\n');
}

export function interruptedSummary(report: RunReport, paths: string[], exitCode: number): string {
  const reason = report.abortReason!;
  const cut = (r: RequirementResult) => cutShortBy(r, reason);
  const left = report.requirements.filter(cut).length;
  const skipped = report.requirements.filter((r) => r.outcome === 'skipped' && !cut(r)).length;
  const meant = report.requirements.length - skipped;
  const failed = report.counts.failed;
  return (
    `${reason[0].toUpperCase()}${reason.slice(1)}: ${meant - left} of the ${plural(meant, 'requirement')} this run carries out finished before it (${failed} failed, not counted),` +
    ` ${left} not carried out; ${skipped} skipped by the selection, the profile or the configuration (exit code ${exitCode}; reports: ${paths.join(', ')})`
  );
}
