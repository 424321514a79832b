// A certify or health run from the command line.
import { constants as osConstants } from 'node:os';
import type { ParsedArgs } from '../harness/config/resolve.js';
import { startRun } from '../harness/run/runner.js';
import { conformanceSuite } from '../checks/index.js';
import { finishCliRun, startTarget } from './target.js';
import { redactorFor, sessionOptionsFor } from '../harness/run/session.js';
import { prepareRun } from '../harness/run/prepare.js';
import type { RunReport } from '../harness/model/types.js';
import type { TranscriptEntry } from '../harness/run/transcript.js';
import { formatProgress } from '../reporters/console.js';

export async function certify(args: ParsedArgs, env: NodeJS.ProcessEnv): Promise<number> {
  const run = await prepareRun(args, env);
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
  const signals = ['SIGINT', 'SIGTERM'] as const;
  for (const s of signals) process.on(s, onSignal);
  try {
    const { config } = run;
    const { target, server } = await startTarget(config);
    const redactor = redactorFor(target);
    const say = (line: string) => process.stderr.write(`${redactor.redact(line)}\n`);
    if (server) say(`No BASE_URL configured: certifying the embedded reference server at ${target.baseUrl}`);
    const quickstart = target.quickstartBaseUrl ? ` and the quickstart service at ${target.quickstartBaseUrl}` : '';
    say(`Certifying ${target.baseUrl} (${config.profile} profile)${quickstart}`);
    let report: RunReport;
    let exchanges: TranscriptEntry[] | undefined;
    try {
      const conformance = startRun({
        ...conformanceSuite(),
        ...sessionOptionsFor(config, target),
        catalogue: run.catalogue,
        selected: run.selected,
        expectedFailures: run.expectedFailures,
        signal: stop.signal,
        onResult: (r) => {
          if (r.outcome !== 'skipped') say(formatProgress(r));
        },
      });
      report = await conformance.report;
      if (config.exchangeLog) exchanges = await conformance.exchanges();
    } finally {
      await server?.close();
    }
    const exitCode = signalled ? exitCodeFor(signalled) : report.exitCode;
    await finishCliRun(report, run, redactor, env, { ...(signalled && { interrupted: exitCode }), exchanges });
    return exitCode;
  } finally {
    for (const s of signals) process.off(s, onSignal);
  }
}
