// The Vitest reporter of the conformance suites: it finishes the run as the CLI does. The
// exchanges live in the worker that ran the checks: it writes exchanges.har and hands over its digest.
import type {} from 'vitest';
import type {} from '@vitest/runner';
import type { Reporter, TestModule } from 'vitest/node';
import { buildReport, skippedResult, type ReportBase } from '../harness/verdict/report.js';
import { loadCatalogue } from '../harness/api/catalogue.js';
import { redactorFor, type SessionOptions } from '../harness/run/session.js';
import type { Baseline } from '../harness/verdict/baseline.js';
import type { RequirementResult } from '../harness/model/types.js';
import { readSigningKey } from '../harness/config/signing-key.js';
import { finishRun } from './finish.js';
import type { Digested } from './certificate.js';

/** What global-setup provides: JSON-serialisable (arrays, not Sets or Maps). */
export interface SuiteSettings {
  session: Omit<SessionOptions, 'now'> & { now: string };
  /** Those ONLY and SKIP select whose test -t runs. */
  selected: string[];
  expectedFailures: Array<[string, string]>;
  reportDir: string;
  baseline: Baseline | undefined;
  exchangeLog: boolean;
  /** Read again here: a key object does not travel as JSON. */
  signKeyFile?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    conformance: SuiteSettings;
  }
}

declare module '@vitest/runner' {
  // the result and the run's figures ride on the test case
  interface TaskMeta {
    requirement?: RequirementResult;
    run?: ReportBase;
    /** exchanges.har, if the worker wrote it. */
    written?: Digested[];
  }
}

/** A test that failed before its result was known (a timeout, a crash) is an error, not left out of the report. */
function withoutResult(title: string, errors: ReadonlyArray<{ message?: string }> | undefined): RequirementResult {
  const id = title.split(' ')[0];
  const requirement = loadCatalogue().find((r) => r.id === id);
  const why = errors?.map((e) => e.message).join('; ') || 'no reason given';
  if (!requirement) throw new Error(`a conformance test is titled with no requirement id: ${title}`);
  return { ...skippedResult(requirement, `the test ended without a result: ${why}`), outcome: 'error' };
}

export default class ComplianceReporter implements Reporter {
  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    const results: RequirementResult[] = [];
    let run: ReportBase | undefined;
    let written: Digested[] | undefined;
    let settings: SuiteSettings | undefined;
    // the conformance suites only: global-setup provides their settings
    for (const module of testModules.filter((m) => m.project.getProvidedContext().conformance)) {
      settings ??= module.project.getProvidedContext().conformance;
      for (const test of module.children.allTests()) {
        const meta = test.meta();
        if (meta.requirement) results.push(meta.requirement);
        else if (test.result().state === 'failed') results.push(withoutResult(test.name, test.result().errors));
        run ??= meta.run;
        written ??= meta.written;
      }
    }
    if (!run || !settings) return;
    const redactor = redactorFor(settings.session.target);
    await finishRun(buildReport(run, results), {
      reportDir: settings.reportDir,
      baseline: settings.baseline,
      env: process.env,
      redact: (text) => redactor.redact(text),
      print: (text) => console.log(text),
      written,
      signKey: settings.signKeyFile ? readSigningKey(settings.signKeyFile) : undefined,
    });
  }
}
