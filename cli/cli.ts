// The command line: certify a target (or the embedded reference server when none
// is configured), print progress and a summary, write the reports, exit 0/1/2
// (130/143 when SIGINT/SIGTERM stopped it).
import { constants as osConstants } from 'node:os';
import { ConfigError, SETTINGS, parseCommandLine } from '../harness/config.js';
import { notCarriedOut, runConformance } from '../harness/engine.js';
import { startTarget } from '../harness/target.js';
import { redactorFor } from '../harness/session.js';
import { loadCatalogue } from '../harness/catalogue.js';
import { prepareRun, sessionOptionsFor, type PreparedRun } from '../harness/run-config.js';
import { formatCatalogueList } from './catalogue-doc.js';
import { reportToGithub } from './github.js';
import { TOOL } from '../harness/tool.js';
import type { RequirementResult, RunReport } from '../harness/types.js';
import { writeComplianceJson } from '../reporters/compliance-json.js';
import { writeJunit } from '../reporters/junit.js';
import { writeHtml } from '../reporters/html.js';
import { writeMetrics } from '../reporters/metrics.js';
import { formatProgress, formatSummary } from './output.js';
import { compareWithBaseline, readBaseline, type Baseline } from '../harness/baseline.js';

const NAME = 'animal-store-conformance';

export function usage(): string {
  const rows = Object.values<{ flag: string; env: string; help: string; boolean?: boolean }>(SETTINGS).map((s) =>
    `  --${s.flag}${s.boolean ? '' : ' <value>'}`.padEnd(34) + `${s.env.padEnd(22)}${s.help}${'default' in s ? ` (default: ${s.default})` : ''}`);
  return [
    `Usage: ${NAME} [options]`,
    '',
    'Certifies an Animal Store server against its API description and writes',
    'REPORT_DIR/compliance.json, junit.xml, report.html and metrics.prom. With no BASE_URL, the',
    'embedded reference server is started on 127.0.0.1 and certified.',
    '',
    'Options (each also as an environment variable or in .env; flags win):',
    ...rows,
    '  --dotenv <path>'.padEnd(34) + 'ENV_FILE'.padEnd(22) + 'Read settings from this file (default: .env, if present).',
    '  --list'.padEnd(34) + ''.padEnd(22) + 'Print the requirement catalogue and exit.',
    '  -h, --help'.padEnd(34) + ''.padEnd(22) + 'Show this help.',
    '  --version'.padEnd(34) + ''.padEnd(22) + 'Show the version.',
    '',
    'Exit codes: 0 compliant (every MUST passed), 1 not compliant, 2 the run could not be made or judged nothing;',
    '130/143 stopped by SIGINT/SIGTERM (the reports are still written; a second signal exits at once).',
  ].join('\n');
}

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let run: PreparedRun;
  let baseline: Baseline | undefined;
  try {
    const args = parseCommandLine(argv);
    if (args.help) { console.log(usage()); return 0; }
    if (args.version) { console.log(`${NAME} ${TOOL.version}`); return 0; }
    if (args.list) { console.log(formatCatalogueList(loadCatalogue())); return 0; }
    run = await prepareRun(args, env);
    // read now: a bad baseline is bad input (exit 2), and REPORT_DIR/compliance.json may be it
    if (run.config.baselineFile) baseline = await readBaseline(run.config.baselineFile);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`${NAME}: ${err.message} (see --help)`);
    return 2;
  }
  // Ctrl-C or a CI cancel stops sending, and the reports still say what was judged;
  // a second signal exits at once. The exit code is the shell's for the signal.
  const stop = new AbortController();
  let signalled: NodeJS.Signals | undefined;
  const exitCodeFor = (signal: NodeJS.Signals) => 128 + osConstants.signals[signal];
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) process.exit(exitCodeFor(signalled));
    signalled = signal;
    process.stderr.write(`${signal}: stopping the run and writing the reports (a second signal exits at once)\n`);
    stop.abort(`the run was interrupted (${signal})`);
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
  for (const s of signals) process.on(s, onSignal);
  try {
    const { config, catalogue, selected, expectedFailures } = run;
    const { target, server } = await startTarget(config);
    const redactor = redactorFor(target);
    const say = (line: string) => process.stderr.write(`${redactor.redact(line)}\n`);
    if (server) say(`No BASE_URL configured: certifying the embedded reference server at ${target.baseUrl}`);
    say(`Certifying ${target.baseUrl} (${config.profile} profile)${target.quickstartBaseUrl ? ` and the quickstart service at ${target.quickstartBaseUrl}` : ''}`);

    let report: RunReport;
    try {
      report = await runConformance({
        ...sessionOptionsFor(config, target),
        catalogue,
        selected,
        expectedFailures,
        signal: stop.signal,
        onResult: (r: RequirementResult) => { if (r.outcome !== 'skipped') say(formatProgress(r)); },
      });
    } finally {
      await server?.close();
    }
    if (baseline) report.sinceBaseline = compareWithBaseline(report, baseline);

    const paths = await Promise.all([
      writeComplianceJson(report, config.reportDir),
      writeJunit(report, config.reportDir),
      writeHtml(report, config.reportDir),
      writeMetrics(report, config.reportDir),
    ]);
    const exitCode = signalled ? exitCodeFor(signalled) : report.exitCode;
    const summary = signalled && report.abortReason ? interruptedSummary(report, paths, exitCode) : formatSummary(report, paths);
    process.stdout.write(`${redactor.redact(summary)}\n`);
    await reportToGithub(report, env, (text) => redactor.redact(text));
    return exitCode;
  } finally {
    for (const s of signals) process.off(s, onSignal);
  }
}

/** One line: what an interrupted run judged before it stopped (the reports hold the rest). */
function interruptedSummary(report: RunReport, paths: string[], exitCode: number): string {
  const left = report.requirements.filter((r) => r.message === notCarriedOut(report.abortReason!)).length;
  const total = report.requirements.length;
  const violated = report.counts.mustViolations + report.counts.shouldViolations;
  const reason = report.abortReason!;
  return `${reason[0].toUpperCase()}${reason.slice(1)}: ${total - left} of ${total} requirements finished before it (${violated} violated),` +
    ` ${left} not carried out (exit code ${exitCode}; reports: ${paths.join(', ')})`;
}
