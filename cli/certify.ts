// A certify or health run from the command line: configuration, the target (or the
// embedded reference server), the checks, the reports (exchanges.har from the run's
// transcript; a certificate signed with SIGN_KEY), the summary, the exit code
// (130/143 when SIGINT/SIGTERM stopped it). cli/cli.ts loads this module only for a
// run: --help, --version and --list need none of the HTTP client, validators or reporters.
import { constants as osConstants } from 'node:os';
import type { ParsedArgs } from '../harness/config/resolve.js';
import { startRun } from '../harness/run/runner.js';
import { conformanceChecks } from '../checks/index.js';
import { startTarget } from './target.js';
import { redactorFor, sessionOptionsFor } from '../harness/run/session.js';
import { prepareRun, type PreparedRun } from '../harness/run/prepare.js';
import type { RequirementResult, RunReport } from '../harness/model/types.js';
import type { TranscriptEntry } from '../harness/run/transcript.js';
import { formatProgress } from '../reporters/console.js';

/** Runs the checks as the parsed command line says; returns the exit code. Throws ConfigError for bad input. */
export async function certify(args: ParsedArgs, env: NodeJS.ProcessEnv): Promise<number> {
  const run: PreparedRun = await prepareRun(args, env);
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
    const { config, catalogue, selected, expectedFailures, baseline, signKey } = run;
    const { target, server } = await startTarget(config);
    const redactor = redactorFor(target);
    const say = (line: string) => process.stderr.write(`${redactor.redact(line)}\n`);
    if (server) say(`No BASE_URL configured: certifying the embedded reference server at ${target.baseUrl}`);
    say(
      `Certifying ${target.baseUrl} (${config.profile} profile)${target.quickstartBaseUrl ? ` and the quickstart service at ${target.quickstartBaseUrl}` : ''}`,
    );

    let report: RunReport;
    let exchanges: TranscriptEntry[] | undefined;
    try {
      const conformance = startRun({
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
      report = await conformance.report;
      if (config.exchangeLog) exchanges = await conformance.exchanges();
    } finally {
      await server?.close();
    }
    const exitCode = signalled ? exitCodeFor(signalled) : report.exitCode;
    // the reporters are loaded when the reports are written, not before the first request
    const { finishRun } = await import('../reporters/finish.js');
    await finishRun(report, {
      reportDir: config.reportDir,
      baseline,
      env,
      redact: (text) => redactor.redact(text),
      print: (text) => process.stdout.write(`${text}\n`),
      ...(signalled && { interrupted: exitCode }),
      exchanges,
      signKey,
    });
    return exitCode;
  } finally {
    for (const s of signals) process.off(s, onSignal);
  }
}
