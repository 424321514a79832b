// Every setting declared once: RunConfig, --help, the docs' table, .env.example and action.yml come from SETTINGS.
import { randomInt } from 'node:crypto';
import { ENVIRONMENTS, PROFILES, type Environment } from '../model/types.js';
import { ConfigError, MAX_SEED, baseAddress, duration, flag, list, oneOf, positiveInteger, boundedInteger, size, text } from './values.js';

/** A setting as --help, the docs and .env.example show it. */
export interface SettingDoc {
  /** Errors name the setting by it. */
  env: string;
  flag: string;
  /** `code` in backticks, which --help drops. */
  description: string;
  details?: string;
  default?: string;
  /** Without a default: what leaving it out means ("the clock"); else the docs say "none". */
  defaultDoc?: string;
  secret?: boolean;
  /** A flag without a value (--strict). */
  boolean?: boolean;
  /** .env.example's value where the default is not the one to give. */
  example?: string;
}

export interface Setting<T = unknown> extends SettingDoc {
  /** Throws ConfigError naming `name`. */
  parse: (name: string, value: string) => T;
  /** Given nowhere and without a default; from the settings above it in the table. */
  fallback?: (above: Readonly<Record<string, unknown>>) => T;
}

export const plain = (text: string) => text.replace(/`/g, '');

/** In Markdown; undefined when leaving the setting out sets nothing. */
export function defaultOf(s: SettingDoc): string | undefined {
  return s.default !== undefined ? `\`${s.default}\`` : s.defaultDoc;
}

// 32: certify through a 50 ms proxy took 1.08 s (1.42 s at 16); 64 doubled a rate-limited server's 429s.
// The embedded server answers in the run's own thread: 8 was 14-18 ms faster than 32.
const DEFAULT_CONCURRENCY = 32;
const EMBEDDED_CONCURRENCY = 8;

/** TARGET picks BASE_URL or STAGING_BASE_URL; none with TARGET=embedded. */
export const baseSetting = (values: Readonly<Record<string, unknown>>) =>
  values.target === 'embedded' ? undefined : values.target === 'staging' ? 'stagingBaseUrl' : 'baseUrl';

/** As given; undefined: the embedded reference server. */
export const certifiedAddress = (values: Readonly<Record<string, unknown>>) => {
  const setting = baseSetting(values);
  return setting === undefined ? undefined : (values[setting] as string | undefined);
};

/** Given without its base address, these must not certify the embedded server instead. */
export const NAMING_A_TARGET = ['apiKey', 'quickstartBaseUrl', 'quickstartApiKey', 'stagingBaseUrl'] as const;

/** The variable is the flag in capitals (--base-url: BASE_URL) unless it says otherwise. */
function withVariables<T extends Record<string, Omit<Setting, 'env'> & { env?: string }>>(settings: T) {
  for (const s of Object.values(settings)) s.env ??= s.flag.toUpperCase().replace(/-/g, '_');
  return settings as { [K in keyof T]: T[K] & { env: string } };
}

export const SETTINGS = withVariables({
  // the base addresses and keys are checked across settings in resolveConfig: an unused one is not judged
  baseUrl: {
    flag: 'base-url',
    description: 'Production base address; must end in `/v1`.',
    defaultDoc: 'the embedded reference server (when no other setting names a target; `TARGET=embedded` says so outright)',
    example: 'https://api.example.com/v1',
    parse: text,
  },
  stagingBaseUrl: {
    flag: 'staging-base-url',
    description: 'Staging base address; must end in `/v1`. Certified with `TARGET=staging`.',
    example: 'https://staging.api.example.com/v1',
    parse: text,
  },
  target: {
    flag: 'target',
    description: '`production`, `staging` or `embedded`: which base address is certified; `embedded`: the embedded reference server.',
    default: 'production',
    parse: oneOf(ENVIRONMENTS),
    details:
      'With no base address set, the embedded server is certified only when nothing names a target: `API_KEY`, `QUICKSTART_BASE_URL`, `QUICKSTART_API_KEY` or `STAGING_BASE_URL` without it is an error (exit 2). `TARGET=embedded` certifies the embedded server whatever else is set, e.g. beside a quickstart service of your own (`QUICKSTART_BASE_URL`).',
  },
  apiKey: {
    flag: 'api-key',
    description: 'The bearer API key; required with a base address. Prefer the environment: flags show in process lists.',
    secret: true,
    parse: text,
  },
  quickstartBaseUrl: {
    flag: 'quickstart-base-url',
    example: 'https://api.example.com',
    description: 'Base address of the quickstart message service, without `/v1` (`POST /messages` is appended). Unset: its checks are skipped.',
    parse: (name, value) => baseAddress(name, value, false),
  },
  quickstartApiKey: {
    flag: 'quickstart-api-key',
    description: 'Key for the quickstart service.',
    defaultDoc: '`API_KEY`',
    secret: true,
    parse: text,
  },
  deployment: {
    flag: 'deployment',
    description:
      'A name for the deployment checked (`eu-west`, `tenant-a`): letters, digits, `.`, `_` and `-`, up to 63. Every metric then has a `deployment` label, and `compliance.json` names it.',
    defaultDoc: 'none: the metrics tell targets apart by `target`, the base address',
    parse: (name, value) => {
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/.test(value))
        throw new ConfigError(`${name} must be 1 to 63 letters, digits, '.', '_' or '-', starting with a letter or digit, got ${value}`);
      return value;
    },
    details:
      'For a fleet: one alert rule and one dashboard over many deployments, also where two share a base address (tenants told apart by their key) and for a run refused for its settings, whose report names no base address. See [Scheduled health checks](scheduled-checks.md#a-fleet).',
  },
  profile: {
    flag: 'profile',
    description: '`certify` (may create data) or `health` (read-only, for scheduled checks against production).',
    default: 'certify',
    parse: oneOf(PROFILES),
  },
  reportDir: {
    flag: 'report-dir',
    description:
      'Where `compliance.json`, `junit.xml`, `report.html`, `metrics.prom` and `exchanges.har` are written, and for a judged run `certificate.json` and `badge.svg`.',
    default: 'reports',
    parse: text,
  },
  exchangeLog: {
    flag: 'exchange-log',
    description: '`on` or `off`: write every request and response of the run to `exchanges.har` (HAR 1.2), keys redacted, bodies up to 16 KiB.',
    default: 'on',
    // a value, not a bare flag: on unless turned off
    parse: flag,
    details: "It opens in a browser's network panel. See [exchanges.har](exchanges-har.md).",
  },
  signKeyFile: {
    flag: 'sign-key',
    description: 'An Ed25519 private key (PEM file): `certificate.json` is then a signed DSSE envelope.',
    parse: text,
    details: 'Unset: the certificate is an unsigned in-toto statement. See [the certificate](certificate.md).',
  },
  timeoutMs: {
    flag: 'timeout',
    env: 'REQUEST_TIMEOUT_MS',
    default: '10000',
    parse: duration,
    description: 'Timeout of one request, from sending it to the last byte of the body: milliseconds, or with a unit (`500ms`, `10s`, `1m`).',
    details: 'It holds however slowly the bytes come. A number under 100 needs a unit (`--timeout 5` is refused: meant as `5s`?).',
  },
  deadlineMs: {
    flag: 'deadline',
    env: 'RUN_DEADLINE_MS',
    description: 'Deadline of the whole run: ms, or with a unit (`90s`, `2m`).',
    default: '120000',
    parse: duration,
  },
  maxBodyBytes: {
    flag: 'max-body',
    default: '16MiB',
    parse: size,
    description: 'The most of one response body that is read: bytes, or with a unit (`512KiB`, `16MiB`).',
    details:
      'A body cut off at it could not be judged (exit 2 when a MUST depends on it). Names have no stated length: a page of 100 animals with 12,000-character names is 1.2 MB and valid.',
  },
  concurrency: {
    flag: 'concurrency',
    description: 'Requests in flight at once.',
    details: 'Chosen from `npm run bench` (see bench/results.md).',
    defaultDoc: `\`${DEFAULT_CONCURRENCY}\`; \`${EMBEDDED_CONCURRENCY}\` against the embedded reference server`,
    parse: positiveInteger,
    fallback: (above) => (certifiedAddress(above) === undefined ? EMBEDDED_CONCURRENCY : DEFAULT_CONCURRENCY),
  },
  now: {
    flag: 'now',
    env: 'CONFORMANCE_NOW',
    description: 'The date the checks take as today (ISO 8601), e.g. to rehearse the removal of `getPet` on 2030-12-05.',
    defaultDoc: 'the clock',
    parse: (name, value) => {
      if (Number.isNaN(Date.parse(value))) throw new ConfigError(`${name} is not a date: ${value}`);
      return new Date(value);
    },
    fallback: () => new Date(),
  },
  retries: {
    flag: 'retries',
    default: '0',
    parse: (name, value) => positiveInteger(name, value, 0),
    description:
      'Extra attempts, with backoff, of an idempotent request (GET) that got no answer or a 5xx (a 429, or a 503 with Retry-After, is always waited out and sent again).',
    details: 'Every attempt is in the report; a 5xx that a later attempt recovered is no failure (`STORE-NO-5XX` says how many).',
  },
  categoryId: {
    flag: 'category-id',
    default: '1',
    parse: (name, value) => positiveInteger(name, value, 0),
    description: '`categoryId` of every animal the run sends (for a server that accepts known categories only).',
    details: 'Categories are "not shown" in the API description.',
  },
  clockToleranceMs: {
    flag: 'clock-tolerance',
    default: '5m',
    parse: duration,
    description: "How far a server's clock may be from this machine's (`createdAt` timestamps): a duration.",
    details: '`QS-CREATED-AT-CLOCK` holds `createdAt` to the time of the request within it; widen it for a server with known skew.',
  },
  maxLatencyMs: {
    flag: 'max-latency-ms',
    description: "Latency budget (ms): `PERF-LATENCY-P95` fails when an operation's p95 exceeds it.",
    parse: positiveInteger,
  },
  strict: {
    flag: 'strict',
    description: 'SHOULD failures make the run non-compliant too.',
    default: 'off',
    boolean: true,
    parse: flag,
    details: 'In the environment: `1`, `true`, `yes`, `on`, `y` or `0`, `false`, `no`, `off`, `n`, any case; likewise `ALLOW_INSECURE_HTTP`.',
  },
  keyVariants: {
    flag: 'key-variants',
    description:
      'Send the key in near-miss and other spellings (a character changed, extended, under another scheme, in the query) and demand each is refused. Off in health: a gateway that logs rejected tokens would keep the production key from every run.',
    defaultDoc: 'on in certify, off in health',
    boolean: true,
    parse: flag,
    fallback: (above) => above.profile === 'certify',
    details:
      'Off, every invalid key sent is a random key of the format and length of the real one, and the requirements that need the real key in another spelling (`AUTH-SCHEME-CASE`, `AUTH-NO-QUERY-TOKEN`) are skipped; a lock-out policy on rejected keys could also block the monitoring host.',
  },
  allowInsecureHttp: {
    flag: 'allow-insecure-http',
    description: 'Allow sending the key over plain `http://` to a host other than loopback.',
    default: 'off',
    boolean: true,
    parse: flag,
  },
  only: {
    flag: 'only',
    description: 'Run only these requirements: ids, id prefixes (`LIST-`), areas (`auth`) or levels (`MUST`), comma-separated.',
    defaultDoc: 'all',
    parse: (_name, value) => list(value),
    fallback: (): string[] => [],
  },
  skip: {
    flag: 'skip',
    description: 'Skip these requirements (same selectors as `--only`).',
    parse: (_name, value) => list(value),
    fallback: (): string[] => [],
  },
  expectedFailuresFile: {
    flag: 'expected-failures',
    description: 'Known-deviations file: `<ID> <reason>` per line; listed failures do not count.',
    parse: text,
  },
  baselineFile: {
    flag: 'baseline',
    description: 'A previous `compliance.json`: the reports say what newly fails, recovered or still fails since.',
    parse: text,
    details: 'See [Scheduled health checks](scheduled-checks.md).',
  },
  rate: {
    flag: 'rate',
    description: 'Requests started per second at most, for a server with a known rate limit (`30`, `0.5`); a 429 slows the run down anyway.',
    parse: (name, value) => {
      if (!/^\d+(\.\d+)?$/.test(value) || !(Number(value) > 0)) throw new ConfigError(`${name} must be a number of requests per second above 0, got ${value}`);
      return Number(value);
    },
  },
  consistencyWindowMs: {
    flag: 'consistency-window',
    default: '5s', // a search index refreshed every second, with room to spare under load
    parse: (name, value) => duration(name, value, 0),
    description:
      'How long an animal the run created may take to show in the list, its status filter and `getPet`: a duration (`1500ms`, `5s`); `0` for strict read-after-write.',
  },
  examples: {
    flag: 'examples',
    default: '5',
    parse: (name, value) => positiveInteger(name, value, 0),
    description: 'certify: how many valid animals to generate from the NewPet schema and follow back (`0`: none; health creates none).',
    details: 'Generated with fast-check.',
  },
  seed: {
    flag: 'seed',
    description: 'Seed of every value drawn at random (0 to 2147483647): interior query values and generated animals; the same seed draws the same values.',
    defaultDoc: 'random',
    parse: (name, value) => boundedInteger(name, value, MAX_SEED),
    fallback: () => randomInt(MAX_SEED),
    details: 'The seed of a run is in the summary and the reports.',
  },
});

/** Read before the others, so not in the table. */
export const ENV_FILE_SETTING: SettingDoc = {
  // not --env-file: Node 20 takes that flag for itself even after the script name
  flag: 'dotenv',
  env: 'ENV_FILE',
  description: 'Read the settings from this file.',
  defaultDoc: '`.env`, if present',
};

export type Key = keyof typeof SETTINGS;
export const KEYS = Object.keys(SETTINGS) as Key[];

type ValueOf<S> = S extends { parse: (name: string, value: string) => infer T }
  ? S extends { default: string }
    ? T
    : S extends { fallback: (above: never) => infer F }
      ? T | F
      : T | undefined
  : never;

export type SettingValues = { [K in Key]: ValueOf<(typeof SETTINGS)[K]> };

/** Every setting but those the rules across settings consume. */
export type RunConfig = Omit<SettingValues, 'target' | 'stagingBaseUrl' | 'allowInsecureHttp'> & {
  /** embedded: the reference server is started and certified. */
  environment: Environment;
};

type TargetSettings = 'environment' | 'baseUrl' | 'apiKey' | 'quickstartBaseUrl' | 'quickstartApiKey' | 'deployment';
/** Less the target and what the tool around the run reads. */
export type RunSettings = Omit<
  RunConfig,
  TargetSettings | 'reportDir' | 'only' | 'skip' | 'expectedFailuresFile' | 'baselineFile' | 'exchangeLog' | 'signKeyFile'
>;

/** A run given it is configured by its flags alone. */
export function withoutSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const rest = { ...env };
  for (const setting of Object.values(SETTINGS)) delete rest[setting.env];
  return rest;
}
