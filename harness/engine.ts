// Runs the whole catalogue against one target: preflight, every check at once
// (requests are bounded by the client's pool), observers last, then the report.
import { loadCatalogue } from './catalogue.js';
import { buildReport } from './report.js';
import { RunAborted, Session, type SessionOptions } from './session.js';
import { loadSpecs, type Specs } from './spec.js';
import { CHECKS } from './registry.js';
import { TOOL } from './tool.js';
import type { Requirement, RequirementResult, RunReport } from './types.js';
import '../checks/index.js';

export interface RunOptions extends SessionOptions {
  specs?: Specs;
  catalogue?: Requirement[];
  /** Called as each requirement's result is known (progress). */
  onResult?: (result: RequirementResult) => void;
}

export async function runConformance(options: RunOptions): Promise<RunReport> {
  const startedAt = new Date();
  const specs = options.specs ?? loadSpecs();
  const catalogue = options.catalogue ?? loadCatalogue();
  const session = new Session(options, specs);
  const results: RequirementResult[] = [];
  let abortReason: string | undefined;
  const record = (r: RequirementResult) => {
    results.push(r);
    options.onResult?.(r);
  };
  try {
    await session.preflight();
    const isObserver = (r: Requirement) => CHECKS.get(r.id)?.observer ?? false;
    await Promise.all(catalogue.filter((r) => !isObserver(r)).map((r) => session.run(r).then(record)));
    await Promise.all(catalogue.filter(isObserver).map((r) => session.run(r).then(record)));
  } catch (err) {
    if (!(err instanceof RunAborted)) throw err;
    abortReason = session.redactor.redact(err.message);
    for (const r of catalogue) {
      record({ id: r.id, level: r.level, area: r.area, operation: r.operation, title: r.title, source: r.source,
        outcome: 'skipped', message: `not run: ${abortReason}`, notes: [], durationMs: 0, evidence: [] });
    }
  } finally {
    await session.close();
  }
  const finishedAt = new Date();
  const { target } = options;
  return buildReport({
    tool: TOOL,
    spec: { title: specs.store.title, version: specs.store.version },
    target: {
      environment: target.environment,
      baseUrl: target.baseUrl,
      ...(target.quickstartBaseUrl && { quickstartBaseUrl: target.quickstartBaseUrl }),
    },
    profile: options.profile,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    ...(abortReason && { abortReason }),
    requestCount: session.client.requestCount,
  }, results);
}
