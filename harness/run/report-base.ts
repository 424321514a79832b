// The session's figures in the report: in the run layer, as they read the session.
import type { ReportBase } from '../verdict/report.js';
import type { Session } from './session.js';
import { latencyByOperation } from '../http/latency.js';
import { isSafeMethod } from '../http/exchange.js';
import { TOOL } from '../model/tool.js';

function writesAccepted(session: Session) {
  const by: Record<string, number> = {};
  for (const ex of [...session.answered('store'), ...session.answered('quickstart')]) {
    const { method, operation, url } = ex.request;
    if (isSafeMethod(method) || !ex.succeeded) continue;
    const what = operation ?? `${method} ${new URL(url).pathname}`;
    by[what] = (by[what] ?? 0) + 1;
  }
  return by;
}

/** `abortReason` when the run could not be made or was stopped. */
export function reportBaseOf(session: Session, abortReason: string | undefined): ReportBase {
  const finishedAt = new Date();
  const { target, profile, strict } = session.options;
  const { exchanges } = session.client;
  return {
    tool: TOOL,
    spec: { title: session.specs.store.title, version: session.specs.store.version },
    target: {
      environment: target.environment,
      baseUrl: target.baseUrl,
      ...(target.quickstartBaseUrl && { quickstartBaseUrl: target.quickstartBaseUrl }),
      ...(target.deployment && { deployment: target.deployment }),
    },
    profile,
    strict,
    startedAt: session.startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - session.startedAt.getTime(),
    ...(abortReason && { abortReason: session.redactor.redact(abortReason) }),
    ...(session.unreachable.length > 0 && { unreachable: session.unreachable.map((u) => session.redactor.redact(u)) }),
    runPrefix: session.runPrefix,
    animalsCreated: exchanges.filter((ex) => ex.request.operation === 'createPet' && ex.succeeded).length,
    writesAccepted: writesAccepted(session),
    seed: session.seed,
    requestCount: session.client.requestCount,
    retries: session.client.retryCount,
    rateLimited: session.client.rateLimitedCount,
    latency: latencyByOperation(exchanges.filter((ex) => !session.quiet.has(ex))),
    ...(session.quiet.size && { latencyQuiet: latencyByOperation([...session.quiet]) }),
  };
}
