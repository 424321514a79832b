// A run's record and its judgement, for the tests of `judge`: the exchanges.har of a
// certify run against the reference server, and that HAR judged with the record's checks.
import { RECORD_CHECKS } from '../../checks/record.js';
import { judgeRecord } from '../../harness/run/record.js';
import { startRun, type RunOptions } from '../../harness/run/runner.js';
import type { RunReport, Target } from '../../harness/model/types.js';
import { startReferenceServer, type ReferenceOptions } from '../../reference/server.js';
import { renderHar } from '../../reporters/har.js';
import { API_KEY, referenceRun } from './run.js';

export const BASE = 'https://store.example/v1';
export const QUICKSTART = 'https://messages.example';

/** The exchanges.har of a certify run against the reference server started with these options (none unless `recorded`), and its addresses. */
export async function recordOf(
  server: Partial<ReferenceOptions> = {},
  overrides: Partial<RunOptions> = {},
  recorded = true,
): Promise<{ har: string; run: RunReport; target: Target }> {
  const apiKey = server.apiKey ?? API_KEY;
  const ref = await startReferenceServer({ ...server, apiKey });
  try {
    const options = referenceRun(ref, overrides, apiKey);
    const run = startRun(options);
    const report = await run.report;
    return { har: recorded ? renderHar(report, await run.exchanges()) : '', run: report, target: options.target };
  } finally {
    await ref.close();
  }
}

/** Judges a HAR text with a run's settings; the target's key is the one given ('' when none is). */
export async function judgeHar(har: string, target: Partial<Target> = {}, overrides: Partial<RunOptions> = {}): Promise<RunReport> {
  const fake = { baseUrl: target.baseUrl ?? BASE, quickstartBaseUrl: target.quickstartBaseUrl ?? QUICKSTART } as Parameters<typeof referenceRun>[0];
  const options = referenceRun(fake, overrides);
  const { report } = await judgeRecord({
    ...options,
    checks: RECORD_CHECKS,
    target: { environment: 'production', baseUrl: fake.baseUrl, quickstartBaseUrl: fake.quickstartBaseUrl, apiKey: '', ...target },
    har,
    file: 'record.har',
  });
  return report;
}

/** The requirements a report failed. */
export const failedIds = (report: RunReport) => report.requirements.filter((r) => r.outcome === 'failed').map((r) => r.id);
