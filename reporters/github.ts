// GitHub Actions: the job summary, annotations, and the step's outputs (action.yml reads them).
import { randomUUID } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { RequirementResult, RunReport } from '../harness/model/types.js';
import { countedViolations, coverageText, coverageWarning, dataWarning, isUnjudged, verdictText } from '../harness/verdict/report.js';
import { anchorOf } from '../harness/api/catalogue.js';
import { baselineHeading, changeGroups } from '../harness/verdict/baseline.js';
import { plural } from '../harness/model/words.js';

export function githubSummary(report: RunReport, env: NodeJS.ProcessEnv = {}): string {
  // the example workflow runs in the suite's repository
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_SHA: sha } = env;
  const catalogue = server && repo && sha ? `${server}/${repo}/blob/${sha}/docs/requirements.md` : 'docs/requirements.md';
  const link = (id: string) => `[${id}](${catalogue}#${anchorOf(id)})`;
  const c = report.counts;
  const icon = report.verdict === 'compliant' ? '✅' : report.verdict === 'non-compliant' ? '❌' : '⚠️';
  const lines = [
    `## ${icon} Animal Store conformance: ${verdictText(report.verdict)} (${coverageText(report.coverage)})`,
    '',
    ...[coverageWarning(report), dataWarning(report)].filter(Boolean).flatMap((w) => [`> **Warning:** ${w}`, '']),
    `Target \`${report.target.baseUrl}\` (${report.target.environment}), profile \`${report.profile}\`, spec ${report.spec.version}, ${plural(report.requestCount, 'request')} in ${(report.durationMs / 1000).toFixed(1)} s.`,
    '',
    '| Passed | Failed | Error | Inconclusive | Skipped | MUST violations | SHOULD violations |',
    '|---|---|---|---|---|---|---|',
    `| ${c.passed} | ${c.failed} | ${c.error} | ${c.inconclusive} | ${c.skipped} | ${c.mustViolations} | ${c.shouldViolations} |`,
  ];
  if (report.abortReason) lines.push('', `The run could not be made: ${report.abortReason}`);
  if (report.incompleteReason) lines.push('', `The run is incomplete: ${report.incompleteReason}`);
  const failed = [...countedViolations(report), ...report.requirements.filter(isUnjudged)];
  if (failed.length) {
    lines.push('', '| Requirement | Level | Outcome | Message |', '|---|---|---|---|');
    for (const r of failed) {
      const message = (r.message ?? '').replace(/\|/g, '\\|').replace(/\s+/g, ' ').slice(0, 300);
      const outcome = r.outcome === 'error' ? 'could not be judged' : r.outcome;
      lines.push(`| ${link(r.id)} | ${r.level} | ${outcome} | ${message} |`);
    }
  }
  const since = report.sinceBaseline;
  if (since) {
    lines.push('', `### ${baselineHeading(since)}`, '');
    for (const { label, changes } of changeGroups(since)) {
      lines.push(`**${label}:**${changes.length ? '' : ' none'}`);
      for (const c of changes) lines.push(`- ${link(c.id)} (${c.level}) ${c.title.replace(/\s+/g, ' ')} — ${c.detail}`);
      lines.push('');
    }
    for (const note of since.notes) lines.push(`> Note: ${note}`);
  }
  return `${lines.join('\n')}\n`;
}

export function githubAnnotations(report: RunReport): string[] {
  const escape = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const escapeProperty = (s: string) => escape(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
  const line = (r: RequirementResult, command: string, title: string) =>
    `::${command} title=${escapeProperty(`${r.id} (${r.level})${title}`)}::${escape(`${r.title}: ${r.message ?? r.outcome}`)}`;
  return [
    ...countedViolations(report).map((r) => line(r, r.level === 'MUST' ? 'error' : 'warning', '')),
    ...report.requirements.filter(isUnjudged).map((r) => line(r, 'warning', ' could not be judged')),
  ];
}

/** GITHUB_OUTPUT's form: name=value, or a delimited block for a value with a line break. */
function githubOutput([name, value]: [string, string]) {
  if (!/[\r\n]/.test(value)) return `${name}=${value}\n`;
  const delimiter = `EOF_${randomUUID()}`;
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}

/** Each through redact: no key reaches GitHub. */
export async function reportToGithub(report: RunReport, env: NodeJS.ProcessEnv, redact: (text: string) => string, reportDir: string): Promise<void> {
  if (env.GITHUB_STEP_SUMMARY) await appendFile(env.GITHUB_STEP_SUMMARY, redact(githubSummary(report, env)));
  const outputs = Object.entries({ verdict: report.verdict, 'report-dir': resolve(reportDir) }).map(githubOutput);
  if (env.GITHUB_OUTPUT) await appendFile(env.GITHUB_OUTPUT, redact(outputs.join('')));
  if (env.GITHUB_ACTIONS) for (const line of githubAnnotations(report)) process.stdout.write(`${redact(line)}\n`);
}
