// The two ends of a run: its target, and its reports. With no target configured the embedded
// reference server is started; it, and the schema compiler it validates with, are loaded only then.
import { randomBytes } from 'node:crypto';
import type { RunConfig } from '../harness/config/settings.js';
import type { RunReport, Target } from '../harness/model/types.js';
import type { PreparedRun } from '../harness/run/prepare.js';
import type { Redactor } from '../harness/http/redact.js';
import type { Finish } from '../reporters/finish.js';
import type { ReferenceServer } from '../reference/server.js';

export const configuredTarget = (config: RunConfig): Target => ({
  environment: config.environment,
  baseUrl: config.baseUrl!,
  apiKey: config.apiKey ?? '',
  quickstartBaseUrl: config.quickstartBaseUrl,
  quickstartApiKey: config.quickstartApiKey,
  deployment: config.deployment,
});

export async function startTarget(config: RunConfig): Promise<{ target: Target; server?: ReferenceServer }> {
  if (config.environment !== 'embedded') return { target: configuredTarget(config) };
  const apiKey = randomBytes(18).toString('base64url');
  const { startReferenceServer } = await import('../reference/server.js');
  // health creates nothing, so it gets a store that already holds animals to read
  const server = await startReferenceServer({ apiKey, prefill: config.profile === 'health' ? 30 : 0 });
  return {
    server,
    target: {
      environment: 'embedded',
      baseUrl: server.baseUrl,
      apiKey,
      // a configured quickstart service is certified; otherwise the embedded one
      quickstartBaseUrl: config.quickstartBaseUrl ?? server.quickstartBaseUrl,
      quickstartApiKey: config.quickstartBaseUrl ? config.quickstartApiKey : apiKey,
      deployment: config.deployment,
    },
  };
}

export async function finishCliRun(report: RunReport, run: PreparedRun, redactor: Redactor, env: NodeJS.ProcessEnv, more: Partial<Finish>): Promise<void> {
  // loaded when the reports are written, not before the first request
  const { finishRun } = await import('../reporters/finish.js');
  await finishRun(report, {
    reportDir: run.config.reportDir,
    baseline: run.baseline,
    env,
    redact: (text) => redactor.redact(text),
    print: (text) => process.stdout.write(`${text}\n`),
    signKey: run.signKey,
    ...more,
  });
}
