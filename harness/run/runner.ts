// Runs the whole catalogue against one target: preflight, every check at once
// (requests are bounded by the client's pool), observers last, then the report.
import { loadCatalogue } from '../api/catalogue.js';
import { buildReport } from './report.js';
import { RunAborted, Session, type SessionOptions } from './session.js';
import { loadSpecs, type Specs } from '../api/spec.js';
import { CHECKS } from './check.js';
import type { Requirement, RequirementResult, RunReport } from '../model/types.js';
import '../../checks/index.js';

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

/** The message of a requirement that an interruption (options.signal) left unjudged. */
export const notCarriedOut = (reason: string) => `not carried out: ${reason}`;

/** Why options.signal stopped the run: its reason when that is a sentence. */
const interruption = (signal: AbortSignal) => (typeof signal.reason === 'string' ? signal.reason : 'the run was interrupted');

/** Rejects with RunAborted when the signal aborts (never settles without one). */
function whenAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    if (!signal) return;
    const abort = () => reject(new RunAborted(interruption(signal)));
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  });
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
  // a check cut short by an interruption has not judged its requirement: its result is dropped
  const recordUnlessStopped = (r: RequirementResult) => { if (!options.signal?.aborted) record(r); };
  const selected = catalogue.filter((r) => options.selected?.has(r.id) ?? true);
  const work = (async () => {
    await session.preflight();
    for (const r of catalogue.filter((r) => !selected.includes(r))) record(skippedResult(r, 'not selected (--only, --skip)'));
    const isObserver = (r: Requirement) => CHECKS.get(r.id)?.observer ?? false;
    await Promise.all(selected.filter((r) => !isObserver(r)).map((r) => session.run(r).then(recordUnlessStopped)));
    await Promise.all(selected.filter(isObserver).map((r) => session.run(r).then(recordUnlessStopped)));
  })();
  const stopped = whenAborted(options.signal);
  // either may settle when nobody waits for it any more (the run over, or interrupted)
  for (const p of [work, stopped]) p.catch(() => undefined);
  try {
    await Promise.race([work, stopped]);
  } catch (err) {
    if (!(err instanceof RunAborted)) throw err;
    abortReason = session.redactor.redact(err.message);
    // an unreachable target or a rejected key: nothing was run; an interruption: what finished stands
    const message = options.signal?.aborted ? notCarriedOut(abortReason) : `not run: ${abortReason}`;
    const judged = new Set(results.map((r) => r.id));
    for (const r of catalogue.filter((r) => !judged.has(r.id))) record(skippedResult(r, message));
  } finally {
    await session.close();
  }
  return buildReport(session.reportBase(abortReason), results);
}
