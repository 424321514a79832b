// One conformance run against one target: the HTTP client, the shared fixtures, and
// running a requirement's check into a result. The CLI, the Vitest suites and the
// self-tests all run checks through a Session.
import { randomBytes, randomInt } from 'node:crypto';
import { MAX_SEED } from './config.js';
import { HttpClient, type Exchange } from './http.js';
import { CheckContext, type CallOptions } from './context.js';
import { Fixtures } from './fixtures.js';
import { stringifyJson } from './json.js';
import type { PetValues } from './bodies.js';
import { CheckError, Inconclusive, Skip, Violation } from './outcome.js';
import { Redactor, nearMiss } from './redact.js';
import { CHECKS } from './registry.js';
import { isRemoved, type Specs } from './spec.js';
import type { Outcome, Profile, Requirement, RequirementResult, RunReport } from './types.js';
import { latencyByOperation } from './latency.js';
import { TOOL } from './tool.js';

export type ReportBase = Omit<RunReport, 'verdict' | 'exitCode' | 'counts' | 'areas' | 'requirements'>;

export interface Target {
  environment: 'production' | 'staging' | 'embedded';
  baseUrl: string;
  apiKey: string;
  quickstartBaseUrl?: string;
  quickstartApiKey?: string;
}

export interface SessionOptions {
  target: Target;
  profile: Profile;
  timeoutMs: number;
  deadlineMs: number;
  concurrency: number;
  now: Date;
  maxBodyBytes?: number;
  /** Budget for PERF-LATENCY-P95. */
  maxLatencyMs?: number;
  /** Extra attempts for idempotent requests after a network error or 503 (429s are always retried). */
  retries?: number;
  /** SHOULD failures count against the verdict. */
  strict?: boolean;
  /** The categoryId of every animal the run sends (default 1). */
  categoryId?: number;
  /** How far a server's clock may be from the suite's (default 5 minutes). */
  clockToleranceMs?: number;
  /** certify: valid animals generated from the NewPet schema (default DEFAULT_EXAMPLES). */
  examples?: number;
  /** Seed of the generated animals (default: drawn at random, shown in the report). */
  seed?: number;
}

/** Generated animals in a certify run unless --examples says otherwise: few, as each is created. */
export const DEFAULT_EXAMPLES = 5;

/** Hides the target's keys in every output, as $API_KEY and $QUICKSTART_API_KEY. */
export function redactorFor(target: Target): Redactor {
  return new Redactor(keysOf(target).flatMap(({ value, label }) => [{ value, label }, nearMiss(value, label)]));
}

/** The target's keys with the shell variable each is shown as. */
export function keysOf(target: Target): Array<{ value: string; label: string }> {
  return [
    { value: target.apiKey, label: '$API_KEY' },
    ...(target.quickstartApiKey && target.quickstartApiKey !== target.apiKey
      ? [{ value: target.quickstartApiKey, label: '$QUICKSTART_API_KEY' }] : []),
  ];
}

/** The run cannot be made (target unreachable, key rejected): exit code 2. */
export class RunAborted extends Error {}

const MAX_EVIDENCE = 8;

export class Session {
  readonly client: HttpClient;
  readonly redactor: Redactor;
  readonly fixtures: Fixtures;
  /** Names everything the run creates, so its data is recognisable in the store. */
  readonly runPrefix = `conformance-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  readonly startedAt = new Date();
  /** Seed of the generated animals (--seed), drawn when not given so that the run can be replayed. */
  readonly seed: number;
  private readonly deadline = new AbortController();
  private readonly timer: NodeJS.Timeout;

  constructor(readonly options: SessionOptions, readonly specs: Specs) {
    this.redactor = redactorFor(options.target);
    this.client = new HttpClient({
      timeoutMs: options.timeoutMs,
      maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
      concurrency: options.concurrency,
      retries: options.retries ?? 0,
      signal: this.deadline.signal,
      userAgent: `${TOOL.name}/${TOOL.version}`,
      redactor: this.redactor,
    });
    this.timer = setTimeout(() => this.deadline.abort(), options.deadlineMs);
    this.timer.unref();
    this.fixtures = new Fixtures(this);
    this.seed = options.seed ?? randomInt(MAX_SEED);
  }

  /** How many animals the run generates from the schema: none but in certify. */
  get examples(): number {
    return this.options.profile === 'certify' ? this.options.examples ?? DEFAULT_EXAMPLES : 0;
  }

  /** The values the run gives a NewPet's required fields. */
  petValues(name: string): PetValues {
    return { name, categoryId: this.options.categoryId ?? 1 };
  }

  get deadlinePassed(): boolean {
    return this.deadline.signal.aborted;
  }

  /** The quickstart service's key: its own, or the animal store's. */
  get quickstartApiKey(): string {
    return this.options.target.quickstartApiKey ?? this.options.target.apiKey;
  }

  /** Every exchange with one service that got a response, in the order sent. */
  answered(service: 'store' | 'quickstart'): Exchange[] {
    const base = service === 'store' ? this.options.target.baseUrl : this.options.target.quickstartBaseUrl;
    return base ? this.client.exchanges.filter((ex) => ex.status > 0 && ex.request.url.startsWith(base)) : [];
  }

  /** Calls an operation of either service by its operationId: the one place a request is built. */
  async call(service: 'store' | 'quickstart', operationId: string, options: CallOptions = {}): Promise<Exchange> {
    const { target } = this.options;
    const op = (service === 'store' ? this.specs.store : this.specs.quickstart).operation(operationId);
    // a removed operation need not exist any more: a check that sends it is a bug of the suite
    if (isRemoved(op, this.options.now)) throw new Error(`${operationId} is past its removal date (${op.removalDate}): no check may send it`);
    const base = service === 'store' ? target.baseUrl : target.quickstartBaseUrl!;
    const key = service === 'store' ? target.apiKey : this.quickstartApiKey;
    const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      const value = options.params?.[name];
      if (value === undefined) throw new Error(`${operationId} needs path parameter ${name}`);
      return encodeURIComponent(String(value));
    });
    const query = new URLSearchParams(Object.entries(options.query ?? {}).map(([k, v]): [string, string] => [k, String(v)])).toString();
    const headers: Record<string, string> = { accept: 'application/json' };
    const auth = options.auth ?? 'valid';
    if (auth === 'valid') headers.authorization = `Bearer ${key}`;
    else if (auth !== 'none') headers.authorization = auth.header;
    let body: string | undefined;
    if (options.raw !== undefined || options.json !== undefined) {
      body = options.raw ?? stringifyJson(options.json);
      if (options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
    }
    const url = base + path + (query ? `?${query}` : '');
    return this.client.send({ operation: op.id, method: op.method, url, headers, body });
  }

  /**
   * Checks that each service answers and accepts its key: an authenticated list of
   * the animal store; for the quickstart service, a message without its required
   * field (which a conforming server refuses with 400, so nothing is queued).
   * Throws RunAborted when nothing answers or a configured key itself is rejected,
   * instead of reporting dozens of failures that only say that.
   */
  async preflight(): Promise<void> {
    await Promise.all([
      this.expectAnswer(this.fixtures.preflight(), 'target', 'API_KEY and TARGET'),
      this.options.target.quickstartBaseUrl
        && this.expectAnswer(this.fixtures.messagePreflight(), 'quickstart service', 'QUICKSTART_API_KEY'),
    ]);
  }

  private async expectAnswer(exchange: Promise<Exchange>, what: string, settings: string): Promise<void> {
    let ex: Exchange;
    try {
      ex = await exchange;
    } catch (err) {
      // a status line arrived but the body did not (cut at the cap, too slow): the
      // service answers, and the checks will say what is wrong with it
      if (err instanceof CheckError && err.evidence[0]?.status > 0) return;
      throw new RunAborted(`${what} unreachable: ${(err as Error).message}`);
    }
    if (ex.status === 401) throw new RunAborted(`the configured key was rejected by the ${what}: ${ex.summary} (check ${settings})`);
  }

  private readonly running = new Set<Promise<RequirementResult>>();

  /** Runs one requirement's check and turns how it ended into a result. */
  run(requirement: Requirement): Promise<RequirementResult> {
    const result = this.execute(requirement);
    if (!CHECKS.get(requirement.id)?.observer) {
      this.running.add(result);
      void result.finally(() => this.running.delete(result));
    }
    return result;
  }

  /** Resolves when every check now running (observers aside) has ended. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  private async execute(requirement: Requirement): Promise<RequirementResult> {
    const started = performance.now();
    const definition = CHECKS.get(requirement.id);
    const ctx = new CheckContext(this, requirement);
    let outcome: Outcome = 'passed';
    let message: string | undefined;
    let cited: Exchange[] = [];
    try {
      if (!definition) throw new Error(`no check is registered for ${requirement.id}`);
      const skip = this.skipReason(requirement);
      if (skip) throw new Skip(skip);
      await definition.run(ctx);
    } catch (err) {
      const end = err instanceof Violation ? 'failed'
        : err instanceof Inconclusive ? 'inconclusive'
        : err instanceof Skip ? 'skipped'
        : 'error';
      outcome = end;
      message = (err as Error).message;
      if (err instanceof Violation || err instanceof Inconclusive || err instanceof CheckError) cited = err.evidence;
      if (end === 'error' && this.deadlinePassed) message = `run deadline passed: ${message}`;
      if (end === 'error' && !(err instanceof CheckError)) message = `check crashed: ${(err as Error).stack ?? message}`;
    }
    const evidence = [...cited, ...ctx.evidence.filter((e) => !cited.includes(e))].slice(0, MAX_EVIDENCE);
    return {
      id: requirement.id,
      level: requirement.level,
      area: requirement.area,
      operation: requirement.operation,
      title: requirement.title,
      source: requirement.source,
      outcome,
      ...(message !== undefined && { message: this.redactor.redact(message) }),
      notes: ctx.notes.map((n) => this.redactor.redact(n)),
      durationMs: Math.round(performance.now() - started),
      evidence: evidence.map((e) => e.record()),
    };
  }

  private skipReason(requirement: Requirement): string | undefined {
    if (!requirement.profiles.includes(this.options.profile)) {
      return `not run in the ${this.options.profile} profile (runs in: ${requirement.profiles.join(', ')})`;
    }
    if (requirement.area === 'quickstart' && !this.options.target.quickstartBaseUrl) {
      return 'QUICKSTART_BASE_URL is not set: the quickstart message service is not certified';
    }
    return undefined;
  }

  /** Everything the report says about the run apart from the results. */
  reportBase(abortReason?: string): ReportBase {
    const finishedAt = new Date();
    const { target, profile, strict } = this.options;
    return {
      tool: TOOL,
      spec: { title: this.specs.store.title, version: this.specs.store.version },
      target: {
        environment: target.environment,
        baseUrl: target.baseUrl,
        ...(target.quickstartBaseUrl && { quickstartBaseUrl: target.quickstartBaseUrl }),
      },
      profile,
      strict: strict ?? false,
      startedAt: this.startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      durationMs: finishedAt.getTime() - this.startedAt.getTime(),
      ...(abortReason && { abortReason: this.redactor.redact(abortReason) }),
      // the generated animals can be drawn again with --seed
      ...(this.examples > 0 && { seed: this.seed }),
      requestCount: this.client.requestCount,
      retries: this.client.retryCount,
      latency: latencyByOperation(this.client.exchanges),
    };
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    await this.client.close();
  }
}
