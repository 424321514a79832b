// compliance.json: the run report as pretty JSON (spec/compliance-report.schema.json).
import type { RunReport } from '../harness/model/types.js';

export function renderComplianceJson(report: RunReport): string {
  return JSON.stringify(report, null, 2) + '\n';
}
