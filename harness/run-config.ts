// Everything a run needs before it starts, resolved the same way for the CLI and
// for the Vitest suites: configuration, the selected requirements, the known
// deviations, a writable report folder; and the session options it gives.
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { loadCatalogue } from './catalogue.js';
import { ConfigError, resolveConfig, type ParsedArgs, type RunConfig } from './config.js';
import { readExpectedFailures, selectRequirements } from './selection.js';
import type { SessionOptions, Target } from './session.js';
import type { Requirement } from './types.js';

export interface PreparedRun {
  config: RunConfig;
  catalogue: Requirement[];
  selected: Set<string>;
  expectedFailures: Map<string, string>;
}

/** Finds an unusable REPORT_DIR before the run, not after it has created data. */
async function ensureWritableDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch (err) {
    throw new ConfigError(`cannot write reports to ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** Throws ConfigError (one line, exit code 2) for any bad input. */
export async function prepareRun(args: ParsedArgs, env: NodeJS.ProcessEnv): Promise<PreparedRun> {
  const config = resolveConfig(args, env);
  await ensureWritableDir(config.reportDir);
  const catalogue = loadCatalogue();
  return {
    config,
    catalogue,
    selected: selectRequirements(catalogue, config.only, config.skip),
    expectedFailures: config.expectedFailuresFile ? readExpectedFailures(config.expectedFailuresFile, catalogue) : new Map(),
  };
}

export function sessionOptionsFor(config: RunConfig, target: Target): SessionOptions {
  return {
    target,
    profile: config.profile,
    timeoutMs: config.timeoutMs,
    deadlineMs: config.deadlineMs,
    concurrency: config.concurrency,
    now: config.now,
    strict: config.strict,
    retries: config.retries,
    categoryId: config.categoryId,
    maxLatencyMs: config.maxLatencyMs,
    examples: config.examples,
    seed: config.seed,
  };
}
