// Runs the whole suite in-process against a reference server built with the given
// faults or variants: the self-tests run dozens of these in one process.
import { startReferenceServer, type ReferenceOptions } from '../../reference/server.js';
import { runConformance, type RunOptions } from '../../harness/run/runner.js';
import { conformanceChecks } from '../../checks/index.js';
import type { Profile, RunReport } from '../../harness/model/types.js';

export const API_KEY = 'self-test-key-6f1d2c9a8b';

export async function certifyReference(
  server: Omit<ReferenceOptions, 'apiKey'> = {},
  run: Partial<RunOptions> & { profile?: Profile } = {},
): Promise<RunReport> {
  const ref = await startReferenceServer({ apiKey: API_KEY, ...server });
  try {
    return await runConformance({
      checks: conformanceChecks(),
      target: { environment: 'embedded', baseUrl: ref.baseUrl, apiKey: API_KEY, quickstartBaseUrl: ref.quickstartBaseUrl, quickstartApiKey: API_KEY },
      profile: 'certify',
      timeoutMs: 5000,
      deadlineMs: 30_000,
      concurrency: 8,
      now: new Date('2026-11-22T00:00:00Z'),
      ...run,
    });
  } finally {
    await ref.close();
  }
}

/** "ID: message" for every MUST or SHOULD that failed or errored. */
export const violations = (report: RunReport) =>
  report.requirements.filter((r) => r.outcome === 'failed' || r.outcome === 'error').map((r) => `${r.id}: ${r.message}`);
