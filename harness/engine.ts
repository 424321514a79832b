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

export async function runConformance(options: RunOptions): Promise<RunReport> {
  const specs = options.specs ?? loadSpecs();
  const catalogue = options.catalogue ?? loadCatalogue();
  const session = new Session(options, specs);
  const results: RequirementResult[] = [];
  let abortReason: string | undefined;
  const record = (r: RequirementResult) => {
    const reason = options.expectedFailures?.get(r.id);
    if (reason !== undefined) {
      r.expectedFailure = reason;
      if (r.outcome === 'passed') r.notes.push('listed as an expected failure but passed: remove it from the expected-failures file');
    }
    results.push(r);
    options.onResult?.(r);
  };
  const skipped = (r: Requirement, message: string): RequirementResult => ({
    id: r.id, level: r.level, area: r.area, operation: r.operation, title: r.title, source: r.source,
    outcome: 'skipped', message, notes: [], durationMs: 0, evidence: [],
  });
  const selected = catalogue.filter((r) => options.selected?.has(r.id) ?? true);
  try {
    await session.preflight();
    for (const r of catalogue.filter((r) => !selected.includes(r))) record(skipped(r, 'not selected (--only, --skip)'));
    const isObserver = (r: Requirement) => CHECKS.get(r.id)?.observer ?? false;
    await Promise.all(selected.filter((r) => !isObserver(r)).map((r) => session.run(r).then(record)));
    await Promise.all(selected.filter(isObserver).map((r) => session.run(r).then(record)));
  } catch (err) {
    if (!(err instanceof RunAborted)) throw err;
    abortReason = err.message;
    for (const r of catalogue) record(skipped(r, `not run: ${session.redactor.redact(abortReason)}`));
  } finally {
    await session.close();
  }
  return buildReport(session.reportBase(abortReason), results);
}
