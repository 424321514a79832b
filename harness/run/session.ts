// One run's transport: the HTTP client, redaction, the preflight, each service's liveness, the run's clock.
import { randomBytes, randomInt } from 'node:crypto';
import { HttpClient } from '../http/client.js';
import { ExchangeFailed, isRateLimit, isServerError, type Exchange, type HttpRequest } from '../http/exchange.js';
import { buildRequest, fillPath, quickstartKey, type CallOptions, type Service } from './request.js';
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

export type SessionOptions = RunSettings & {
  target: Target;
  /** SIGINT, SIGTERM: nothing is sent after it, as after the deadline. */
  signal?: AbortSignal;
  /** A judged record's data name; a run draws its own. */
  runPrefix?: string;
};

export function sessionOptionsFor(config: RunConfig, target: Target): SessionOptions {
  const { environment, baseUrl, apiKey, quickstartBaseUrl, quickstartApiKey, ...rest } = config;
  const { reportDir, only, skip, expectedFailuresFile, baselineFile, exchangeLog, signKeyFile, ...settings } = rest;
  return { ...settings, target };
}

/** Shows the target's keys as $API_KEY and $QUICKSTART_API_KEY. */
export function redactorFor(target: Target): Redactor {
  return new Redactor(keysOf(target));
}

function keysOf(target: Target) {
  return [
    { value: target.apiKey, label: '$API_KEY' },
    ...(target.quickstartApiKey && target.quickstartApiKey !== target.apiKey ? [{ value: target.quickstartApiKey, label: '$QUICKSTART_API_KEY' }] : []),
  ];
}

/** The run cannot be made (exit code 2). */
export class RunAborted extends Error {}

/** Answers to the keyed preflight list that say the address is not the API's. */
const NOT_THE_API = [403, 404, 405, 410, 501];

/** The hint is for the usual mistake. */
const PREFLIGHT = {
  store: { what: 'target', keySettings: 'API_KEY and TARGET', key: 'API_KEY', name: 'the Animal Store API', hint: '' },
  quickstart: {
    what: 'quickstart service',
    keySettings: 'QUICKSTART_API_KEY',
    key: 'QUICKSTART_API_KEY',
    name: 'the quickstart message service',
    hint: " (it is the service's base address, without /v1; POST /messages is appended)",
  },
};

const isWebPage = (ex: Exchange) => ex.json === undefined && ['text/html', 'application/xhtml+xml'].includes(ex.mediaType);

export class Session implements ConsistencyWindow {
  readonly client: HttpClient;
  readonly redactor: Redactor;
  /** Names everything the run creates. */
  readonly runPrefix: string;
  readonly startedAt = new Date();
  private readonly deadline = new AbortController();
  private readonly halt = new AbortController();
  private readonly outages = new Map<Service, string>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly options: SessionOptions,
    readonly specs: Specs,
  ) {
    this.runPrefix = options.runPrefix ?? `conformance-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
    this.redactor = redactorFor(options.target);
    const { timeoutMs, maxBodyBytes, concurrency, retries, rate } = options;
    this.client = new HttpClient({
      timeoutMs,
      maxBodyBytes,
      concurrency,
      retries,
      rate,
      signal: this.deadline.signal,
      userAgent: `${TOOL.name}/${TOOL.version}`,
      redactor: this.redactor,
      probeFor: (silent) => this.livenessProbe(silent),
      onStop: (service, reason) => {
        this.down(service, reason);
        if (service !== 'store') return;
        // what was judged stands, and nothing more is sent
        this.client.stop('quickstart', reason);
        this.halt.abort(this.unreachable.join('; '));
      },
    });
    this.timer = setTimeout(() => this.deadline.abort(), options.deadlineMs);
    this.timer.unref();
    if (options.signal?.aborted) this.deadline.abort();
    options.signal?.addEventListener('abort', () => this.deadline.abort(), { once: true });
  }

  removed(operationId: string) {
    return isRemoved(this.specs.store.operation(operationId), this.options.now);
  }

  get seed() {
    return this.options.seed;
  }

  petValues(name: string) {
    return { name, categoryId: this.options.categoryId };
  }

  get windowMs() {
    return this.options.consistencyWindowMs;
  }

  wait(ms: number) {
    return this.client.wait(ms);
  }

  get deadlinePassed() {
    return this.deadline.signal.aborted;
  }

  /** Aborted, with the reason, when the animal store stopped answering. */
  get stopped() {
    return this.halt.signal;
  }

  private addressSetting(service: Service) {
    if (service === 'quickstart') return 'QUICKSTART_BASE_URL';
    return this.options.target.environment === 'staging' ? 'STAGING_BASE_URL' : 'BASE_URL';
  }

  private down(service: Service, reason: string) {
    if (this.outages.has(service)) return;
    this.outages.set(service, `${reason} (address: ${this.addressSetting(service)})`);
    this.client.stop(service, reason);
  }

  outage(service: Service) {
    return this.outages.get(service);
  }

  /** Every service the run could not reach, the store first. */
  get unreachable() {
    return (['store', 'quickstart'] as const).flatMap((s) => this.outages.get(s) ?? []);
  }

  /** Tells a service that stopped answering from one that leaves one request unanswered. */
  private livenessProbe(silent: HttpRequest) {
    const service = silent.service ?? 'store';
    const [op, first, second] =
      service === 'quickstart'
        ? [this.specs.quickstart.operation('sendMessage'), { json: {} }, { json: { message: 0 } }]
        : [this.specs.store.operation('listPets'), {}, { query: { limit: this.specs.store.limit.min } }];
    const [probe, other] = [first, second].map((options) => buildRequest(this.options.target, service, op.method, op.path, options, op.id));
    return silent.method === probe.method && silent.url === probe.url && silent.body === probe.body ? other : probe;
  }

  private readonly credentialsMade = new Map<Service, CredentialClass[]>();

  /** Each credential made from the key is redacted as it is made. */
  credentials(service: Service) {
    if (!this.credentialsMade.has(service)) {
      const key = service === 'store' ? this.options.target.apiKey : this.quickstartApiKey;
      const variable = keysOf(this.options.target).find((k) => k.value === key)!.label;
      const classes = credentialClasses(key, variable, this.options.keyVariants, randomKeyLike(key, randomInt));
      this.redactor.add(secretsOf(classes));
      this.credentialsMade.set(service, classes);
    }
    return this.credentialsMade.get(service)!;
  }

  get quickstartApiKey() {
    return quickstartKey(this.options.target);
  }

  /** By the service, never by URL: the quickstart service may share the store's URL prefix. */
  answered(service: Service) {
    return this.client.exchanges.filter((ex) => ex.request.service === service && ex.status > 0 && !ex.followed && !ex.superseded);
  }

  recovered(service: Service) {
    return this.client.exchanges.filter(
      (ex) => ex.request.service === service && ex.superseded && ex.status >= 500 && !isRateLimit(ex) && ex.final.status > 0 && ex.final.status < 500,
    );
  }

  /** Why a check could not judge its requirement, with the setting that helps. */
  causeOf(err: unknown, service: Service) {
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

  async call(service: Service, operationId: string, options: CallOptions = {}) {
    const op = (service === 'store' ? this.specs.store : this.specs.quickstart).operation(operationId);
    if (isRemoved(op, this.options.now)) throw new Error(`${operationId} is past its removal date (${op.removalDate}): no check may send it`);
    return this.request(service, op.method, fillPath(op.path, operationId, options.params), options, op.id);
  }

  /** A server error is sent once more: STORE-NO-5XX judges the first (the model allows the animal a resent write may add). */
  async request(service: Service, method: string, path: string, options: CallOptions = {}, operation?: string) {
    const request = buildRequest(this.options.target, service, method, path, options, operation);
    const ex = await this.client.send(request);
    return isServerError(ex) ? this.client.send(request) : ex;
  }

  /** Their latency is reported apart from the run's under load. */
  readonly quiet = new Set<Exchange>();

  private listing?: Promise<Exchange>;
  private message?: Promise<Exchange>;

  preflightList() {
    if (!this.listing) {
      this.listing = this.call('store', 'listPets');
      this.listing.then((ex) => (this.preflightAnswer = ex)).catch(() => undefined);
    }
    return this.listing;
  }

  /** Read without waiting a turn, so that the run's first writes go out at once. */
  preflightAnswer?: Exchange;

  /** A message without its required field: a conforming service refuses it, so nothing is queued. */
  preflightMessage() {
    return (this.message ??= this.call('quickstart', 'sendMessage', { json: {} }));
  }

  async resendQuiet(request: HttpRequest) {
    const ex = await this.client.send(request);
    this.quiet.add(ex);
    return ex;
  }

  /** Throws RunAborted when no service answers, a key is rejected or an address is not the service's. */
  async preflight() {
    const checked = await Promise.allSettled([
      this.expectAnswer('store', this.preflightList()),
      ...(this.options.target.quickstartBaseUrl ? [this.expectAnswer('quickstart', this.preflightMessage())] : []),
    ]);
    // a wrong address or key ends the run, whatever the other service does
    for (const c of checked) if (c.status === 'rejected') throw c.reason;
    const down = checked.flatMap((c) => (c.status === 'fulfilled' && c.value ? [c.value] : []));
    for (const [service, reason] of down) this.down(service, reason);
    if (down.length === checked.length) throw new RunAborted(this.unreachable.join('; '));
  }

  private async expectAnswer(service: Service, exchange: Promise<Exchange>): Promise<[Service, string] | undefined> {
    const { what, keySettings, key, name, hint } = PREFLIGHT[service];
    let ex: Exchange;
    try {
      ex = await exchange;
    } catch (err) {
      const limited = this.rateLimitAbort();
      if (limited) throw limited;
      const failed = err instanceof ExchangeFailed ? err.exchange : undefined;
      if (failed?.failure === 'timeout')
        return [service, `the ${what} did not answer within ${this.options.timeoutMs / 1000} s (REQUEST_TIMEOUT_MS): ${failed.summary}`];
      // a status line arrived, the body cut at the cap: the checks will say what is wrong
      if (failed && failed.status > 0) return undefined;
      return [service, `${what} unreachable: ${(err as Error).message}`];
    }
    const setting = this.addressSetting(service);
    if (ex.status === 401) throw new RunAborted(`the configured key was rejected by the ${what}: ${ex.summary} (check ${keySettings})`);
    if (NOT_THE_API.includes(ex.status)) {
      const answer = `${ex.status} ${ex.mediaType || '(no Content-Type)'}`;
      const forbidden = ex.status === 403 ? `, or ${key} has no access to it` : '';
      throw new RunAborted(`${setting} does not look like ${name}${forbidden}: ${ex.request.method} ${ex.request.url} with the key -> ${answer}${hint}`);
    }
    if (ex.succeeded && isWebPage(ex)) {
      // a web front end answers every path with a page; an API has none at a path no API has
      const elsewhere = await this.request(service, 'GET', `/${this.runPrefix}-no-such-path`, { auth: 'none' }).catch(() => undefined);
      if (elsewhere?.succeeded && isWebPage(elsewhere)) {
        throw new RunAborted(
          `${setting} serves a web site, not ${name}: ${ex.request.method} ${ex.request.url} with the key -> ${ex.status}, ${ex.bodyExcerpt}; ` +
            `GET ${elsewhere.request.url}, a path no API has, -> ${elsewhere.status} ${elsewhere.mediaType} too (check ${setting}${hint})`,
        );
      }
    }
    return undefined;
  }

  /** The server kept answering 429 until the deadline: the run could not be made. */
  rateLimitAbort() {
    if (!this.client.rateLimitedAtDeadline) return undefined;
    const limited = this.client.rateLimitedCount;
    const others = this.client.exchanges.filter((ex) => ex.status > 0 && !isRateLimit(ex)).length;
    // the pace the server did accept
    const seconds = (Date.now() - this.startedAt.getTime()) / 1000;
    const rate = Math.max(1, Math.floor(others / Math.max(seconds, 1)));
    const with503 = this.client.exchanges.some((ex) => isRateLimit(ex) && ex.status === 503);
    const answers = `${plural(limited, 'answer')} 429${with503 ? ' or 503 with Retry-After' : ''}`;
    return new RunAborted(`the server rate-limited the run (${answers}) until the deadline passed; try --rate ${rate} or a longer --deadline`);
  }

  async close() {
    clearTimeout(this.timer);
    await this.client.close();
  }
}
