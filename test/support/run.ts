// Runs the whole suite in-process against a reference server built with the given
// faults or variants: the self-tests run dozens of these in one process.
import { startReferenceServer, type ReferenceOptions, type ReferenceServer } from '../../reference/server.js';
import { runConformance, type RunOptions } from '../../harness/run/runner.js';
import { conformanceSuite } from '../../checks/index.js';
import type { RunReport, Target } from '../../harness/model/types.js';
import { SETTINGS, type Setting } from '../../harness/config/settings.js';
import { parseCommandLine, resolveConfig } from '../../harness/config/resolve.js';
import { sessionOptionsFor } from '../../harness/run/session.js';
import { tmpdir } from 'node:os';

export const API_KEY = 'self-test-key-6f1d2c9a8b';

/** An override as its setting is given on the command line: a date in ISO 8601, a number of ms with its unit where the setting is a duration. */
function asGiven(setting: Setting, value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  try {
    setting.parse(setting.env, String(value));
    return String(value);
  } catch {
    return `${value}ms`; // a duration under 100 ms needs its unit
  }
}

/**
 * The options of a self-test's run against a reference server started with API_KEY,
 * configured as a user configures a run: the settings it overrides (short timeouts, a
 * fixed date, and whatever the test gives) are written as flags and resolved as the CLI
 * resolves them (resolveConfig), so every default comes from the settings table; the
 * suite's checks, both services, and anything else (`target` whole: a run without the
 * quickstart service leaves it out) are taken as given.
 */
export function referenceRun(ref: ReferenceServer, overrides: Partial<RunOptions> = {}, apiKey = API_KEY): RunOptions {
  // a deadline a loaded machine keeps (runs take seconds, five at once per worker), under the tests' own 60 s
  const given: Record<string, unknown> = { timeoutMs: 5000, deadlineMs: 50_000, concurrency: 8, now: new Date('2026-11-22T00:00:00Z'), ...overrides };
  const flags: string[] = [];
  const env: Record<string, string> = {};
  const rest: Partial<RunOptions> = {};
  for (const [key, value] of Object.entries(given)) {
    // `target` is the run's target here, not the TARGET setting that picks a base address
    const setting = key === 'target' ? undefined : (SETTINGS as Record<string, Setting>)[key];
    if (!setting) Object.assign(rest, { [key]: value });
    else if (setting.boolean) env[setting.env] = value ? 'on' : 'off';
    else if (value !== undefined) flags.push(`--${setting.flag}`, asGiven(setting, value));
  }
  const config = resolveConfig(parseCommandLine(flags), env, tmpdir());
  const target: Target = { environment: 'embedded', baseUrl: ref.baseUrl, apiKey, quickstartBaseUrl: ref.quickstartBaseUrl, quickstartApiKey: apiKey };
  return { ...conformanceSuite(), ...sessionOptionsFor(config, target), ...rest };
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
