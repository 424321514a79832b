// Turns the catalogue into Vitest test cases, one per requirement, titled
// "<ID> <LEVEL> <title>" so that `vitest run -t LIST-` selects an area. All suite
// files of a Vitest run share one Session (one preflight, one seeding). A test ends
// as the CLI judges its requirement: a violated MUST (with STRICT, also SHOULD)
// fails it, a failed SHOULD passes with a warning, an expected failure is skipped.
// A run that cannot be made (target unreachable, key rejected) fails one test with
// the reason and skips the others: one failure that says why, not one per test.
import { describe, inject, test } from 'vitest';
import { loadCatalogue } from '../harness/api/catalogue.js';
import { CHECKS } from '../harness/run/check.js';
import { RunAborted, Session, type ReportBase, type SessionOptions } from '../harness/run/session.js';
import { loadSpecs } from '../harness/api/spec.js';
import { countsAgainstVerdict, listedButPassed } from '../harness/run/report.js';
import { markExpectedFailure, skippedResult } from '../harness/run/runner.js';
import type { Requirement, RequirementResult } from '../harness/model/types.js';
import type {} from '../reporters/vitest-compliance.js';
import '../checks/index.js';

interface Run {
  session: Session;
  /** Set when the preflight aborted the run (target unreachable, key rejected). */
  abortReason?: string;
  /** Whether a test has failed with the abort reason already (the first one to see it). */
  abortReported?: boolean;
  selected: Set<string>;
  expectedFailures: Map<string, string>;
}

let shared: Promise<Run> | undefined;

/** The run all tests share; an aborted preflight is caught here, once. */
function start(): Promise<Run> {
  shared ??= (async () => {
    const settings = inject('conformance');
    const session = new Session({ ...settings.session, now: new Date(settings.session.now) }, loadSpecs());
    const run: Run = { session, selected: new Set(settings.selected), expectedFailures: new Map(settings.expectedFailures) };
    try {
      await session.preflight();
    } catch (err) {
      if (!(err instanceof RunAborted)) throw err;
      run.abortReason = session.redactor.redact(err.message);
    }
    return run;
  })();
  return shared;
}

async function resultOf(requirement: Requirement, { session, abortReason, selected }: Run): Promise<RequirementResult> {
  if (abortReason) return skippedResult(requirement, `not run: ${abortReason}`);
  if (!selected.has(requirement.id)) return skippedResult(requirement, 'not selected (ONLY, SKIP)');
  if (CHECKS.get(requirement.id)?.observer) await session.settled();
  return session.run(requirement);
}

/** The one failure of an aborted run: the reason, without stack frames into the harness. */
function runAborted(reason: string): Error {
  const err = new Error(`the run could not be made: ${reason} (every other test is skipped; the CLI exits with code 2 here)`);
  err.stack = `Error: ${err.message}`;
  return err;
}

export function defineAreaSuite(area: string): void {
  const requirements = loadCatalogue().filter((r) => r.area === area);
  describe.concurrent(area, () => {
    for (const requirement of requirements) {
      test(`${requirement.id} ${requirement.level} ${requirement.title}`, async ({ skip, task, annotate }) => {
        const run = await start();
        const result = markExpectedFailure(await resultOf(requirement, run), run.expectedFailures);
        task.meta.requirement = result;
        task.meta.run = run.session.reportBase(run.abortReason);
        if (run.abortReason) {
          if (run.abortReported) skip(`not run: ${run.abortReason}`);
          run.abortReported = true;
          throw runAborted(run.abortReason);
        }
        const failed = result.outcome === 'failed' || result.outcome === 'error';
        if (failed && result.expectedFailure !== undefined) skip(`expected failure: ${result.expectedFailure}`);
        if (result.outcome === 'skipped' || result.outcome === 'inconclusive') skip(`${result.outcome}: ${result.message}`);
        if (listedButPassed(result)) {
          await annotate(`listed as an expected failure (${result.expectedFailure}) but passed: remove it from the expected-failures file`, 'warning');
        }
        if (!failed) return;
        const message = `${result.outcome}: ${result.message}\n${result.evidence.map((e) => e.curl).join('\n')}`;
        if (countsAgainstVerdict(result, run.session.options.strict ?? false)) throw new Error(message);
        await annotate(message, 'warning');
      });
    }
  });
}
