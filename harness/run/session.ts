// One conformance run against one target: the HTTP client, the shared fixtures, and
// running a requirement's check into a result. The CLI, the Vitest suites and the
// self-tests all run checks through a Session.
import { randomBytes, randomInt } from 'node:crypto';
import { MAX_SEED } from '../config/settings.js';
import { HttpClient } from '../http/client.js';
import { ExchangeFailed, isRateLimit, type Exchange, type HttpRequest } from '../http/exchange.js';
import { buildRequest, fillPath, quickstartKey, type CallOptions, type Service } from './request.js';
import { Fixtures } from './fixtures.js';
import type { PetValues } from '../api/bodies.js';
import { Redactor, nearMisses, randomKeyLike } from '../http/redact.js';
import { isRemoved, type Specs } from '../api/spec.js';
import type { Requirement, RunReport, Target } from '../model/types.js';
import type { RunConfig } from '../config/settings.js';
import { latencyByOperation } from '../http/latency.js';
import { TOOL } from '../model/tool.js';
import { DEFAULT_CONSISTENCY_WINDOW_MS, DEFAULT_MAX_BODY_BYTES } from '../config/settings.js';
import { CheckError } from '../model/outcome.js';
import { durationSetting, formatSeconds, formatSize, sizeSetting } from '../model/units.js';

export type ReportBase = Omit<RunReport, 'verdict' | 'exitCode' | 'incompleteReason' | 'coverage' | 'counts' | 'areas' | 'requirements' | 'sinceBaseline'>;

/** The settings a session reads, by their RunConfig names (harness/config/settings.ts documents each). */
const SESSION_SETTINGS = [
  'profile',
  'timeoutMs',
  'deadlineMs',
  'maxBodyBytes',
  'concurrency',
  'now',
  'strict',
  'retries',
  'categoryId',
  'clockToleranceMs',
  'maxLatencyMs',
  'rate',
  'consistencyWindowMs',
  'examples',
  'seed',
  'keyVariants',
] as const;
type SessionSetting = (typeof SESSION_SETTINGS)[number];
/** Those every session is given; the rest have defaults here, so a self-test may leave them out. */
type Needed = 'profile' | 'timeoutMs' | 'deadlineMs' | 'concurrency' | 'now';

export type SessionOptions = Pick<RunConfig, Needed> &
  Partial<Pick<RunConfig, Exclude<SessionSetting, Needed>>> & {
    target: Target;
    /** Stops the run from outside (the CLI on SIGINT or SIGTERM): no request is sent after it, as after the deadline. */
    signal?: AbortSignal;
  };

/** The session options a configuration gives, for one target. */
export function sessionOptionsFor(config: RunConfig, target: Target): SessionOptions {
  return { target, ...Object.fromEntries(SESSION_SETTINGS.map((key) => [key, config[key]])) } as SessionOptions;
}

/** Generated animals in a certify run unless --examples says otherwise: few, as each is created. */
export const DEFAULT_EXAMPLES = 5;

/**
 * Hides the target's keys in every output, as $API_KEY and $QUICKSTART_API_KEY, and
 * every near-miss key the run sends as the bash expression of them that gives it back.
 */
export function redactorFor(target: Target): Redactor {
  return new Redactor(
    keysOf(target).flatMap(({ value, label }) => [
      { value, label },
      ...nearMisses(value, label),
      // the key glued to the scheme (AUTH-NO-SCHEME): a short key is otherwise only hidden where it stands alone
      { value: `Bearer${value}`, label: `Bearer${label}` },
    ]),
  );
}

/** The target's keys with the shell variable each is shown as. */
export function keysOf(target: Target): Array<{ value: string; label: string }> {
  return [
    { value: target.apiKey, label: '$API_KEY' },
    ...(target.quickstartApiKey && target.quickstartApiKey !== target.apiKey ? [{ value: target.quickstartApiKey, label: '$QUICKSTART_API_KEY' }] : []),
  ];
}

/** The run cannot be made (target unreachable or too slow, key rejected, rate limited past the deadline): exit code 2. */
export class RunAborted extends Error {}

/**
 * Answers to the preflight's list, with the key, that say the address is not the API's
 * (its documented answers are 200, and 401 for a rejected key): 404 no such route, 405
 * the path without the method, 410 an API that is gone, 501 a server that does not
 * implement the method there, 403 a firewall or another service refusing everything.
 * Judging the checks against it would report dozens of failures that only say that.
 */
const NOT_THE_API = [403, 404, 405, 410, 501];

export class Session {
  readonly client: HttpClient;
  readonly redactor: Redactor;
  readonly fixtures: Fixtures;
  /** Names everything the run creates, so its data is recognisable in the store. */
  readonly runPrefix = `conformance-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  readonly startedAt = new Date();
  /** Seed of every value the run draws at random (--seed), drawn when not given so that the run can be replayed. */
  readonly seed: number;
  private readonly deadline = new AbortController();
  /** Aborted, with the reason, when the target stopped answering (client.ts): the run stops. */
  private readonly halt = new AbortController();
  /** The body cap (--max-body). */
  private readonly maxBodyBytes: number;
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly options: SessionOptions,
    readonly specs: Specs,
  ) {
    this.redactor = redactorFor(options.target);
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.client = new HttpClient({
      timeoutMs: options.timeoutMs,
      maxBodyBytes: this.maxBodyBytes,
      concurrency: options.concurrency,
      retries: options.retries ?? 0,
      signal: this.deadline.signal,
      userAgent: `${TOOL.name}/${TOOL.version}`,
      redactor: this.redactor,
      rate: options.rate,
      probeFor: (silent) => this.livenessProbe(silent),
      onStop: (reason) => this.halt.abort(reason),
    });
    this.timer = setTimeout(() => this.deadline.abort(), options.deadlineMs);
    this.timer.unref();
    if (options.signal?.aborted) this.deadline.abort();
    options.signal?.addEventListener('abort', () => this.deadline.abort(), { once: true });
    this.fixtures = new Fixtures(this);
    this.seed = options.seed ?? randomInt(MAX_SEED);
  }

  /** How many animals the run generates from the schema: none but in certify. */
  get examples(): number {
    return this.options.profile === 'certify' ? (this.options.examples ?? DEFAULT_EXAMPLES) : 0;
  }

  /** The values the run gives a NewPet's required fields. */
  petValues(name: string): PetValues {
    return { name, categoryId: this.options.categoryId ?? 1 };
  }

  get deadlinePassed(): boolean {
    return this.deadline.signal.aborted;
  }

  /** Aborted, with the reason as a sentence, when the target stopped answering. */
  get stopped(): AbortSignal {
    return this.halt.signal;
  }

  /**
   * The request that tells a service that stopped answering from one that leaves one
   * kind of request unanswered, sent to the service the silent request went to: its
   * preflight's (listPets with the key, no query; a message without its field), or, when
   * that very request went unanswered, another as harmless (the smallest limit; a
   * message that is not a string).
   */
  private livenessProbe(silent: HttpRequest): HttpRequest {
    const service = silent.service ?? 'store';
    const [op, first, second] =
      service === 'quickstart'
        ? [this.specs.quickstart.operation('sendMessage'), { json: {} }, { json: { message: 0 } }]
        : [this.specs.store.operation('listPets'), {}, { query: { limit: this.specs.store.limit.min } }];
    const [probe, other] = [first, second].map((options) => buildRequest(this.options.target, service, op.method, op.path, options, op.id));
    return silent.method === probe.method && silent.url === probe.url && silent.body === probe.body ? other : probe;
  }

  /**
   * Whether the run sends the key in other spellings (near-misses, other schemes, the
   * query): by default in certify only, since a gateway that logs rejected tokens would
   * keep the production key from every scheduled health run (--key-variants).
   */
  get keyVariants(): boolean {
    return this.options.keyVariants ?? this.options.profile === 'certify';
  }

  private readonly randomKeys = new Map<string, string>();

  /** One random key of this key's format and length for the whole run (randomKeyLike). */
  randomKeyFor(key: string): string {
    if (!this.randomKeys.has(key)) this.randomKeys.set(key, randomKeyLike(key, randomInt));
    return this.randomKeys.get(key)!;
  }

  /** The quickstart service's key: its own, or the animal store's. */
  get quickstartApiKey(): string {
    return quickstartKey(this.options.target);
  }

  get consistencyWindowMs(): number {
    return this.options.consistencyWindowMs ?? DEFAULT_CONSISTENCY_WINDOW_MS;
  }

  /**
   * Every answer of one service that counts, in the order sent: a same-origin redirect
   * the client followed is not one (the hop after it is), nor an answer another attempt
   * was sent in place of (a rate limit, a retry). By the service each request was built
   * for, never by URL: a quickstart service at the store's origin root, or under a
   * sibling path (/v1-quickstart), shares the store's URL prefix.
   */
  answered(service: Service): Exchange[] {
    return this.client.exchanges.filter((ex) => ex.request.service === service && ex.status > 0 && !ex.followed && !ex.superseded);
  }

  /** 5xx answers of one service that a later attempt of the same request recovered from (--retries): not judged, but said. */
  recovered(service: Service): Exchange[] {
    return this.client.exchanges.filter((ex) => {
      const final = ex.final;
      return ex.request.service === service && ex.superseded && ex.status >= 500 && !isRateLimit(ex) && final.status > 0 && final.status < 500;
    });
  }

  /**
   * Why a check could not judge its requirement, in one line with the setting that
   * helps: the cause of an error result (incompleteReason is built from these).
   */
  causeOf(err: unknown): string {
    const { deadlineMs, timeoutMs, concurrency } = this.options;
    if (this.deadlinePassed) return `the run deadline (${formatSeconds(deadlineMs)}) passed first; try a longer --deadline`;
    if (!(err instanceof CheckError)) return 'a check crashed (a bug of the suite: please report it)';
    const failed = err instanceof ExchangeFailed ? err.exchange : undefined;
    const resent = failed?.sentAlone ? ', also when sent alone' : '';
    const maxBody = this.maxBodyBytes;
    switch (failed?.failure) {
      case 'body-cap':
        return `a response body was cut off at ${formatSize(maxBody)}; try --max-body ${sizeSetting(maxBody * 4)}`;
      case 'timeout':
        return `no answer within ${formatSeconds(timeoutMs)}${resent}; try --timeout ${durationSetting(timeoutMs * 3)} or --concurrency ${Math.max(1, Math.floor(concurrency / 4))}`;
      case 'connection':
        return `no answer (${failed.error})${resent}; try --retries 2`;
      default:
        return err.message;
    }
  }

  /** Calls an operation of either service by its operationId, built from the spec. */
  async call(service: Service, operationId: string, options: CallOptions = {}): Promise<Exchange> {
    const op = (service === 'store' ? this.specs.store : this.specs.quickstart).operation(operationId);
    // a removed operation need not exist any more: a check that sends it is a bug of the suite
    if (isRemoved(op, this.options.now)) throw new Error(`${operationId} is past its removal date (${op.removalDate}): no check may send it`);
    return this.request(service, op.method, fillPath(op.path, operationId, options.params), options, op.id);
  }

  /**
   * Sends a method and a path (relative to the service's base address): the one place
   * a request is built. call() sends the documented operations through it; the error
   * probes send a route and a method the description does not have (no operationId,
   * so they count in no operation's latency).
   */
  async request(service: Service, method: string, path: string, options: CallOptions = {}, operation?: string): Promise<Exchange> {
    return this.client.send(buildRequest(this.options.target, service, method, path, options, operation));
  }

  /** The quiet sample's exchanges: their latency is reported apart from the run's under load. */
  private readonly quiet = new Set<Exchange>();

  /** Sends a request of the run again, as part of the quiet sample (a quiet requirement's check, which runs alone). */
  async resendQuiet(request: HttpRequest): Promise<Exchange> {
    const ex = await this.client.send(request);
    this.quiet.add(ex);
    return ex;
  }

  /**
   * Checks that each service answers and accepts its key, before anything is judged:
   * an authenticated list of the animal store; for the quickstart service, a message
   * without its required field (which a conforming server refuses with 400, so nothing
   * is queued). Throws RunAborted when nothing answers, a configured key itself is
   * rejected, or the address is not the service's (NOT_THE_API), instead of reporting
   * dozens of failures that only say that. A 200 that breaks the rules is judged.
   */
  async preflight(): Promise<void> {
    const { environment, quickstartBaseUrl } = this.options.target;
    await Promise.all([
      this.expectAnswer(this.fixtures.preflight(), 'target', 'API_KEY and TARGET', {
        setting: environment === 'staging' ? 'STAGING_BASE_URL' : 'BASE_URL',
        key: 'API_KEY',
        service: 'the Animal Store API',
      }),
      quickstartBaseUrl &&
        this.expectAnswer(this.fixtures.messagePreflight(), 'quickstart service', 'QUICKSTART_API_KEY', {
          setting: 'QUICKSTART_BASE_URL',
          key: 'QUICKSTART_API_KEY',
          service: 'the quickstart message service',
          // the usual mistake: the address ends in /v1, or is the animal store's
          hint: "it is the service's base address, without /v1; POST /messages is appended",
        }),
    ]);
  }

  private async expectAnswer(
    exchange: Promise<Exchange>,
    what: string,
    keySettings: string,
    address: { setting: string; key: string; service: string; hint?: string },
  ): Promise<void> {
    let ex: Exchange;
    try {
      ex = await exchange;
    } catch (err) {
      const limited = this.rateLimitAbort();
      if (limited) throw limited;
      const failed = err instanceof ExchangeFailed ? err.exchange : undefined;
      if (failed?.failure === 'timeout') {
        const { timeoutMs } = this.options;
        throw new RunAborted(`the ${what} did not answer within ${timeoutMs / 1000} s (REQUEST_TIMEOUT_MS): ${failed.summary}`);
      }
      // a status line arrived but the body was cut at the cap: the service answers,
      // and the checks will say what is wrong with it
      if (failed && failed.status > 0) return;
      throw new RunAborted(`${what} unreachable: ${(err as Error).message}`);
    }
    if (ex.status === 401) throw new RunAborted(`the configured key was rejected by the ${what}: ${ex.summary} (check ${keySettings})`);
    if (NOT_THE_API.includes(ex.status)) {
      const answer = `${ex.status} ${ex.mediaType || '(no Content-Type)'}`;
      // a 403 may also be a key without access to the API, not only another address
      const forbidden = ex.status === 403 ? `, or ${address.key} has no access to it` : '';
      const hint = address.hint ? ` (${address.hint})` : '';
      throw new RunAborted(
        `${address.setting} does not look like ${address.service}${forbidden}: ${ex.request.method} ${ex.request.url} with the key -> ${answer}${hint}`,
      );
    }
  }

  /**
   * Set when the run could not finish because the server kept answering 429 until
   * the deadline passed: the run is then one that could not be made (exit code 2),
   * with a remedy. The one place that decides it.
   */
  rateLimitAbort(): RunAborted | undefined {
    if (!this.client.rateLimitedAtDeadline) return undefined;
    const limited = this.client.rateLimitedCount;
    const others = this.client.exchanges.filter((ex) => ex.status > 0 && !isRateLimit(ex)).length;
    // the pace the server did accept, as the rate to try
    const seconds = (Date.now() - this.startedAt.getTime()) / 1000;
    const rate = Math.max(1, Math.floor(others / Math.max(seconds, 1)));
    const with503 = this.client.exchanges.some((ex) => isRateLimit(ex) && ex.status === 503);
    const answers = `${limited} answers 429${with503 ? ' or 503 with Retry-After' : ''}`;
    return new RunAborted(`the server rate-limited the run (${answers}) until the deadline passed; try --rate ${rate} or a longer --deadline`);
  }

  /** Why a requirement is not run against this target, if it is not: its profile, or a service not configured. */
  skipReason(requirement: Requirement): string | undefined {
    if (!requirement.profiles.includes(this.options.profile)) {
      return `not run in the ${this.options.profile} profile (runs in: ${requirement.profiles.join(', ')})`;
    }
    if (requirement.area === 'quickstart' && !this.options.target.quickstartBaseUrl) {
      return 'QUICKSTART_BASE_URL is not set: the quickstart message service is not certified';
    }
    return undefined;
  }

  /**
   * Everything the report says about the run apart from the results; a run the
   * server rate-limited past its deadline is reported as one that could not be made.
   */
  reportBase(abortReason = this.rateLimitAbort()?.message): ReportBase {
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
      runPrefix: this.runPrefix,
      animalsCreated: this.client.exchanges.filter((ex) => ex.request.operation === 'createPet' && ex.succeeded).length,
      writesAccepted: this.writesAccepted(),
      // every value drawn at random (interior query values, generated animals) is drawn again with --seed
      seed: this.seed,
      requestCount: this.client.requestCount,
      retries: this.client.retryCount,
      rateLimited: this.client.rateLimitedCount,
      latency: latencyByOperation(this.client.exchanges.filter((ex) => !this.quiet.has(ex))),
      ...(this.quiet.size && { latencyQuiet: latencyByOperation([...this.quiet]) }),
    };
  }

  /** The run's writes a server answered 2xx (each once: not a redirect followed, not an answer sent again), by operation. */
  private writesAccepted(): Record<string, number> {
    const by: Record<string, number> = {};
    for (const ex of this.client.exchanges) {
      const { method, operation, url } = ex.request;
      if (['GET', 'HEAD', 'OPTIONS'].includes(method) || !ex.succeeded || ex.followed || ex.superseded) continue;
      const what = operation ?? `${method} ${new URL(url).pathname}`;
      by[what] = (by[what] ?? 0) + 1;
    }
    return by;
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    await this.client.close();
  }
}
