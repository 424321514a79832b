// Runs the whole suite in-process against a reference server built with the given
// faults or variants: the self-tests run dozens of these in one process.
import { startReferenceServer, type ReferenceOptions, type ReferenceServer } from '../../reference/server.js';
import { runConformance, type RunOptions } from '../../harness/run/runner.js';
import { conformanceChecks } from '../../checks/index.js';
import type { RunReport } from '../../harness/model/types.js';

export const API_KEY = 'self-test-key-6f1d2c9a8b';

/**
 * The options of a self-test's run against a reference server started with API_KEY:
 * the suite's checks, both services, certify, short timeouts, a fixed date; each
 * overridable (`target` whole: a run without the quickstart service leaves it out).
 */
export function referenceRun(ref: ReferenceServer, overrides: Partial<RunOptions> = {}, apiKey = API_KEY): RunOptions {
  return {
    checks: conformanceChecks(),
    target: { environment: 'embedded', baseUrl: ref.baseUrl, apiKey, quickstartBaseUrl: ref.quickstartBaseUrl, quickstartApiKey: apiKey },
    profile: 'certify',
    timeoutMs: 5000,
    deadlineMs: 30_000,
    concurrency: 8,
    now: new Date('2026-11-22T00:00:00Z'),
    ...overrides,
  };
}

/** The run's target without the quickstart service (its checks are then skipped). */
export const storeOnly = (ref: ReferenceServer): RunOptions['target'] => ({ environment: 'embedded', baseUrl: ref.baseUrl, apiKey: API_KEY });

/** Certifies a reference server started with these options (and API_KEY, unless they give another key). */
export async function certifyReference(server: Partial<ReferenceOptions> = {}, run: Partial<RunOptions> = {}): Promise<RunReport> {
  const apiKey = server.apiKey ?? API_KEY;
  const ref = await startReferenceServer({ ...server, apiKey });
  try {
    return await runConformance(referenceRun(ref, run, apiKey));
  } finally {
    await ref.close();
  }
}

/** "ID: message" for every MUST or SHOULD that failed or errored. */
export const violations = (report: RunReport) =>
  report.requirements.filter((r) => r.outcome === 'failed' || r.outcome === 'error').map((r) => `${r.id}: ${r.message}`);
