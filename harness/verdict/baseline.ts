// --baseline: what changed since a previous compliance.json. A requirement this run could not judge keeps the
// failing state it had, so that a scheduled check handed "the last report, whatever it was" keeps its history.
import { readFile } from 'node:fs/promises';
import { ConfigError } from '../config/values.js';
import { countedViolations } from './report.js';
import type { BaselineChange, Outcome, RequirementResult, RunReport, SinceBaseline } from '../model/types.js';

export type Baseline = Pick<RunReport, 'tool' | 'spec' | 'target' | 'profile' | 'startedAt' | 'finishedAt' | 'verdict' | 'requirements' | 'abortReason'> & {
  sinceBaseline?: Pick<SinceBaseline, 'newlyFailing' | 'stillFailing'> & Partial<Pick<SinceBaseline, 'unjudged'>>;
};

const OUTCOMES: readonly Outcome[] = ['passed', 'failed', 'error', 'skipped', 'inconclusive'];

function notAReport(value: any) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const str = (v: unknown) => typeof v === 'string';
  if (!str(value.tool?.name) || !str(value.tool?.version)) return 'no tool name and version';
  if (!str(value.spec?.title) || !str(value.spec?.version)) return 'no spec title and version';
  if (!str(value.target?.baseUrl) || !str(value.profile)) return 'no target and profile';
  for (const key of ['startedAt', 'finishedAt']) if (!str(value[key]) || Number.isNaN(Date.parse(value[key]))) return `no ${key} time`;
  if (!str(value.verdict)) return 'no verdict';
  if (!Array.isArray(value.requirements)) return 'no requirements';
  const bad = value.requirements.findIndex((r: any) => !str(r?.id) || !str(r?.level) || !OUTCOMES.includes(r?.outcome));
  if (bad >= 0) return `requirements[${bad}] has no id, level or known outcome`;
  return undefined;
}

export async function readBaseline(file: string): Promise<Baseline> {
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new ConfigError(`cannot read the baseline ${file}: ${err.code ?? err.message}`);
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`the baseline ${file} is not valid JSON: ${(err as Error).message}`);
  }
  const problem = notAReport(value);
  if (problem) throw new ConfigError(`the baseline ${file} is not a compliance report (a compliance.json of an earlier run): ${problem}`);
  return value as Baseline;
}

function notesOn(report: RunReport, baseline: Baseline, compared: number) {
  const notes: string[] = [];
  if (baseline.tool.version !== report.tool.version || baseline.spec.version !== report.spec.version) {
    notes.push(
      `the baseline was written by ${baseline.tool.name} ${baseline.tool.version} for spec ${baseline.spec.version} ` +
        `(this run: ${report.tool.version}, spec ${report.spec.version}): compared where requirement ids match`,
    );
  }
  if (compared < report.requirements.length || compared < baseline.requirements.length) {
    notes.push(
      `${compared} requirements compared: ${report.requirements.length - compared} only in this run, ` +
        `${baseline.requirements.length - compared} only in the baseline`,
    );
  }
  if (baseline.target.baseUrl !== report.target.baseUrl) notes.push(`the baseline certified another address: ${baseline.target.baseUrl}`);
  if (baseline.profile !== report.profile) notes.push(`the baseline ran the ${baseline.profile} profile`);
  if (baseline.verdict === 'aborted' || baseline.verdict === 'not-tested') {
    const carried = baseline.sinceBaseline?.unjudged?.length ?? 0;
    notes.push(
      `the baseline run judged nothing (${baseline.verdict}): ` +
        (carried
          ? `compared with the failing state it carried from the runs before it (${carried} failing)`
          : 'it carried no failing state from a run before it'),
    );
  }
  return notes;
}

export function compareWithBaseline(report: RunReport, baseline: Baseline): SinceBaseline {
  const before = new Map(baseline.requirements.map((r) => [r.id, r]));
  // since when the baseline knew each failing, and the state it carried for those it could not judge
  const { newlyFailing = [], stillFailing = [], unjudged = [] } = baseline.sinceBaseline ?? {};
  const since = new Map([...newlyFailing, ...stillFailing, ...unjudged].filter((c) => c.failingSince).map((c) => [c.id, c.failingSince!]));
  const carried = new Map(unjudged.map((c) => [c.id, c]));
  const change = (now: RequirementResult, baselineOutcome: Outcome, failingSince?: string): BaselineChange => ({
    id: now.id,
    level: now.level,
    title: now.title,
    outcome: now.outcome,
    baselineOutcome,
    ...(failingSince && { failingSince }),
  });
  const result: SinceBaseline = {
    baseline: {
      startedAt: baseline.startedAt,
      finishedAt: baseline.finishedAt,
      verdict: baseline.verdict,
      tool: { name: baseline.tool.name, version: baseline.tool.version },
      spec: { title: baseline.spec.title, version: baseline.spec.version },
      baseUrl: baseline.target.baseUrl,
      profile: baseline.profile,
    },
    compared: 0,
    notes: [],
    newlyFailing: [],
    recovered: [],
    stillFailing: [],
    unjudged: [],
  };
  // failing: a counted violation, or carried as failing by a baseline that could not judge it
  const failingNow = new Set(countedViolations(report));
  const failingThen = new Set(countedViolations(baseline));
  const aborted = report.abortReason !== undefined;
  for (const now of report.requirements) {
    const then = before.get(now.id);
    if (!then) continue;
    result.compared++;
    const failsNow = failingNow.has(now);
    const thenCarried = carried.get(now.id);
    const failedThen = failingThen.has(then) || thenCarried !== undefined;
    const thenOutcome = thenCarried?.baselineOutcome ?? then.outcome;
    const failingSince = since.get(now.id) ?? baseline.startedAt;
    if (failsNow) {
      if (failedThen) result.stillFailing.push(change(now, thenOutcome, failingSince));
      else result.newlyFailing.push(change(now, thenOutcome, report.startedAt));
    } else if (failedThen) {
      const judgedNow = !aborted && (now.outcome === 'passed' || now.outcome === 'failed');
      if (!judgedNow) result.unjudged.push(change(now, thenOutcome, failingSince));
      else if (now.outcome === 'passed') result.recovered.push(change(now, thenOutcome, failingSince));
      // failed now but listed as an expected failure: neither failing nor recovered
    }
  }
  result.notes = notesOn(report, baseline, result.compared);
  return result;
}

/** "2025-01-02 03:04:05 UTC"; anything else as given. */
function utcTime(iso: string) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().replace(/T(\S+)\.\d+Z$/, ' $1 UTC');
}

/** Each change with what every output says of it. */
export function changeGroups(s: SinceBaseline) {
  const since = (c: BaselineChange) => utcTime(c.failingSince ?? s.baseline.startedAt);
  const group = (key: string, label: string, changes: BaselineChange[], detail: (c: BaselineChange) => string) => ({
    key,
    label,
    changes: changes.map((c) => ({ ...c, detail: detail(c) })),
  });
  return [
    group('newly-failing', 'Newly failing', s.newlyFailing, (c) => `${c.outcome}; was ${c.baselineOutcome}`),
    group('recovered', 'Recovered', s.recovered, (c) => `had failed since ${since(c)}`),
    group('still-failing', 'Still failing', s.stillFailing, (c) => `${c.outcome}, failing since ${since(c)}`),
    // not shown when empty: most runs judge everything
    ...(s.unjudged.length
      ? [group('not-judged', 'Failing before, not judged now', s.unjudged, (c) => `${c.outcome} now; ${c.baselineOutcome} and failing since ${since(c)}`)]
      : []),
  ];
}

export const baselineHeading = (s: SinceBaseline) =>
  `Since the baseline (run finished ${utcTime(s.baseline.finishedAt)}, ${s.baseline.verdict}; ${s.compared} requirements compared)`;
