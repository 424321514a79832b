// Runs the whole catalogue against one target: preflight, every check at once
// (requests are bounded by the client's pool), observers last, then the report.
import { loadCatalogue } from './catalogue.js';
import { buildReport } from './report.js';
import { RunAborted, Session, type SessionOptions } from './session.js';
import { loadSpecs, type Specs } from './spec.js';
import { CHECKS } from './registry.js';
import type { Requirement, RequirementResult, RunReport } from './types.js';
import '../checks/index.js';

export interface RunOptions extends SessionOptions {
  specs?: Specs;
  catalogue?: Requirement[];
  /** The ids to run (--only, --skip); the rest are reported as skipped. Default: all. */
  selected?: Set<string>;
  /** Accepted deviations by id, with their reasons (--expected-failures). */
  expectedFailures?: Map<string, string>;
  /** Called as each requirement's result is known (progress). */
  onResult?: (result: RequirementResult) => void;
}

/** The result of a requirement the run does not carry out. */
export function skippedResult(r: Requirement, message: string): RequirementResult {
  return {
    id: r.id, level: r.level, area: r.area, operation: r.operation, title: r.title, source: r.source,
    outcome: 'skipped', message, notes: [], durationMs: 0, evidence: [],
  };
}

/**
 * A requirement listed in the known-deviations file carries its reason; the
 * reporters say what that means for each outcome (one that passed: remove it).
 */
export function markExpectedFailure(result: RequirementResult, expectedFailures?: Map<string, string>): RequirementResult {
  const reason = expectedFailures?.get(result.id);
  if (reason !== undefined) result.expectedFailure = reason;
  return result;
}

export async function runConformance(options: RunOptions): Promise<RunReport> {
  const specs = options.specs ?? loadSpecs();
  const catalogue = options.catalogue ?? loadCatalogue();
  const session = new Session(options, specs);
  const results: RequirementResult[] = [];
  let abortReason: string | undefined;
  const record = (r: RequirementResult) => {
    results.push(markExpectedFailure(r, options.expectedFailures));
    options.onResult?.(r);
  };
  const selected = catalogue.filter((r) => options.selected?.has(r.id) ?? true);
  try {
    await session.preflight();
    for (const r of catalogue.filter((r) => !selected.includes(r))) record(skippedResult(r, 'not selected (--only, --skip)'));
    const isObserver = (r: Requirement) => CHECKS.get(r.id)?.observer ?? false;
    await Promise.all(selected.filter((r) => !isObserver(r)).map((r) => session.run(r).then(record)));
    await Promise.all(selected.filter(isObserver).map((r) => session.run(r).then(record)));
  } catch (err) {
    if (!(err instanceof RunAborted)) throw err;
    abortReason = err.message;
    for (const r of catalogue) record(skippedResult(r, `not run: ${session.redactor.redact(abortReason)}`));
  } finally {
    await session.close();
  }
  return buildReport(session.reportBase(abortReason), results);
}
