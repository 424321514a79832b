// Configures the conformance suites as the CLI is configured, flags aside; a bad setting
// ends the run as the CLI does: one line on stderr, the reports of a refused run, exit code 2.
import type { TestProject } from 'vitest/node';
import { parseCommandLine } from '../harness/config/resolve.js';
import { ConfigError } from '../harness/config/values.js';
import { prepareRun } from '../harness/run/prepare.js';
import { sessionOptionsFor } from '../harness/run/session.js';
import { startTarget } from '../cli/target.js';
import { reportRefusedRun } from '../cli/refused-run.js';
import type { Requirement } from '../harness/model/types.js';
import { testTitle } from './test-title.js';
import type { SuiteSettings } from '../reporters/vitest-compliance.js';

async function configure() {
  // Vite's own BASE_URL (the app's base path), set when the user set none, is not a target
  const env = { ...process.env };
  if (env.BASE_URL === '/') delete env.BASE_URL;
  try {
    return await prepareRun(parseCommandLine([]), env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`animal-store-conformance: ${err.message}`);
    await reportRefusedRun(err.message, [], env);
    process.exit(2);
  }
}

export default async function setup(project: TestProject) {
  const { config, catalogue, selected, expectedFailures, baseline } = await configure();
  // -t selects tests by their full name: the run carries out only those
  const pattern = project.config.testNamePattern;
  const named = (r: Requirement) => !pattern || pattern.test(`${r.area} ${testTitle(r)}`);
  const { target, server } = await startTarget(config);
  const settings: SuiteSettings = {
    session: { ...sessionOptionsFor(config, target), now: config.now.toISOString() },
    selected: catalogue.filter((r) => selected.has(r.id) && named(r)).map((r) => r.id),
    expectedFailures: [...expectedFailures],
    reportDir: config.reportDir,
    baseline,
    exchangeLog: config.exchangeLog,
    ...(config.signKeyFile && { signKeyFile: config.signKeyFile }),
  };
  project.provide('conformance', settings);
  return async () => {
    await server?.close();
  };
}
