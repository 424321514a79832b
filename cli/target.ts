// The target of a run: the configured server, or the embedded reference server
// (started on 127.0.0.1 with a fresh random key) when no target is configured or
// TARGET=embedded. The reference server (and the schema compiler it validates with) is
// loaded only then.
import { randomBytes } from 'node:crypto';
import type { RunConfig } from '../harness/config/settings.js';
import type { Target } from '../harness/model/types.js';
import type { ReferenceServer } from '../reference/server.js';

export async function startTarget(config: RunConfig): Promise<{ target: Target; server?: ReferenceServer }> {
  if (config.environment !== 'embedded') {
    return {
      target: {
        environment: config.environment,
        baseUrl: config.baseUrl!,
        apiKey: config.apiKey!,
        quickstartBaseUrl: config.quickstartBaseUrl,
        quickstartApiKey: config.quickstartApiKey,
      },
    };
  }
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
    },
  };
}
