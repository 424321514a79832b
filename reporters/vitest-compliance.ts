// A Vitest reporter: when the conformance suites run under Vitest, it writes the
// same compliance.json, junit.xml and report.html as the CLI, to REPORT_DIR.
import type { Reporter, TestModule } from 'vitest/node';
import { buildReport } from '../harness/report.js';
import type { ReportBase } from '../harness/session.js';
import type { RequirementResult } from '../harness/types.js';
import { writeComplianceJson } from './compliance-json.js';
import { writeHtml } from './html.js';
import { writeJunit } from './junit.js';

export default class ComplianceReporter implements Reporter {
  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    const results: RequirementResult[] = [];
    let run: ReportBase | undefined;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const meta = test.meta();
        if (meta.requirement) results.push(meta.requirement);
        // the latest figures of the shared session: the most requests seen
        if (meta.run && (!run || meta.run.requestCount >= run.requestCount)) run = meta.run;
      }
    }
    if (!run) return; // not a conformance run (the self-tests)
    const report = buildReport(run, results);
    const dir = process.env.REPORT_DIR || 'reports';
    const paths = await Promise.all([writeComplianceJson(report, dir), writeJunit(report, dir), writeHtml(report, dir)]);
    console.log(`Conformance verdict: ${report.verdict}; reports: ${paths.join(', ')}`);
  }
}
