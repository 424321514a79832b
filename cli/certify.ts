// A certify or health run from the command line: configuration, the target (or the
// embedded reference server), the checks, the reports, the summary, the exit code
// (130/143 when SIGINT/SIGTERM stopped it). cli/cli.ts loads this module only for a
// run: --help, --version and --list need none of the HTTP client, validators or reporters.
import { constants as osConstants } from 'node:os';
import type { ParsedArgs } from '../harness/config/settings.js';
import { notCarriedOut, runConformance } from '../harness/run/runner.js';
import { conformanceChecks } from '../checks/index.js';
import { startTarget } from './target.js';
import { redactorFor } from '../harness/run/session.js';
import { prepareRun, type PreparedRun } from '../harness/config/prepare.js';
import { sessionOptionsFor } from '../harness/run/session.js';
import { reportToGithub } from './github.js';
import type { RequirementResult, RunReport } from '../harness/model/types.js';
import { formatProgress, formatSummary } from './output.js';
import { compareWithBaseline, readBaseline, type Baseline } from '../harness/run/baseline.js';

/** Runs the checks as the parsed command line says; returns the exit code. Throws ConfigError for bad input. */
export async function certify(args: ParsedArgs, env: NodeJS.ProcessEnv): Promise<number> {
  const run: PreparedRun = await prepareRun(args, env);
  // read now: a bad baseline is bad input (exit 2), and REPORT_DIR/compliance.json may be it
  const baseline: Baseline | undefined = run.config.baselineFile ? await readBaseline(run.config.baselineFile) : undefined;
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
    say(
      `Certifying ${target.baseUrl} (${config.profile} profile)${target.quickstartBaseUrl ? ` and the quickstart service at ${target.quickstartBaseUrl}` : ''}`,
    );

    let report: RunReport;
    try {
      report = await runConformance({
        checks: conformanceChecks(),
        ...sessionOptionsFor(config, target),
        catalogue,
        selected,
        expectedFailures,
        signal: stop.signal,
        onResult: (r: RequirementResult) => {
          if (r.outcome !== 'skipped') say(formatProgress(r));
        },
      });
    } finally {
      await server?.close();
    }
    if (baseline) report.sinceBaseline = compareWithBaseline(report, baseline);

    // the reporters are loaded when the reports are written, not before the first request
    const [{ writeComplianceJson }, { writeJunit }, { writeHtml }, { writeMetrics }] = await Promise.all([
      import('../reporters/compliance-json.js'),
      import('../reporters/junit.js'),
      import('../reporters/html.js'),
      import('../reporters/metrics.js'),
    ]);
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
  const reason = report.abortReason!;
  const cut = (r: RequirementResult) => r.message === notCarriedOut(reason);
  const left = report.requirements.filter(cut).length;
  // skipped by the selection, the profile or the configuration: never meant to be carried out
  const skipped = report.requirements.filter((r) => r.outcome === 'skipped' && !cut(r)).length;
  const meant = report.requirements.length - skipped;
  // an aborted run counts no violation (harness/run/report.ts countedViolations): what failed before it is said apart
  const failed = report.counts.failed;
  return (
    `${reason[0].toUpperCase()}${reason.slice(1)}: ${meant - left} of the ${meant} requirements this run carries out finished before it (${failed} failed, not counted),` +
    ` ${left} not carried out; ${skipped} skipped by the selection, the profile or the configuration (exit code ${exitCode}; reports: ${paths.join(', ')})`
  );
}
