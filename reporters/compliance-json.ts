// compliance.json: the run report as pretty JSON (spec/compliance-report.schema.json).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunReport } from '../harness/model/types.js';

export function renderComplianceJson(report: RunReport): string {
  return JSON.stringify(report, null, 2) + '\n';
}

/** Writes <dir>/compliance.json (creating dir) and returns its path. */
export async function writeComplianceJson(report: RunReport, dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'compliance.json');
  await writeFile(file, renderComplianceJson(report), 'utf8');
  return file;
}
