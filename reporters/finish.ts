// The end of every run, the CLI's and the Vitest view's: the comparison with the baseline,
// the reports, the summary and the GitHub Actions output.
import type { KeyObject } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunReport } from '../harness/model/types.js';
import type { TranscriptEntry } from '../harness/run/transcript.js';
import { compareWithBaseline, type Baseline } from '../harness/verdict/baseline.js';
import { renderComplianceJson } from './compliance-json.js';
import { renderJunit } from './junit.js';
import { renderHtml } from './html.js';
import { renderMetrics } from './metrics.js';
import { formatSummary, interruptedSummary } from './console.js';
import { reportToGithub } from './github.js';
import { EXCHANGE_LOG_FILE, renderHar } from './har.js';
import { BADGE_FILE, CERTIFICATE_FILE, certificateStatement, isCertified, renderBadge, renderCertificate, type Digested } from './certificate.js';
import { sha256 } from '../harness/api/documents.js';
import { writeAtomically } from '../harness/model/files.js';

const REPORT_FILES = { 'compliance.json': renderComplianceJson, 'junit.xml': renderJunit, 'report.html': renderHtml, 'metrics.prom': renderMetrics };

// removed when this run does not write them, so that the folder holds one run's files
const SOMETIMES_WRITTEN = [EXCHANGE_LOG_FILE, BADGE_FILE, CERTIFICATE_FILE];

export interface Finish {
  reportDir: string;
  baseline: Baseline | undefined;
  env: NodeJS.ProcessEnv;
  /** Every line printed or written for GitHub goes through it: no key leaves the run. */
  redact: (text: string) => string;
  print: (text: string) => void;
  /** The exit code of a run a signal stopped: its summary is one line. */
  interrupted?: number;
  exchanges?: readonly TranscriptEntry[];
  /** Files of this run another process wrote into reportDir (the Vitest worker's exchanges.har). */
  written?: readonly Digested[];
  signKey?: KeyObject;
}

/** Returns the reports' paths. A judged run's certificate is written last: it digests every other file of the run. */
export async function finishRun(report: RunReport, finish: Finish): Promise<string[]> {
  if (finish.baseline) report.sinceBaseline = compareWithBaseline(report, finish.baseline);
  const dir = finish.reportDir;
  const files: Array<[string, string]> = Object.entries(REPORT_FILES).map(([name, render]) => [name, render(report)]);
  if (finish.exchanges) files.push([EXCHANGE_LOG_FILE, renderHar(report, finish.exchanges)]);
  const certified = isCertified(report);
  if (certified) files.push([BADGE_FILE, await renderBadge(report)]);
  // encoded once: the bytes written are the bytes the certificate digests
  const encoded = files.map(([name, text]) => [name, Buffer.from(text)] as const);
  const paths = await Promise.all(encoded.map(([name, bytes]) => writeAtomically(dir, name, bytes)));
  const others = finish.written ?? [];
  paths.push(...others.map((f) => join(dir, f.name)));
  const subject: Digested[] = [...encoded.map(([name, bytes]) => ({ name, digest: { sha256: sha256(bytes) } })), ...others];
  if (certified) paths.push(await writeAtomically(dir, CERTIFICATE_FILE, renderCertificate(certificateStatement(report, subject), finish.signKey)));
  const thisRun = new Set([...subject.map((s) => s.name), ...(certified ? [CERTIFICATE_FILE] : [])]);
  await Promise.all(SOMETIMES_WRITTEN.filter((name) => !thisRun.has(name)).map((name) => rm(join(dir, name), { force: true })));
  const summary = finish.interrupted !== undefined && report.abortReason ? interruptedSummary(report, paths, finish.interrupted) : formatSummary(report, paths);
  finish.print(finish.redact(summary));
  await reportToGithub(report, finish.env, finish.redact, dir);
  return paths;
}
