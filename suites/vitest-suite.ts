// A thin Vitest view over the one runner (harness/run/runner.ts): one test per
// requirement, titled "<ID> <LEVEL> <title>" so that `vitest run -t LIST-` selects an
// area. All suite files of a Vitest run share one run, started by the first test:
// it runs what ONLY, SKIP and -t select, the observers after every other check, as
// the CLI does. A test ends as the CLI judges its requirement: a violated MUST (with
// STRICT, also SHOULD) fails it, and so does one that could not be judged (Vitest has
// no "incomplete", and a pass would let CI go green on what was not seen); a failed
// SHOULD passes with a warning, an expected failure is skipped. A run that cannot be made (target unreachable, key rejected)
// fails one test with the reason and skips the others: one failure that says why. The
// run's exchanges are in this worker, so the first test to finish writes exchanges.har
// and every test hands its digest to the reporter, which certifies the run.
import { describe, inject, test } from 'vitest';
import { loadCatalogue } from '../harness/api/catalogue.js';
import { startRun, type ConformanceRun } from '../harness/run/runner.js';
import { countsAgainstVerdict, leavesIncomplete, leftUnjudgedBy, listedButPassed } from '../harness/verdict/report.js';
import { testTitle } from './test-title.js';
import type {} from '../reporters/vitest-compliance.js';
import { conformanceChecks } from '../checks/index.js';
import { EXCHANGE_LOG_FILE, renderHar, type HarRun } from '../reporters/har.js';
import { writeAtomically } from '../harness/model/files.js';
import type { Digested } from '../reporters/certificate.js';
import { sha256 } from '../harness/api/documents.js';

interface SharedRun {
  run: ConformanceRun;
  /** Whether a test has failed with the abort reason already (the first one to see it). */
  abortReported: boolean;
  /** exchanges.har, written once by the first test to finish (the exchanges live in this worker, not in the reporter). */
  exchangeLog?: Promise<Digested>;
}

let shared: SharedRun | undefined;

function start(): SharedRun {
  if (shared) return shared;
  const settings = inject('conformance');
  const run = startRun({
    ...settings.session,
    now: new Date(settings.session.now),
    checks: conformanceChecks(),
    selected: new Set(settings.selected),
    expectedFailures: new Map(settings.expectedFailures),
  });
  shared = { run, abortReported: false };
  return shared;
}

/** Writes the run's exchanges.har into REPORT_DIR; its digest goes to the reporter, which certifies the run. */
async function writeExchangeLog(shared: SharedRun, run: HarRun): Promise<Digested> {
  const text = renderHar(run, await shared.run.exchanges());
  await writeAtomically(inject('conformance').reportDir, EXCHANGE_LOG_FILE, text);
  return { name: EXCHANGE_LOG_FILE, digest: { sha256: sha256(text) } };
}

/** The one failure of an aborted run: the reason, without stack frames into the harness. */
function runAborted(reason: string): Error {
  const err = new Error(`the run could not be made: ${reason} (the tests of what it did not carry out are skipped; the CLI exits with code 2 here)`);
  err.stack = `Error: ${err.message}`;
  return err;
}

/** A test waits for the whole run (its figures are the run's): the run's deadline bounds it, with room to close. */
const TEST_MARGIN_MS = 60_000;

export function defineAreaSuite(area: string): void {
  const requirements = loadCatalogue().filter((r) => r.area === area);
  const timeout = inject('conformance').session.deadlineMs + TEST_MARGIN_MS;
  describe.concurrent(area, () => {
    for (const requirement of requirements) {
      test(
        testTitle(requirement),
        async ({ skip, task, annotate }) => {
          const shared = start();
          const result = await shared.run.result(requirement.id);
          task.meta.requirement = result; // before the wait for the whole run, so that the reporter has it in any case
          // the run's figures; its results travel one per test (meta.requirement), and the
          // reporter builds the report from those, so that a test's own end is counted
          const { requirements: _results, ...base } = await shared.run.report;
          task.meta.run = base;
          if (inject('conformance').exchangeLog) task.meta.written = [await (shared.exchangeLog ??= writeExchangeLog(shared, base))];
          // the run was aborted (target unreachable, key rejected, the target stopped
          // answering): one failure says why, the requirements it did not carry out are skipped
          const reason = base.abortReason;
          if (reason !== undefined && leftUnjudgedBy(result, reason)) {
            if (shared.abortReported) skip(result.message);
            shared.abortReported = true;
            throw runAborted(reason);
          }
          const failed = result.outcome === 'failed' || result.outcome === 'error';
          if (failed && result.expectedFailure !== undefined) skip(`expected failure: ${result.expectedFailure}`);
          if (result.outcome === 'skipped' || result.outcome === 'inconclusive') skip(`${result.outcome}: ${result.message}`);
          if (listedButPassed(result)) {
            await annotate(`listed as an expected failure (${result.expectedFailure}) but passed: remove it from the expected-failures file`, 'warning');
          }
          if (!failed) return;
          const outcome = result.outcome === 'error' ? `could not be judged${result.cause ? ` (${result.cause})` : ''}` : 'failed';
          const message = `${outcome}: ${result.message}\n${result.evidence.map((e) => e.curl).join('\n')}`;
          if (countsAgainstVerdict(result, base.strict) || leavesIncomplete(result, base.strict)) throw new Error(message);
          await annotate(message, 'warning');
        },
        timeout,
      );
    }
  });
}
