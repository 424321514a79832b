// A thin Vitest view over the one runner: a test per requirement, all of them sharing one
// run. A test ends as the CLI judges its requirement; one that could not be judged fails too
// (Vitest has no "incomplete", and a pass would let CI go green on what was not seen). A run
// that cannot be made fails one test with the reason and skips the others.
import { describe, inject, test } from 'vitest';
import { loadCatalogue } from '../harness/api/catalogue.js';
import { startRun, type ConformanceRun } from '../harness/run/runner.js';
import { countsAgainstVerdict, leavesIncomplete, leftUnjudgedBy, listedButPassed, listedButPassedNote } from '../harness/verdict/report.js';
import { testTitle } from './test-title.js';
import type {} from '../reporters/vitest-compliance.js';
import { conformanceSuite } from '../checks/index.js';
import { EXCHANGE_LOG_FILE, renderHar, type HarRun } from '../reporters/har.js';
import { writeAtomically } from '../harness/model/files.js';
import type { Digested } from '../reporters/certificate.js';
import { sha256 } from '../harness/api/documents.js';

interface SharedRun {
  run: ConformanceRun;
  abortReported: boolean;
  /** Written by the first test to finish: the exchanges live in this worker, not in the reporter. */
  exchangeLog?: Promise<Digested>;
}

let shared: SharedRun | undefined;

function start() {
  const settings = inject('conformance');
  return (shared ??= {
    run: startRun({
      ...settings.session,
      now: new Date(settings.session.now),
      ...conformanceSuite(),
      selected: new Set(settings.selected),
      expectedFailures: new Map(settings.expectedFailures),
    }),
    abortReported: false,
  });
}

async function writeExchangeLog(shared: SharedRun, run: HarRun) {
  const text = renderHar(run, await shared.run.exchanges());
  await writeAtomically(inject('conformance').reportDir, EXCHANGE_LOG_FILE, text);
  return { name: EXCHANGE_LOG_FILE, digest: { sha256: sha256(text) } };
}

/** Without stack frames into the harness. */
function runAborted(reason: string) {
  const err = new Error(`the run could not be made: ${reason} (the tests of what it did not carry out are skipped; the CLI exits with code 2 here)`);
  err.stack = `Error: ${err.message}`;
  return err;
}

// a test waits for the whole run: the run's deadline bounds it, with room to close
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
          // the results travel one per test, so that the report counts a test's own end
          const { requirements: _results, ...base } = await shared.run.report;
          task.meta.run = base;
          if (inject('conformance').exchangeLog) task.meta.written = [await (shared.exchangeLog ??= writeExchangeLog(shared, base))];
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
            await annotate(listedButPassedNote(result), 'warning');
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
