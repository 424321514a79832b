// Configures the conformance suites exactly as the CLI is configured (flags aside):
// environment and .env; with no BASE_URL the embedded reference server is started.
import type { TestProject } from 'vitest/node';
import { parseCommandLine, resolveConfig } from '../harness/config.js';
import { startTarget } from '../harness/target.js';
import type { SuiteSettings } from '../harness/vitest-suite.js';

export default async function setup(project: TestProject) {
  // Vite puts its own BASE_URL ("/", the app's base path) into process.env when the
  // user has not set one; that one is not a target
  const env = { ...process.env };
  if (env.BASE_URL === '/') delete env.BASE_URL;
  const config = resolveConfig(parseCommandLine([]), env);
  const { target, server } = await startTarget(config);
  const settings: SuiteSettings = {
    target,
    profile: config.profile,
    timeoutMs: config.timeoutMs,
    deadlineMs: config.deadlineMs,
    concurrency: config.concurrency,
    now: config.now.toISOString(),
  };
  project.provide('conformance', settings);
  return async () => { await server?.close(); };
}
