// The one runner: preflight, every selected check at once, the observers after them, the quiet ones last, alone.
import { loadCatalogue } from '../api/catalogue.js';
import { buildReport, describing, notCarriedOut, notRun, skippedResult } from '../verdict/report.js';
import { reportBaseOf } from './report-base.js';
import { RunAborted, Session, type SessionOptions } from './session.js';
import { fixturesFor, type Fixtures } from './fixtures.js';
import { loadSpecs, type Specs } from '../api/spec.js';
import type { Check } from './check.js';
import type { ListPageTable } from './list-pages.js';
import { CheckContext } from './context.js';
import { CheckError, Inconclusive, Skip, Violation, type Cited } from '../model/outcome.js';
import type { ExchangeRecord, Outcome, Requirement, RequirementResult, RunReport, Service } from '../model/types.js';
import { transcriptOf, type TranscriptEntry } from './transcript.js';

export interface RunOptions extends SessionOptions {
  checks: readonly Check[];
  listPages: ListPageTable;
  specs?: Specs;
  catalogue?: Requirement[];
  /** Default: all. */
  selected?: Set<string>;
  expectedFailures?: Map<string, string>;
  onResult?: (result: RequirementResult) => void;
}

export interface ConformanceRun {
  result(id: string): Promise<RequirementResult>;
  /** Once every result is known and the connections are closed. */
  readonly report: Promise<RunReport>;
  /** On demand: it costs a record per exchange. */
  exchanges(): Promise<TranscriptEntry[]>;
}

export const NOT_SELECTED = 'not selected (ONLY, SKIP: --only, --skip; under Vitest also -t)';

function whenAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    if (!signal) return;
    const abort = () => reject(new RunAborted(typeof signal.reason === 'string' ? signal.reason : 'the run was interrupted'));
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  });
}

/** The most exchanges a result cites: those the check named first, then those it made. */
const MAX_EVIDENCE = 8;

function skipReason(options: SessionOptions, requirement: Requirement) {
  if (!requirement.profiles.includes(options.profile)) return `not run in the ${options.profile} profile (runs in: ${requirement.profiles.join(', ')})`;
  if (requirement.area === 'quickstart' && !options.target.quickstartBaseUrl)
    return 'QUICKSTART_BASE_URL is not set: the quickstart message service is not certified';
  return undefined;
}

const serviceOf = (requirement: Requirement): Service => (requirement.area === 'quickstart' ? 'quickstart' : 'store');

export async function judge(session: Session, fixtures: Fixtures, requirement: Requirement, check: Check | undefined): Promise<RequirementResult> {
  const started = performance.now();
  const ctx = new CheckContext(session, fixtures, requirement);
  const service = serviceOf(requirement);
  let outcome: Outcome = 'passed';
  let message: string | undefined;
  let cited: Cited[] = [];
  let cause: string | undefined;
  try {
    if (!check) throw new Error(`no check is defined for ${requirement.id} (checks/index.ts)`);
    const skip = skipReason(session.options, requirement);
    if (skip) throw new Skip(skip);
    // a service that could not be reached leaves its requirements unjudged, never the other's
    const outage = session.outage(service);
    if (outage) throw new CheckError(`not run: ${outage}`);
    await check.run(ctx);
  } catch (err) {
    outcome = err instanceof Violation ? 'failed' : err instanceof Inconclusive ? 'inconclusive' : err instanceof Skip ? 'skipped' : 'error';
    message = (err as Error).message;
    if (err instanceof Violation || err instanceof Inconclusive || err instanceof CheckError) cited = err.evidence;
    if (outcome === 'error') cause = session.causeOf(err, service);
    if (outcome === 'error' && session.deadlinePassed) message = `run deadline passed: ${message}`;
    if (outcome === 'error' && !(err instanceof CheckError)) message = `check crashed: ${(err as Error).stack ?? message}`;
  }
  const evidence = [...cited, ...ctx.evidence.filter((e) => !cited.includes(e))].slice(0, MAX_EVIDENCE);
  const { redactor } = session;
  const result = {
    ...describing(requirement),
    outcome,
    ...(message !== undefined && { message: redactor.redact(message) }),
    ...(cause !== undefined && { cause: redactor.redact(cause) }),
    notes: ctx.notes.map((n) => redactor.redact(n)),
    durationMs: Math.round(performance.now() - started),
  } as RequirementResult;
  // built when a report first reads it, not between one answer and the next request
  let records: ExchangeRecord[] | undefined;
  Object.defineProperty(result, 'evidence', {
    enumerable: true,
    configurable: true,
    get: () => (records ??= evidence.map((e) => e.record())),
    set: (value: ExchangeRecord[]) => (records = value),
  });
  return result;
}

/** Starts a run; it goes on whether or not anyone asks for its results. */
export function startRun(options: RunOptions): ConformanceRun {
  const specs = options.specs ?? loadSpecs();
  const catalogue = options.catalogue ?? loadCatalogue();
  const checks = new Map(options.checks.map((c) => [c.id, c]));
  const session = new Session(options, specs);
  const fixtures = fixturesFor(session, options.listPages);
  const settle = new Map<string, (r: RequirementResult) => void>();
  const results = new Map(catalogue.map((r) => [r.id, new Promise<RequirementResult>((resolve) => settle.set(r.id, resolve))]));
  const known: RequirementResult[] = [];
  let crashed = false;
  const record = (r: RequirementResult) => {
    if (!settle.has(r.id)) return; // known already
    const reason = options.expectedFailures?.get(r.id);
    if (reason !== undefined) r.expectedFailure = reason;
    settle.get(r.id)!(r);
    settle.delete(r.id);
    known.push(r);
    if (!crashed) options.onResult?.(r);
  };
  const cutShort = () => Boolean(options.signal?.aborted || session.stopped.aborted);
  // a check cut short has not judged its requirement
  const recordUnlessStopped = (r: RequirementResult) => {
    if (!cutShort()) record(r);
  };
  const runEach = (requirements: Requirement[]) =>
    Promise.all(requirements.map((r) => judge(session, fixtures, r, checks.get(r.id)).then(recordUnlessStopped)));

  const report = (async () => {
    const selected = catalogue.filter((r) => options.selected?.has(r.id) ?? true);
    const work = (async () => {
      await session.preflight();
      for (const r of catalogue.filter((r) => !selected.includes(r))) record(skippedResult(r, NOT_SELECTED));
      await runEach(selected.filter((r) => !r.observer && !r.quiet));
      await runEach(selected.filter((r) => r.observer && !r.quiet));
      // each alone: what they measure must not queue behind the run's own requests
      for (const r of selected.filter((r) => r.quiet)) await runEach([r]);
    })();
    const stopped = [whenAborted(options.signal), whenAborted(session.stopped)];
    // any may settle when nobody waits for it any more
    for (const p of [work, ...stopped]) p.catch(() => undefined);
    let abortReason: string | undefined;
    try {
      await Promise.race([work, ...stopped]);
    } catch (err) {
      if (!(err instanceof RunAborted)) {
        // a crash of the runner itself (or of onResult): every result still waiting fails with it
        crashed = true;
        for (const r of catalogue) record({ ...skippedResult(r, `the run crashed: ${(err as Error).message}`), outcome: 'error' });
        throw err;
      }
      abortReason = session.redactor.redact(err.message);
      // an unreachable target or a rejected key: nothing was run; cut short: what finished stands
      const message = cutShort() ? notCarriedOut(abortReason) : notRun(abortReason);
      for (const r of catalogue) record(skippedResult(r, message));
    } finally {
      await session.close();
    }
    const order = new Map(catalogue.map((r, i) => [r.id, i]));
    // a run the server rate-limited past its deadline could not be made
    const base = reportBaseOf(session, abortReason ?? session.rateLimitAbort()?.message);
    return buildReport(
      base,
      known.sort((a, b) => order.get(a.id)! - order.get(b.id)!),
    );
  })();
  // whoever awaits the report sees a crash; one who only asks for results is not brought down by it
  report.catch(() => undefined);
  return {
    result: (id) => results.get(id) ?? Promise.reject(new Error(`${id} is not in the requirement catalogue`)),
    report,
    exchanges: () => report.then(() => transcriptOf(session)),
  };
}

export function runConformance(options: RunOptions): Promise<RunReport> {
  return startRun(options).report;
}
