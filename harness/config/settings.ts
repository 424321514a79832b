// One typed, validated configuration from CLI flags, the environment and a .env
// file, in that order of precedence. Every setting is declared once, in SETTINGS,
// with its environment variable, flag, default, description and parser (RunConfig,
// --help, the README's table and .env.example come from there); a bad value is a
// ConfigError (one line, exit code 2). A setting that is present but empty is a bad
// value, not the default: a CI secret that is missing or misspelled expands to an
// empty string, and must not certify another target.
import { readFileSync, statSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { ENVIRONMENTS, PROFILES, type Environment, type Profile } from '../model/types.js';
import { SIZE_UNITS, sizeSetting } from '../model/units.js';

export class ConfigError extends Error {}

/** A setting as the documentation shows it: --help, the README's table, .env.example. */
export interface SettingDoc {
  /** Environment variable (and .env line); errors name the setting by it. */
  env: string;
  flag: string;
  /** One line for --help, the README and .env.example; `code` in backticks (--help drops them). */
  description: string;
  /** More for the README's table only. */
  details?: string;
  /** The value when the setting is given nowhere, written as a user would give it. */
  default?: string;
  /** Without a default: what leaving the setting out means ("the clock"); the README says "none" otherwise. */
  defaultDoc?: string;
  /** Shown empty in .env.example. */
  secret?: boolean;
  /** A flag without a value (--strict); in the environment one of BOOLEAN_SPELLINGS. */
  boolean?: boolean;
  /** .env.example's value where the default is not the example to give (a base address). */
  example?: string;
}

export interface Setting<T = unknown> extends SettingDoc {
  /** The value as given (or the default) into its typed value; throws ConfigError naming `name`. */
  parse: (name: string, value: string) => T;
  /** The value when the setting is given nowhere and has no default (otherwise undefined), from the settings above it in the table. */
  fallback?: (above: Readonly<Record<string, unknown>>) => T;
}

/**
 * How long a just-written animal may take to show in reads unless told otherwise:
 * a search index refreshed every second (a common default) with room to spare under
 * load. A server that shows writes at once never waits for it.
 */
const DEFAULT_CONSISTENCY_WINDOW_MS = 5000;

/** The body cap unless told otherwise (see the setting). */
const DEFAULT_MAX_BODY_BYTES = 16 * 1024 ** 2;

/** Markdown as plain text, for the terminal. */
export const plain = (text: string) => text.replace(/`/g, '');

/** The default as written in the docs, in Markdown; undefined when leaving the setting out means nothing is set. */
export function defaultOf(s: SettingDoc): string | undefined {
  return s.default !== undefined ? `\`${s.default}\`` : s.defaultDoc;
}

/** The value as given: what the rules across settings check (the base addresses and keys, below). */
const text = (_name: string, value: string) => value;

/** Requests in flight at once unless CONCURRENCY says otherwise (the setting says why). */
export const DEFAULT_CONCURRENCY = 32;
export const EMBEDDED_CONCURRENCY = 8;

/** The setting of the base address a run certifies: TARGET picks BASE_URL or STAGING_BASE_URL; none with TARGET=embedded. */
const baseSetting = (values: Readonly<Record<string, unknown>>) =>
  values.target === 'embedded' ? undefined : values.target === 'staging' ? 'stagingBaseUrl' : 'baseUrl';

/** The base address a run certifies, as given; undefined: the embedded reference server. */
const certifiedAddress = (values: Readonly<Record<string, unknown>>) => {
  const setting = baseSetting(values);
  return setting === undefined ? undefined : (values[setting] as string | undefined);
};

/** Settings that name a target of the user's: given without its base address, they must not certify the embedded server instead. */
const NAMING_A_TARGET = ['apiKey', 'quickstartBaseUrl', 'quickstartApiKey', 'stagingBaseUrl'] as const;

/**
 * Every setting, once: its RunConfig key, variable, flag, default, description and
 * parser. RunConfig, --help, the README's table and .env.example come from this table.
 */
export const SETTINGS = {
  // the base addresses and keys are checked by the rules across settings in resolveConfig:
  // which of them a run uses depends on TARGET and BASE_URL, and an unused one is not judged
  baseUrl: {
    flag: 'base-url',
    env: 'BASE_URL',
    description: 'Production base address; must end in `/v1`.',
    defaultDoc: 'the embedded reference server, if no other setting names a target: see `TARGET`',
    example: 'https://api.example.com/v1',
    parse: text,
  },
  stagingBaseUrl: {
    flag: 'staging-base-url',
    env: 'STAGING_BASE_URL',
    description: 'Staging base address; must end in `/v1`. Certified with `TARGET=staging`.',
    example: 'https://staging.api.example.com/v1',
    parse: text,
  },
  target: {
    flag: 'target',
    env: 'TARGET',
    description: '`production`, `staging` or `embedded`: which base address is certified; `embedded`: the embedded reference server.',
    default: 'production',
    parse: (name, value) => {
      if (!ENVIRONMENTS.includes(value as Environment)) throw new ConfigError(`${name} must be one of ${ENVIRONMENTS.join(', ')}, got ${value}`);
      return value as Environment;
    },
    details:
      'With no base address set, the embedded server is certified only when nothing names a target: `API_KEY`, `QUICKSTART_BASE_URL`, `QUICKSTART_API_KEY` or `STAGING_BASE_URL` without it is an error (exit 2). `TARGET=embedded` certifies the embedded server whatever else is set, e.g. beside a quickstart service of your own (`QUICKSTART_BASE_URL`).',
  },
  apiKey: {
    flag: 'api-key',
    env: 'API_KEY',
    description: 'The bearer API key; required with a base address. Prefer the environment: flags show in process lists.',
    secret: true,
    parse: text,
  },
  quickstartBaseUrl: {
    flag: 'quickstart-base-url',
    env: 'QUICKSTART_BASE_URL',
    example: 'https://api.example.com',
    description: 'Base address of the quickstart message service, without `/v1` (`POST /messages` is appended). Unset: its checks are skipped.',
    parse: (name, value) => baseAddress(name, value, false),
  },
  quickstartApiKey: {
    flag: 'quickstart-api-key',
    env: 'QUICKSTART_API_KEY',
    description: 'Key for the quickstart service.',
    defaultDoc: '`API_KEY`',
    secret: true,
    parse: text,
  },
  profile: {
    flag: 'profile',
    env: 'PROFILE',
    description: '`certify` (may create data) or `health` (read-only, for scheduled checks against production).',
    default: 'certify',
    parse: (name, value) => {
      if (!PROFILES.includes(value as Profile)) throw new ConfigError(`${name} must be one of ${PROFILES.join(', ')}, got ${value}`);
      return value as Profile;
    },
  },
  reportDir: {
    flag: 'report-dir',
    env: 'REPORT_DIR',
    description:
      'Where `compliance.json`, `junit.xml`, `report.html`, `metrics.prom` and `exchanges.har` are written, and for a judged run `certificate.json` and `badge.svg`.',
    default: 'reports',
    parse: text,
  },
  exchangeLog: {
    flag: 'exchange-log',
    env: 'EXCHANGE_LOG',
    description: '`on` or `off`: write every request and response of the run to `exchanges.har` (HAR 1.2), keys redacted, bodies up to 16 KiB.',
    default: 'on',
    // a value, not a bare flag: it is on unless turned off (`--exchange-log off`)
    parse: flag,
    details: "It opens in a browser's network panel. See [exchanges.har](exchanges-har.md).",
  },
  signKeyFile: {
    flag: 'sign-key',
    env: 'SIGN_KEY',
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
  // Names have no stated length: a page of 100 animals with 12,000-character names is
  // 1.2 MB and valid, so the cap is far above any real page; it is there to stop an
  // endless body. A body cut off at it could not be judged, never a violation.
  maxBodyBytes: {
    flag: 'max-body',
    env: 'MAX_BODY',
    default: sizeSetting(DEFAULT_MAX_BODY_BYTES),
    parse: size,
    description: 'The most of one response body that is read: bytes, or with a unit (`512KiB`, `16MiB`).',
    details:
      'A body cut off at it could not be judged (exit 2 when a MUST depends on it). Names have no stated length: a page of 100 animals with 12,000-character names is 1.2 MB and valid.',
  },
  // 32: certify through a 50 ms proxy 1.08 s vs 1.42 s at 16; 64 gains ~0.1 s but doubles
  // the 429s a rate-limited server sends (bench/results.md). The embedded server answers
  // in the run's own process and thread: requests in flight beyond a few only open
  // connections (certify on it 14-18 ms faster with 8 than with 32, 4 to 16 alike)
  concurrency: {
    flag: 'concurrency',
    env: 'CONCURRENCY',
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
    env: 'RETRIES',
    default: '0',
    parse: (name, value) => positiveInteger(name, value, 0),
    description:
      'Extra attempts, with backoff, of an idempotent request (GET) that got no answer or a 5xx (a 429, or a 503 with Retry-After, is always waited out and sent again).',
    details: 'Every attempt is in the report; a 5xx that a later attempt recovered is no failure (`STORE-NO-5XX` says how many).',
  },
  categoryId: {
    flag: 'category-id',
    env: 'CATEGORY_ID',
    default: '1',
    parse: (name, value) => positiveInteger(name, value, 0),
    description: '`categoryId` of every animal the run sends (for a server that accepts known categories only).',
    details: 'Categories are "not shown" in the API description.',
  },
  clockToleranceMs: {
    flag: 'clock-tolerance',
    env: 'CLOCK_TOLERANCE',
    default: '5m',
    parse: duration,
    description: "How far a server's clock may be from this machine's (`createdAt` timestamps): a duration.",
    details: '`QS-CREATED-AT-CLOCK` holds `createdAt` to the time of the request within it; widen it for a server with known skew.',
  },
  maxLatencyMs: {
    flag: 'max-latency-ms',
    env: 'MAX_LATENCY_MS',
    description: "Latency budget (ms): `PERF-LATENCY-P95` fails when an operation's p95 exceeds it.",
    parse: positiveInteger,
  },
  strict: {
    flag: 'strict',
    env: 'STRICT',
    description: 'SHOULD failures make the run non-compliant too.',
    default: 'off',
    boolean: true,
    parse: flag,
    details: 'In the environment: `1`, `true`, `yes`, `on`, `y` or `0`, `false`, `no`, `off`, `n`, any case; likewise `ALLOW_INSECURE_HTTP`.',
  },
  keyVariants: {
    flag: 'key-variants',
    env: 'KEY_VARIANTS',
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
    env: 'ALLOW_INSECURE_HTTP',
    description: 'Allow sending the key over plain `http://` to a host other than loopback.',
    default: 'off',
    boolean: true,
    parse: flag,
  },
  only: {
    flag: 'only',
    env: 'ONLY',
    description: 'Run only these requirements: ids, id prefixes (`LIST-`), areas (`auth`) or levels (`MUST`), comma-separated.',
    defaultDoc: 'all',
    parse: (_name, value) => list(value),
    fallback: (): string[] => [],
  },
  skip: {
    flag: 'skip',
    env: 'SKIP',
    description: 'Skip these requirements (same selectors as `--only`).',
    parse: (_name, value) => list(value),
    fallback: (): string[] => [],
  },
  expectedFailuresFile: {
    flag: 'expected-failures',
    env: 'EXPECTED_FAILURES',
    description: 'Known-deviations file: `<ID> <reason>` per line; listed failures do not count.',
    parse: text,
  },
  baselineFile: {
    flag: 'baseline',
    env: 'BASELINE',
    description: 'A previous `compliance.json`: the reports say what newly fails, recovered or still fails since.',
    parse: text,
    details: 'See [Scheduled health checks](scheduled-checks.md).',
  },
  rate: {
    flag: 'rate',
    env: 'RATE',
    description: 'Requests started per second at most, for a server with a known rate limit (`30`, `0.5`); a 429 slows the run down anyway.',
    parse: (name, value) => {
      if (!/^\d+(\.\d+)?$/.test(value) || !(Number(value) > 0)) throw new ConfigError(`${name} must be a number of requests per second above 0, got ${value}`);
      return Number(value);
    },
  },
  consistencyWindowMs: {
    flag: 'consistency-window',
    env: 'CONSISTENCY_WINDOW',
    default: `${DEFAULT_CONSISTENCY_WINDOW_MS / 1000}s`,
    parse: (name, value) => duration(name, value, 0),
    description:
      'How long an animal the run created may take to show in the list, its status filter and `getPet`: a duration (`1500ms`, `5s`); `0` for strict read-after-write.',
  },
  examples: {
    flag: 'examples',
    env: 'EXAMPLES',
    default: '5',
    parse: (name, value) => positiveInteger(name, value, 0),
    description: 'certify: how many valid animals to generate from the NewPet schema and follow back (`0`: none; health creates none).',
    details: 'Generated with fast-check.',
  },
  seed: {
    flag: 'seed',
    env: 'SEED',
    description: 'Seed of every value drawn at random (0 to 2147483647): interior query values and generated animals; the same seed draws the same values.',
    defaultDoc: 'random',
    parse: (name, value) => boundedInteger(name, value, MAX_SEED),
    fallback: () => randomInt(MAX_SEED),
    details: 'The seed of a run is in the summary and the reports.',
  },
} satisfies Record<string, Setting>;

/** The settings file itself: read before the others, so not a setting of the table (no .env line of its own). */
export const ENV_FILE_SETTING: SettingDoc = {
  // not --env-file: Node 20 takes that flag for itself even after the script name
  flag: 'dotenv',
  env: 'ENV_FILE',
  description: 'Read the settings from this file.',
  defaultDoc: '`.env`, if present',
};

type Key = keyof typeof SETTINGS;
const KEYS = Object.keys(SETTINGS) as Key[];

/** A setting's typed value: never undefined with a default or a fallback. */
type ValueOf<S> = S extends { parse: (name: string, value: string) => infer T }
  ? S extends { default: string }
    ? T
    : S extends { fallback: (above: never) => infer F }
      ? T | F
      : T | undefined
  : never;

type SettingValues = { [K in Key]: ValueOf<(typeof SETTINGS)[K]> };

/**
 * The configuration of a run: every setting's typed value, except those the rules
 * across settings consume (the target chosen, its address and keys checked).
 */
export type RunConfig = Omit<SettingValues, 'target' | 'stagingBaseUrl' | 'allowInsecureHttp'> & {
  /** embedded: no target was configured, or TARGET=embedded: the reference server is started and certified. */
  environment: Environment;
};

/** What a run of the checks reads of the configuration: every setting but the target's address and keys and what the tool around the run reads (reports, the exchange log, the signing key, selection, the known deviations, the baseline). */
export type RunSettings = Omit<
  RunConfig,
  | 'environment'
  | 'baseUrl'
  | 'apiKey'
  | 'quickstartBaseUrl'
  | 'quickstartApiKey'
  | 'reportDir'
  | 'only'
  | 'skip'
  | 'expectedFailuresFile'
  | 'baselineFile'
  | 'exchangeLog'
  | 'signKeyFile'
>;

export interface ParsedArgs {
  help: boolean;
  version: boolean;
  /** --list: print the requirement catalogue. */
  list: boolean;
  envFile?: string;
  values: Partial<Record<Key, string>>;
}

const OPTIONS: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
  list: { type: 'boolean' },
  [ENV_FILE_SETTING.flag]: { type: 'string' },
  ...Object.fromEntries(Object.values<Setting>(SETTINGS).map((s) => [s.flag, { type: s.boolean ? 'boolean' : 'string' }])),
};

/** The command line; `lenient`: whatever of it can be read, never throwing (for the reports of a run it refused). */
export function parseCommandLine(argv: string[], lenient = false): ParsedArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, strict: !lenient, allowPositionals: lenient });
  } catch (err) {
    const message = (err as Error).message.split('\n')[0];
    const unknown = /^Unknown option '(-{1,2}[^'=]+)/.exec(message)?.[1];
    const near = unknown && nearestFlag(unknown.replace(/^-+/, ''), Object.keys(OPTIONS));
    throw new ConfigError(near ? `unknown option ${unknown}: did you mean --${near}?` : message.replace(/\. To specify a positional argument.*$/, ''));
  }
  const v = parsed.values as Record<string, string | boolean | undefined>;
  // leniently parsed, a flag may hold a value of the other type (a string flag given no value is true)
  const valueOf = (flag: string) => (typeof v[flag] === OPTIONS[flag].type ? String(v[flag]) : undefined);
  const values: ParsedArgs['values'] = {};
  for (const [key, s] of Object.entries(SETTINGS) as Array<[Key, Setting]>) values[key] = valueOf(s.flag);
  return { help: v.help === true, version: v.version === true, list: v.list === true, envFile: valueOf(ENV_FILE_SETTING.flag), values };
}

/** Edits (insert, delete, change a character) from a to b. */
function editDistance(a: string, b: string): number {
  let row = [...Array(b.length + 1).keys()];
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/** The flag (or name) a mistyped one was meant as: the closest within a third of its length, or one it is the start of. */
export function nearestFlag(typed: string, flags: string[]): string | undefined {
  const lower = typed.toLowerCase();
  const [best] = flags.map((flag) => ({ flag, d: editDistance(lower, flag) })).sort((a, b) => a.d - b.d);
  if (best && best.d <= Math.max(1, Math.floor(lower.length / 3))) return best.flag;
  return flags.find((flag) => lower.length >= 3 && flag.startsWith(lower));
}

function readEnvFile(path: string, explicit: boolean): Record<string, string> {
  try {
    if (!explicit && !statSync(path, { throwIfNoEntry: false })) return {};
    // loaded only to read a file: --help and --version need no parser (nor the node:crypto it loads)
    const { parse } = createRequire(import.meta.url)('dotenv') as typeof import('dotenv');
    return parse(readFileSync(path));
  } catch (err) {
    throw new ConfigError(`cannot read env file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

function baseAddress(name: string, value: string, requireV1: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} is not a valid URL: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must be an http or https URL: ${value}`);
  if (url.search || url.hash || url.username || url.password)
    throw new ConfigError(`${name} must be a plain base address without query, fragment or credentials`);
  const path = url.pathname.replace(/\/+$/, '');
  if (requireV1 && !path.endsWith('/v1'))
    throw new ConfigError(`${name} must end in the path segment /v1, as the API description's base addresses do: ${value}`);
  return `${url.origin}${path}`;
}

/**
 * Refuses a key that Authorization cannot carry as given: a control character (a
 * pasted secret's trailing newline) or white space at either end (which a server
 * strips). Not trimmed: a silently changed key could certify with the wrong one.
 * The key itself is never part of the message.
 */
function headerSafeKey(name: string, key: string): string {
  if (/[^\t\x20-\x7e\x80-\xff]/.test(key)) {
    const hint = /[\r\n]$/.test(key) ? 'a newline at its end?' : 'a control character?';
    throw new ConfigError(`${name} contains a character an HTTP header cannot carry (${hint})`);
  }
  if (/^[\t ]|[\t ]$/.test(key)) throw new ConfigError(`${name} begins or ends with white space, which an HTTP header does not carry`);
  return key;
}

function positiveInteger(name: string, value: string, min = 1): number {
  if (!/^\d+$/.test(value) || Number(value) < min) throw new ConfigError(`${name} must be an integer of at least ${min}, got ${value}`);
  return Number(value);
}

/** fast-check's seeds are 32-bit integers; a non-negative one reads the same everywhere. */
const MAX_SEED = 2 ** 31 - 1;

function boundedInteger(name: string, value: string, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) > max) throw new ConfigError(`${name} must be an integer from 0 to ${max}, got ${value}`);
  return Number(value);
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds from "1500", "1500ms", "90s" or "2m". */
function duration(name: string, value: string, min = 1): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  const ms = m ? Math.round(Number(m[1]) * UNIT_MS[m[2] ?? 'ms']) : NaN;
  if (!(ms >= min)) throw new ConfigError(`${name} must be a duration such as 1500, 1500ms, 90s or 2m, got ${value}`);
  // "--timeout 5" is meant as seconds far more often than as 5 ms (0, where allowed, is 0 in any unit)
  if (!m![2] && ms > 0 && ms < 100) throw new ConfigError(`${name}=${value} is ${value} milliseconds; give a unit (${value}s) or at least 100 ms`);
  return ms;
}

/** Bytes from "1048576", "512KiB" or "16MiB" (units in any case); 0 is refused: nothing could be read. */
function size(name: string, value: string): number {
  const m = /^(\d+)\s*(B|KiB|MiB|GiB)?$/i.exec(value.trim());
  const bytes = m ? Number(m[1]) * SIZE_UNITS[(m[2] ?? '').toLowerCase()] : NaN;
  if (!(bytes >= 1) || !Number.isSafeInteger(bytes)) throw new ConfigError(`${name} must be a size above 0 such as 1048576, 512KiB or 16MiB, got ${value}`);
  return bytes;
}

const BOOLEAN_SPELLINGS = { true: ['1', 'true', 'yes', 'on', 'y'], false: ['0', 'false', 'no', 'off', 'n'] };

function flag(name: string, value: string): boolean {
  const spelled = value.toLowerCase();
  if (BOOLEAN_SPELLINGS.true.includes(spelled)) return true;
  if (BOOLEAN_SPELLINGS.false.includes(spelled)) return false;
  throw new ConfigError(
    `${name} must be one of ${BOOLEAN_SPELLINGS.true.join(', ')} (on) or ${BOOLEAN_SPELLINGS.false.join(', ')} (off), in any case; got ${value}`,
  );
}

const list = (value: string) =>
  value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** The key must not cross a network in clear text unless the user says so. */
function refuseInsecure(name: string, url: string | undefined, allowed: boolean): void {
  if (!url || allowed) return;
  const { protocol, hostname } = new URL(url);
  if (protocol === 'http:' && !LOOPBACK.test(hostname)) {
    throw new ConfigError(`refusing to send the API key over plain http to ${hostname} (${name}); use https, or --allow-insecure-http`);
  }
}

/** An environment without any of the suite's settings: a run given it is configured by its flags alone. */
export function withoutSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const rest = { ...env };
  for (const setting of Object.values(SETTINGS)) delete rest[setting.env];
  return rest;
}

/** The settings file: --dotenv or ENV_FILE, else .env in `cwd` when there is one; throws ConfigError when it cannot be read. */
function settingsFile(args: ParsedArgs, env: NodeJS.ProcessEnv, cwd: string): { path: string; values: Record<string, string> } {
  const envFile = args.envFile ?? env[ENV_FILE_SETTING.env];
  if (envFile === '')
    throw new ConfigError(
      `${args.envFile === '' ? `--${ENV_FILE_SETTING.flag}` : ENV_FILE_SETTING.env} is set but empty: give a file, or unset it to read .env`,
    );
  const path = envFile ?? `${cwd}/.env`;
  return { path, values: readEnvFile(path, envFile !== undefined) };
}

/** A setting as given, by flag, environment or file; undefined when it is given nowhere. Throws ConfigError when it is given empty. */
function givenValue(key: Key, args: ParsedArgs, env: NodeJS.ProcessEnv, file: { path: string; values: Record<string, string> }): string | undefined {
  const s: Setting = SETTINGS[key];
  const [value, where] =
    args.values[key] !== undefined
      ? [args.values[key], `--${s.flag}`]
      : env[s.env] !== undefined
        ? [env[s.env], s.env]
        : [file.values[s.env], `${s.env} (in ${file.path})`];
  if (value === '') {
    const fallback = defaultOf(s);
    throw new ConfigError(
      `${where} is set but empty (a missing CI secret expands to an empty string): give it a value, or unset it${fallback ? ` for the default, ${plain(fallback)}` : ''}`,
    );
  }
  return value;
}

/**
 * Resolves flags, environment and .env into a RunConfig, or throws ConfigError. `record`:
 * the settings judge a record of traffic (`judge`), which sends nothing: the base
 * address is required (it says which entries are the store's), a key is not, and no
 * address is refused as insecure.
 */
export function resolveConfig(args: ParsedArgs, env: NodeJS.ProcessEnv, cwd = process.cwd(), { record = false } = {}): RunConfig {
  const file = settingsFile(args, env, cwd);
  // every setting, also those this run would not read: an empty one is a mistake wherever it is
  const raw = Object.fromEntries(KEYS.map((key) => [key, givenValue(key, args, env, file)])) as Record<Key, string | undefined>;
  // in the table's order: a fallback may depend on a setting above it (keyVariants on the profile)
  const resolved: Record<string, unknown> = {};
  for (const key of KEYS) {
    const s: Setting = SETTINGS[key];
    const value = raw[key] ?? s.default;
    resolved[key] = value === undefined ? s.fallback?.(resolved) : s.parse(s.env, value);
  }
  const values = resolved as SettingValues;

  // the rules across settings
  const { target, stagingBaseUrl, apiKey, quickstartApiKey, allowInsecureHttp, ...rest } = values;
  const setting = baseSetting(values);
  const base = certifiedAddress(values);
  if (setting && !base) {
    const baseName = SETTINGS[setting].env;
    const embedded = 'or TARGET=embedded for the embedded reference server';
    if (raw.target !== undefined) throw new ConfigError(`TARGET=${target} but ${baseName} is not set: set it, ${embedded}`);
    // a key or address given without the base address is meant for a server of the user's (a CI secret missing on this branch)
    const naming = NAMING_A_TARGET.filter((key) => raw[key] !== undefined).map((key) => SETTINGS[key].env);
    if (naming.length)
      throw new ConfigError(
        `${naming.join(' and ')} ${naming.length === 1 ? 'is' : 'are'} set but ${baseName} is not: set ${baseName} (or TARGET=staging and STAGING_BASE_URL) to the server to certify, ${embedded}`,
      );
  }
  if (record && !base) throw new ConfigError("judge needs BASE_URL: the store's base address, which says which entries of the record are the store's");
  const config: RunConfig = { ...rest, environment: base ? target : 'embedded', baseUrl: undefined, apiKey: undefined, quickstartApiKey: undefined };
  const insecureAllowed = allowInsecureHttp || record;
  if (setting && base) {
    const baseName = SETTINGS[setting].env;
    config.baseUrl = baseAddress(baseName, base, true);
    if (!apiKey && !record) throw new ConfigError(`${baseName} is set but API_KEY is not: the key to certify with is required`);
    config.apiKey = apiKey && headerSafeKey('API_KEY', apiKey);
    refuseInsecure(baseName, config.baseUrl, insecureAllowed);
  }
  if (config.quickstartBaseUrl) {
    const key = quickstartApiKey ?? apiKey;
    if (!key && !record) throw new ConfigError('QUICKSTART_BASE_URL is set but neither QUICKSTART_API_KEY nor API_KEY is');
    config.quickstartApiKey = key && headerSafeKey(quickstartApiKey !== undefined ? 'QUICKSTART_API_KEY' : 'API_KEY', key);
  }
  refuseInsecure('QUICKSTART_BASE_URL', config.quickstartBaseUrl, insecureAllowed);
  return config;
}

/** What the reports of a run whose configuration was refused say of it (refusedRunSettings). */
export interface RefusedRunSettings {
  reportDir: string;
  profile: Profile;
  strict: boolean;
  /** The base address as given where it is one (never with credentials), else empty; environment embedded without one. */
  target: { environment: Environment; baseUrl: string };
  baselineFile?: string;
}

/**
 * The settings of a run whose configuration was refused (a ConfigError), as far as
 * they can be read: each as given where it is valid, else its default. Never throws.
 */
export function refusedRunSettings(argv: string[], env: NodeJS.ProcessEnv, cwd = process.cwd()): RefusedRunSettings {
  const args = parseCommandLine(argv, true);
  let file = { path: '', values: {} };
  try {
    file = settingsFile(args, env, cwd);
  } catch {
    // read without it: flags and the environment still say what they say
  }
  const valueOf = <K extends Key>(key: K): SettingValues[K] => {
    const s: Setting = SETTINGS[key];
    const read = (value: string | undefined) => (value === undefined ? undefined : s.parse(s.env, value));
    try {
      return read(givenValue(key, args, env, file) ?? s.default) as SettingValues[K];
    } catch {
      return read(s.default) as SettingValues[K];
    }
  };
  const given = certifiedAddress({ target: valueOf('target'), baseUrl: valueOf('baseUrl'), stagingBaseUrl: valueOf('stagingBaseUrl') });
  let baseUrl = '';
  try {
    if (given) baseUrl = baseAddress('the base address', given, true);
  } catch {
    // not a base address: the report names none
  }
  return {
    reportDir: valueOf('reportDir'),
    profile: valueOf('profile'),
    strict: valueOf('strict'),
    target: { environment: baseUrl ? valueOf('target') : 'embedded', baseUrl },
    baselineFile: valueOf('baselineFile'),
  };
}
