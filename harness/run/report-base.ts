// The session's figures in the report (reportBaseOf). They read the session, so they
// are in the run layer, above the verdict that builds the report from them
// (harness/verdict/report.ts).
import type { ReportBase } from '../verdict/report.js';
import type { Session } from './session.js';
import { latencyByOperation } from '../http/latency.js';
import { isSafeMethod } from '../http/exchange.js';
import { TOOL } from '../model/tool.js';

/** The run's writes a server answered 2xx, each counted once (Session.answered), by operation. */
function writesAccepted(session: Session): Record<string, number> {
  const by: Record<string, number> = {};
  for (const ex of [...session.answered('store'), ...session.answered('quickstart')]) {
    const { method, operation, url } = ex.request;
    if (isSafeMethod(method) || !ex.succeeded) continue;
    const what = operation ?? `${method} ${new URL(url).pathname}`;
    by[what] = (by[what] ?? 0) + 1;
  }
  return by;
}

/** Everything the report says about the run apart from the results; `abortReason` when it could not be made or was stopped. */
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
    // every value drawn at random (interior query values, generated animals) is drawn again with --seed
    seed: session.seed,
    requestCount: session.client.requestCount,
    retries: session.client.retryCount,
    rateLimited: session.client.rateLimitedCount,
    latency: latencyByOperation(exchanges.filter((ex) => !session.quiet.has(ex))),
    ...(session.quiet.size && { latencyQuiet: latencyByOperation([...session.quiet]) }),
  };
}
