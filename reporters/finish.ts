// After a run, the same for the CLI and the Vitest view: the comparison with the
// baseline, the four reports written, the summary, and the GitHub Actions output.
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunReport } from '../harness/model/types.js';
import { compareWithBaseline, type Baseline } from '../harness/run/baseline.js';
import { renderComplianceJson } from './compliance-json.js';
import { renderJunit } from './junit.js';
import { renderHtml } from './html.js';
import { renderMetrics } from './metrics.js';
import { formatSummary, interruptedSummary } from './console.js';
import { reportToGithub } from './github.js';

/** Every report a run writes to REPORT_DIR, by file name. */
export const REPORT_FILES: ReadonlyArray<readonly [string, (report: RunReport) => string]> = [
  ['compliance.json', renderComplianceJson],
  ['junit.xml', renderJunit],
  ['report.html', renderHtml],
  ['metrics.prom', renderMetrics],
];

/**
 * Writes <dir>/<name> (creating dir) and returns its path. Atomically: the text goes to
 * a temporary name in the same folder (one no collector reads: not ending in .prom) and
 * is renamed over the file, so that a textfile collector, a CI step or the next run's
 * --baseline never reads half a report.
 */
export async function writeAtomically(dir: string, name: string, text: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, name);
  const temporary = join(dir, `.${name}.${randomUUID()}.tmp`);
  try {
    await writeFile(temporary, text, 'utf8');
    await rename(temporary, file);
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
  return file;
}

/** Writes every report of REPORT_FILES; returns their paths. */
export function writeReports(report: RunReport, dir: string): Promise<string[]> {
  return Promise.all(REPORT_FILES.map(([name, render]) => writeAtomically(dir, name, render(report))));
}

export interface Finish {
  reportDir: string;
  /** --baseline, read before the run. */
  baseline: Baseline | undefined;
  /** For the GitHub Actions output (GITHUB_STEP_SUMMARY, GITHUB_ACTIONS). */
  env: NodeJS.ProcessEnv;
  /** Every line printed or written for GitHub goes through it: no key leaves the run. */
  redact: (text: string) => string;
  print: (text: string) => void;
  /** The exit code of a run a signal stopped: its summary is one line. */
  interrupted?: number;
}

/** Compares with the baseline, writes the reports, prints the summary and the GitHub output; returns the report's paths. */
export async function finishRun(report: RunReport, finish: Finish): Promise<string[]> {
  if (finish.baseline) report.sinceBaseline = compareWithBaseline(report, finish.baseline);
  const paths = await writeReports(report, finish.reportDir);
  const summary = finish.interrupted !== undefined && report.abortReason ? interruptedSummary(report, paths, finish.interrupted) : formatSummary(report, paths);
  finish.print(finish.redact(summary));
  await reportToGithub(report, finish.env, finish.redact);
  return paths;
}
