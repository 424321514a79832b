// One conformance run's transport: the HTTP client, redaction of the keys and of every
// credential made from them, the preflight that decides whether the run can be made,
// the liveness of each service, and the run's clock (deadline, consistency window). The
// runner builds the fixtures and the check contexts over it.
import { randomBytes, randomInt } from 'node:crypto';
import { HttpClient } from '../http/client.js';
import { ExchangeFailed, isRateLimit, isServerError, type Exchange, type HttpRequest } from '../http/exchange.js';
import { buildRequest, fillPath, quickstartKey, type CallOptions, type Service } from './request.js';
import type { PetValues } from '../api/bodies.js';
import { Redactor } from '../http/redact.js';
import { isRemoved, type Specs } from '../api/spec.js';
import type { Target } from '../model/types.js';
import type { RunSettings, RunConfig } from '../config/settings.js';
import { TOOL } from '../model/tool.js';
import { CheckError } from '../model/outcome.js';
import { durationSetting, formatSeconds, formatSize, sizeSetting } from '../model/units.js';
import { plural } from '../model/words.js';
import { credentialClasses, randomKeyLike, secretsOf, type CredentialClass } from '../api/credentials.js';
import type { ConsistencyWindow } from './window.js';

/** A run's settings, every one with its value (resolveConfig), and the target it certifies. */
export type SessionOptions = RunSettings & {
  target: Target;
  /** Stops the run from outside (the CLI on SIGINT or SIGTERM): no request is sent after it, as after the deadline. */
  signal?: AbortSignal;
  /** The name the data was given (a judged record's: this tool's exchanges.har says it); a run draws its own. */
  runPrefix?: string;
};

/** The session options a configuration gives, for one target: the one place a run's options are built. */
export function sessionOptionsFor(config: RunConfig, target: Target): SessionOptions {
  const {
    environment: _environment,
    baseUrl: _baseUrl,
    apiKey: _apiKey,
    quickstartBaseUrl: _quickstartBaseUrl,
    quickstartApiKey: _quickstartApiKey,
    reportDir: _reportDir,
    only: _only,
    skip: _skip,
    expectedFailuresFile: _expectedFailuresFile,
    baselineFile: _baselineFile,
    exchangeLog: _exchangeLog,
    signKeyFile: _signKeyFile,
    ...settings
  } = config;
  return { ...settings, target };
}

/** Hides the target's keys in every output, as $API_KEY and $QUICKSTART_API_KEY; the credentials a run makes from them are added as they are made (Session.credentials). */
export function redactorFor(target: Target): Redactor {
  return new Redactor(keysOf(target));
}

/** The target's keys with the shell variable each is shown as. */
function keysOf(target: Target): Array<{ value: string; label: string }> {
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

/** An HTML page, not JSON: what a web front end answers. */
const isWebPage = (ex: Exchange) => ex.json === undefined && ['text/html', 'application/xhtml+xml'].includes(ex.mediaType);

export class Session implements ConsistencyWindow {
  readonly client: HttpClient;
  readonly redactor: Redactor;
  /** Names everything the run creates, so its data is recognisable in the store. */
  readonly runPrefix: string;
  readonly startedAt = new Date();
  private readonly deadline = new AbortController();
  /** Aborted, with the reason, when the animal store stopped answering (client.ts): the run stops. */
  private readonly halt = new AbortController();
  /** The services the run could not reach (down from the start, or stopped answering), with why. */
  private readonly outages = new Map<Service, string>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly options: SessionOptions,
    readonly specs: Specs,
  ) {
    this.runPrefix = options.runPrefix ?? `conformance-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
    this.redactor = redactorFor(options.target);
    this.client = new HttpClient({
      timeoutMs: options.timeoutMs,
      maxBodyBytes: options.maxBodyBytes,
      concurrency: options.concurrency,
      retries: options.retries,
      signal: this.deadline.signal,
      userAgent: `${TOOL.name}/${TOOL.version}`,
      redactor: this.redactor,
      rate: options.rate,
      probeFor: (silent) => this.livenessProbe(silent),
      onStop: (service, reason) => {
        this.down(service, reason);
        if (service !== 'store') return;
        // the store stopping ends the run, as it always has: what was judged stands, and nothing more is sent
        this.client.stop('quickstart', reason);
        this.halt.abort(this.unreachable.join('; '));
      },
    });
    this.timer = setTimeout(() => this.deadline.abort(), options.deadlineMs);
    this.timer.unref();
    if (options.signal?.aborted) this.deadline.abort();
    options.signal?.addEventListener('abort', () => this.deadline.abort(), { once: true });
  }

  /** Seed of every value the run draws at random (--seed; drawn by resolveConfig when not given, so that the run can be replayed). */
  get seed(): number {
    return this.options.seed;
  }

  /** How many animals the run generates from the schema: none but in certify. */
  get examples(): number {
    return this.options.profile === 'certify' ? this.options.examples : 0;
  }

  /** The values the run gives a NewPet's required fields. */
  petValues(name: string): PetValues {
    return { name, categoryId: this.options.categoryId };
  }

  /** The consistency window (--consistency-window), for pollWithinWindow. */
  get windowMs(): number {
    return this.options.consistencyWindowMs;
  }

  /** Waits, cut short by the deadline. */
  wait(ms: number): Promise<void> {
    return this.client.wait(ms);
  }

  get deadlinePassed(): boolean {
    return this.deadline.signal.aborted;
  }

  /** Aborted, with the reason as a sentence, when the animal store stopped answering. */
  get stopped(): AbortSignal {
    return this.halt.signal;
  }

  /** The setting that holds a service's base address. */
  private addressSetting(service: Service): string {
    if (service === 'quickstart') return 'QUICKSTART_BASE_URL';
    return this.options.target.environment === 'staging' ? 'STAGING_BASE_URL' : 'BASE_URL';
  }

  /** The service cannot be reached: nothing more is sent to it, and its requirements cannot be judged (outage). */
  private down(service: Service, reason: string): void {
    if (this.outages.has(service)) return;
    this.outages.set(service, `${reason} (address: ${this.addressSetting(service)})`);
    this.client.stop(service, reason);
  }

  /** Why the service could not be reached, if it could not: the cause of every requirement of it left unjudged. */
  outage(service: Service): string | undefined {
    return this.outages.get(service);
  }

  /** Every service the run could not reach, the store first, each in one sentence naming its address setting. */
  get unreachable(): string[] {
    return (['store', 'quickstart'] as const).flatMap((s) => this.outages.get(s) ?? []);
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

  private readonly credentialsMade = new Map<Service, CredentialClass[]>();

  /**
   * Every class of Authorization header for one service's key (credentials.ts): the
   * near-misses where the key may travel in other spellings (--key-variants), else a
   * random key of its format and length. Each credential made from the key is added to
   * the redactor here, as it is made, so no output shows it.
   */
  credentials(service: Service): CredentialClass[] {
    if (!this.credentialsMade.has(service)) {
      const store = service === 'store';
      const key = store ? this.options.target.apiKey : this.quickstartApiKey;
      // the shell variable the key is shown as (keysOf: one key used for both services is $API_KEY)
      const variable = keysOf(this.options.target).find((k) => k.value === key)!.label;
      const classes = credentialClasses(key, variable, this.options.keyVariants, randomKeyLike(key, randomInt));
      this.redactor.add(secretsOf(classes));
      this.credentialsMade.set(service, classes);
    }
    return this.credentialsMade.get(service)!;
  }

  /** The quickstart service's key: its own, or the animal store's. */
  get quickstartApiKey(): string {
    return quickstartKey(this.options.target);
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
  causeOf(err: unknown, service: Service): string {
    const { deadlineMs, timeoutMs, concurrency } = this.options;
    if (this.deadlinePassed) return `the run deadline (${formatSeconds(deadlineMs)}) passed first; try a longer --deadline`;
    if (!(err instanceof CheckError)) return 'a check crashed (a bug of the suite: please report it)';
    const failed = err instanceof ExchangeFailed ? err.exchange : undefined;
    const outage = this.outage(failed?.request.service ?? service);
    if (outage) return outage;
    const resent = failed?.sentAlone ? ', also when sent alone' : '';
    const maxBody = this.options.maxBodyBytes;
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
   * so they count in no operation's latency). A server error is sent once more: it is
   * one finding (STORE-NO-5XX's, which judges the first answer), and the request that
   * met it is judged on the answer it gets then, if that is not one too. A write sent
   * again may add one more animal: the model of the run's animals allows it.
   */
  async request(service: Service, method: string, path: string, options: CallOptions = {}, operation?: string): Promise<Exchange> {
    const request = buildRequest(this.options.target, service, method, path, options, operation);
    const ex = await this.client.send(request);
    return isServerError(ex) ? this.client.send(request) : ex;
  }

  /** The quiet sample's exchanges: their latency is reported apart from the run's under load. */
  readonly quiet = new Set<Exchange>();

  private readonly memo = new Map<string, Promise<Exchange>>();

  /** The authenticated list with no parameters that opens every run (the preflight's, shared with the checks). */
  preflightList(): Promise<Exchange> {
    if (!this.memo.has('list')) {
      const list = this.call('store', 'listPets');
      list.then((ex) => (this.preflightAnswer = ex)).catch(() => undefined);
      this.memo.set('list', list);
    }
    return this.memo.get('list')!;
  }

  /** The preflight list's answer once it is in: read without waiting a turn, so that the run's first writes go out at once. */
  preflightAnswer?: Exchange;

  /** The quickstart preflight's message without its required field (a conforming service refuses it with 400: nothing is queued). */
  preflightMessage(): Promise<Exchange> {
    if (!this.memo.has('message')) this.memo.set('message', this.call('quickstart', 'sendMessage', { json: {} }));
    return this.memo.get('message')!;
  }

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
   * is queued). A service that does not answer is down: its requirements cannot be
   * judged, the other's are. Throws RunAborted when no service answers, a configured
   * key itself is rejected, or an address is not the service's (NOT_THE_API, a web
   * site), instead of reporting dozens of failures that only say that. A 200 that
   * breaks the rules is judged.
   */
  async preflight(): Promise<void> {
    const { quickstartBaseUrl } = this.options.target;
    const checked = await Promise.allSettled([
      this.expectAnswer('store', this.preflightList(), 'target', 'API_KEY and TARGET', { key: 'API_KEY', service: 'the Animal Store API' }),
      ...(quickstartBaseUrl
        ? [
            this.expectAnswer('quickstart', this.preflightMessage(), 'quickstart service', 'QUICKSTART_API_KEY', {
              key: 'QUICKSTART_API_KEY',
              service: 'the quickstart message service',
              // the usual mistake: the address ends in /v1, or is the animal store's
              hint: "it is the service's base address, without /v1; POST /messages is appended",
            }),
          ]
        : []),
    ]);
    // a wrong address or key is the configuration's: it ends the run, whatever the other service does
    for (const c of checked) if (c.status === 'rejected') throw c.reason;
    const down = checked.flatMap((c) => (c.status === 'fulfilled' && c.value ? [c.value] : []));
    for (const [service, reason] of down) this.down(service, reason);
    if (down.length === checked.length) throw new RunAborted(this.unreachable.join('; '));
  }

  /** Resolves with the service and why when it could not be reached; throws RunAborted when the run cannot be made. */
  private async expectAnswer(
    service: Service,
    exchange: Promise<Exchange>,
    what: string,
    keySettings: string,
    address: { key: string; service: string; hint?: string },
  ): Promise<[Service, string] | undefined> {
    let ex: Exchange;
    try {
      ex = await exchange;
    } catch (err) {
      const limited = this.rateLimitAbort();
      if (limited) throw limited;
      const failed = err instanceof ExchangeFailed ? err.exchange : undefined;
      if (failed?.failure === 'timeout') {
        const { timeoutMs } = this.options;
        return [service, `the ${what} did not answer within ${timeoutMs / 1000} s (REQUEST_TIMEOUT_MS): ${failed.summary}`];
      }
      // a status line arrived but the body was cut at the cap: the service answers,
      // and the checks will say what is wrong with it
      if (failed && failed.status > 0) return undefined;
      return [service, `${what} unreachable: ${(err as Error).message}`];
    }
    const setting = this.addressSetting(service);
    const hint = address.hint ? ` (${address.hint})` : '';
    if (ex.status === 401) throw new RunAborted(`the configured key was rejected by the ${what}: ${ex.summary} (check ${keySettings})`);
    if (NOT_THE_API.includes(ex.status)) {
      const answer = `${ex.status} ${ex.mediaType || '(no Content-Type)'}`;
      // a 403 may also be a key without access to the API, not only another address
      const forbidden = ex.status === 403 ? `, or ${address.key} has no access to it` : '';
      throw new RunAborted(
        `${setting} does not look like ${address.service}${forbidden}: ${ex.request.method} ${ex.request.url} with the key -> ${answer}${hint}`,
      );
    }
    if (ex.succeeded && isWebPage(ex)) {
      // a web front end answers every path with a page; an API has none at a path no API has
      const elsewhere = await this.request(service, 'GET', `/${this.runPrefix}-no-such-path`, { auth: 'none' }).catch(() => undefined);
      if (elsewhere?.succeeded && isWebPage(elsewhere)) {
        throw new RunAborted(
          `${setting} serves a web site, not ${address.service}: ${ex.request.method} ${ex.request.url} with the key -> ${ex.status}, ${ex.bodyExcerpt}; ` +
            `GET ${elsewhere.request.url}, a path no API has, -> ${elsewhere.status} ${elsewhere.mediaType} too (check ${setting}${hint})`,
        );
      }
    }
    return undefined;
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
    const answers = `${plural(limited, 'answer')} 429${with503 ? ' or 503 with Retry-After' : ''}`;
    return new RunAborted(`the server rate-limited the run (${answers}) until the deadline passed; try --rate ${rate} or a longer --deadline`);
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    await this.client.close();
  }
}
