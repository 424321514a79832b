// One typed, validated configuration from CLI flags, the environment and a .env
// file, in that order of precedence. Every setting has an environment variable and
// a flag; a bad value is a ConfigError (one line, exit code 2). A setting that is
// present but empty is a bad value, not the default: a CI secret that is missing
// or misspelled expands to an empty string, and must not certify another target.
import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parse as parseDotenv } from 'dotenv';
import { PROFILES, type Environment, type Profile } from '../model/types.js';

export class ConfigError extends Error {}

export interface RunConfig {
  /** embedded: no BASE_URL was configured, so the reference server is started and certified. */
  environment: Environment;
  baseUrl?: string;
  apiKey?: string;
  quickstartBaseUrl?: string;
  quickstartApiKey?: string;
  profile: Profile;
  reportDir: string;
  timeoutMs: number;
  deadlineMs: number;
  concurrency: number;
  /** The clock the checks use (deprecation dates); settable for tests. */
  now: Date;
  /** Extra attempts for idempotent requests after a network error or 503. */
  retries: number;
  /** The categoryId of every animal the run sends. */
  categoryId: number;
  /** How far a server's clock may be from the suite's (QS-CREATED-AT-CLOCK). */
  clockToleranceMs: number;
  /** Budget for the p95 response time of each operation (PERF-LATENCY-P95). */
  maxLatencyMs?: number;
  /** SHOULD failures count against the verdict. */
  strict: boolean;
  /** Requirement selectors (id, id prefix ending in -, area, level). */
  only: string[];
  skip: string[];
  /** Known-deviations file: requirement id and reason per line. */
  expectedFailuresFile?: string;
  /** A previous compliance.json to compare the run with (--baseline). */
  baselineFile?: string;
  /** Requests started per second at most; unset: no limit. */
  rate?: number;
  /** How long a just-written animal may take to show in reads (ms); 0: at once. */
  consistencyWindowMs: number;
  /** certify: valid animals generated from the NewPet schema (--examples). */
  examples: number;
  /** Seed of the generated animals; undefined: the session draws one. */
  seed?: number;
}

interface Setting {
  flag: string;
  env: string;
  help: string;
  default?: string;
  secret?: boolean;
  /** A flag without a value (--strict); in the environment one of BOOLEAN_SPELLINGS. */
  boolean?: boolean;
}

/**
 * How long a just-written animal may take to show in reads unless told otherwise:
 * a search index refreshed every second (a common default) with room to spare under
 * load. A server that shows writes at once never waits for it.
 */
export const DEFAULT_CONSISTENCY_WINDOW_MS = 5000;

/** Every setting, as flag and environment variable; --help is printed from this table. */
export const SETTINGS = {
  baseUrl: { flag: 'base-url', env: 'BASE_URL', help: 'Production base address, ending in /v1. Unset: the embedded reference server is certified.' },
  stagingBaseUrl: { flag: 'staging-base-url', env: 'STAGING_BASE_URL', help: 'Staging base address, ending in /v1.' },
  target: { flag: 'target', env: 'TARGET', help: 'production or staging: which base address to certify.', default: 'production' },
  apiKey: { flag: 'api-key', env: 'API_KEY', help: 'The bearer API key (prefer the environment: flags show in process lists).', secret: true },
  quickstartBaseUrl: { flag: 'quickstart-base-url', env: 'QUICKSTART_BASE_URL', help: 'Base address of the quickstart message service. Unset: its checks are skipped.' },
  quickstartApiKey: { flag: 'quickstart-api-key', env: 'QUICKSTART_API_KEY', help: 'Key for the quickstart service (default: API_KEY).', secret: true },
  profile: { flag: 'profile', env: 'PROFILE', help: 'certify (may create data) or health (read-only, for production).', default: 'certify' },
  reportDir: { flag: 'report-dir', env: 'REPORT_DIR', help: 'Where compliance.json, junit.xml and report.html are written.', default: 'reports' },
  timeoutMs: { flag: 'timeout', env: 'REQUEST_TIMEOUT_MS', help: 'Timeout of one request, whole body included: ms, or with a unit (500ms, 10s, 1m).', default: '10000' },
  deadlineMs: { flag: 'deadline', env: 'RUN_DEADLINE_MS', help: 'Deadline of the whole run: ms, or with a unit (90s, 2m).', default: '120000' },
  // 16: fastest in bench/results.md through a 50 ms proxy (8: 1.79 s, 16: 1.17 s; more gains little)
  concurrency: { flag: 'concurrency', env: 'CONCURRENCY', help: 'Requests in flight at once.', default: '32' },
  now: { flag: 'now', env: 'CONFORMANCE_NOW', help: 'The date the checks take as today (ISO 8601), e.g. to rehearse the removal of getPet.' },
  retries: { flag: 'retries', env: 'RETRIES', help: 'Retries of an idempotent request after a network error or 503, with backoff (a 429 is always retried).', default: '0' },
  categoryId: { flag: 'category-id', env: 'CATEGORY_ID', help: 'categoryId of every animal the run sends (for a server that knows only some categories).', default: '1' },
  clockTolerance: { flag: 'clock-tolerance', env: 'CLOCK_TOLERANCE', help: 'How far a server\'s clock may be from this machine\'s (createdAt timestamps): a duration.', default: '5m' },
  maxLatencyMs: { flag: 'max-latency-ms', env: 'MAX_LATENCY_MS', help: 'Latency budget: PERF-LATENCY-P95 fails when an operation\'s p95 exceeds it.' },
  strict: { flag: 'strict', env: 'STRICT', help: 'SHOULD failures make the run non-compliant too.', boolean: true },
  allowInsecureHttp: { flag: 'allow-insecure-http', env: 'ALLOW_INSECURE_HTTP', help: 'Allow sending the key over plain http to a host other than loopback.', boolean: true },
  only: { flag: 'only', env: 'ONLY', help: 'Run only these requirements: ids, id prefixes (LIST-), areas or levels, comma-separated.' },
  skip: { flag: 'skip', env: 'SKIP', help: 'Skip these requirements (same selectors as --only).' },
  expectedFailures: { flag: 'expected-failures', env: 'EXPECTED_FAILURES', help: 'Known-deviations file: "<ID> <reason>" per line; listed failures do not count.' },
  baseline: { flag: 'baseline', env: 'BASELINE', help: 'A previous compliance.json: the reports say what newly fails, recovered or still fails since.' },
  rate: { flag: 'rate', env: 'RATE', help: 'Requests per second at most, for a server with a known rate limit (unset: none; a 429 slows the run down anyway).' },
  consistencyWindow: { flag: 'consistency-window', env: 'CONSISTENCY_WINDOW', help: 'How long a just-created animal may take to show in the list and getPet: a duration (5s, 1500ms); 0 for strict read-after-write.', default: `${DEFAULT_CONSISTENCY_WINDOW_MS / 1000}s` },
  examples: { flag: 'examples', env: 'EXAMPLES', help: 'certify: how many valid animals to generate from the NewPet schema and follow back (0: none; health creates none).', default: '5' },
  seed: { flag: 'seed', env: 'SEED', help: 'Seed of the generated animals (0 to 2147483647; default random, shown in the reports): the same seed draws the same values.' },
} satisfies Record<string, Setting>;

type Key = keyof typeof SETTINGS;

export interface ParsedArgs {
  help: boolean;
  version: boolean;
  /** --list: print the requirement catalogue. */
  list: boolean;
  envFile?: string;
  values: Partial<Record<Key, string>>;
}

export function parseCommandLine(argv: string[]): ParsedArgs {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean' },
    list: { type: 'boolean' },
    // not --env-file: Node 20 takes that flag for itself even after the script name
    dotenv: { type: 'string' },
  };
  for (const s of Object.values<Setting>(SETTINGS)) options[s.flag] = { type: s.boolean ? 'boolean' : 'string' };
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, strict: true, allowPositionals: false });
  } catch (err) {
    throw new ConfigError((err as Error).message.split('\n')[0]);
  }
  const v = parsed.values as Record<string, string | boolean | undefined>;
  const values: ParsedArgs['values'] = {};
  for (const [key, s] of Object.entries(SETTINGS) as Array<[Key, Setting]>) {
    if (v[s.flag] !== undefined) values[key] = String(v[s.flag]);
  }
  return { help: Boolean(v.help), version: Boolean(v.version), list: Boolean(v.list), envFile: v.dotenv as string | undefined, values };
}

function readEnvFile(path: string, explicit: boolean): Record<string, string> {
  try {
    if (!explicit && !statSync(path, { throwIfNoEntry: false })) return {};
    return parseDotenv(readFileSync(path));
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
  if (url.search || url.hash || url.username || url.password) throw new ConfigError(`${name} must be a plain base address without query, fragment or credentials`);
  const path = url.pathname.replace(/\/+$/, '');
  if (requireV1 && !path.endsWith('/v1')) throw new ConfigError(`${name} must end in the path segment /v1, as the API description's base addresses do: ${value}`);
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
export const MAX_SEED = 2 ** 31 - 1;

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

const BOOLEAN_SPELLINGS = { true: ['1', 'true', 'yes', 'on', 'y'], false: ['0', 'false', 'no', 'off', 'n'] };

function flag(name: string, value: string | undefined): boolean {
  if (value === undefined) return false;
  const spelled = value.toLowerCase();
  if (BOOLEAN_SPELLINGS.true.includes(spelled)) return true;
  if (BOOLEAN_SPELLINGS.false.includes(spelled)) return false;
  throw new ConfigError(`${name} must be one of ${BOOLEAN_SPELLINGS.true.join(', ')} (on) or ${BOOLEAN_SPELLINGS.false.join(', ')} (off), in any case; got ${value}`);
}

const list = (value: string | undefined) => (value ?? '').split(',').map((t) => t.trim()).filter(Boolean);

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** The key must not cross a network in clear text unless the user says so. */
function refuseInsecure(name: string, url: string | undefined, allowed: boolean): void {
  if (!url || allowed) return;
  const { protocol, hostname } = new URL(url);
  if (protocol === 'http:' && !LOOPBACK.test(hostname)) {
    throw new ConfigError(`refusing to send the API key over plain http to ${hostname} (${name}); use https, or --allow-insecure-http`);
  }
}

/** Resolves flags, environment and .env into a RunConfig, or throws ConfigError. */
export function resolveConfig(args: ParsedArgs, env: NodeJS.ProcessEnv, cwd = process.cwd()): RunConfig {
  const envFile = args.envFile ?? env.ENV_FILE;
  if (envFile === '') throw new ConfigError(`${args.envFile === '' ? '--dotenv' : 'ENV_FILE'} is set but empty: give a file, or unset it to read .env`);
  const envPath = envFile ?? `${cwd}/.env`;
  const fileEnv = readEnvFile(envPath, envFile !== undefined);
  /** The setting as given, by flag, environment or file; the default only when it is given nowhere. */
  const get = (key: Key): string | undefined => {
    const s: Setting = SETTINGS[key];
    const [value, where] = args.values[key] !== undefined ? [args.values[key], `--${s.flag}`]
      : env[s.env] !== undefined ? [env[s.env], s.env]
      : [fileEnv[s.env], `${s.env} (in ${envPath})`];
    if (value === '') {
      throw new ConfigError(`${where} is set but empty (a missing CI secret expands to an empty string): give it a value, or unset it${s.default !== undefined ? ` for the default, ${s.default}` : ''}`);
    }
    return value ?? s.default;
  };
  // every setting, also those this run would not read: an empty one is a mistake wherever it is
  for (const key of Object.keys(SETTINGS) as Key[]) get(key);

  const profile = get('profile') as Profile;
  if (!PROFILES.includes(profile)) throw new ConfigError(`PROFILE must be one of ${PROFILES.join(', ')}, got ${profile}`);
  const targetRaw = args.values.target ?? env.TARGET ?? fileEnv.TARGET;
  const target = get('target');
  if (target !== 'production' && target !== 'staging') throw new ConfigError(`TARGET must be production or staging, got ${target}`);

  const base = target === 'staging' ? get('stagingBaseUrl') : get('baseUrl');
  const baseName = target === 'staging' ? 'STAGING_BASE_URL' : 'BASE_URL';
  if (!base && targetRaw) throw new ConfigError(`TARGET=${target} but ${baseName} is not set`);
  const now = get('now');
  if (now !== undefined && Number.isNaN(Date.parse(now))) throw new ConfigError(`CONFORMANCE_NOW is not a date: ${now}`);

  const config: RunConfig = {
    environment: base ? target : 'embedded',
    profile,
    reportDir: get('reportDir')!,
    timeoutMs: duration('REQUEST_TIMEOUT_MS', get('timeoutMs')!),
    deadlineMs: duration('RUN_DEADLINE_MS', get('deadlineMs')!),
    concurrency: positiveInteger('CONCURRENCY', get('concurrency')!),
    now: now ? new Date(now) : new Date(),
    retries: positiveInteger('RETRIES', get('retries')!, 0),
    categoryId: positiveInteger('CATEGORY_ID', get('categoryId')!, 0),
    clockToleranceMs: duration('CLOCK_TOLERANCE', get('clockTolerance')!),
    strict: flag('STRICT', get('strict')),
    only: list(get('only')),
    skip: list(get('skip')),
    consistencyWindowMs: duration('CONSISTENCY_WINDOW', get('consistencyWindow')!, 0),
    examples: positiveInteger('EXAMPLES', get('examples')!, 0),
  };
  const rate = get('rate');
  if (rate !== undefined) {
    if (!/^\d+(\.\d+)?$/.test(rate) || !(Number(rate) > 0)) throw new ConfigError(`RATE must be a number of requests per second above 0, got ${rate}`);
    config.rate = Number(rate);
  }
  const seed = get('seed');
  if (seed !== undefined) config.seed = boundedInteger('SEED', seed, MAX_SEED);
  const maxLatency = get('maxLatencyMs');
  if (maxLatency !== undefined) config.maxLatencyMs = positiveInteger('MAX_LATENCY_MS', maxLatency);
  const expectedFailures = get('expectedFailures');
  if (expectedFailures !== undefined) config.expectedFailuresFile = expectedFailures;
  const baseline = get('baseline');
  if (baseline !== undefined) config.baselineFile = baseline;
  const qsBase = get('quickstartBaseUrl');
  if (qsBase) config.quickstartBaseUrl = baseAddress('QUICKSTART_BASE_URL', qsBase, false);
  if (base) {
    config.baseUrl = baseAddress(baseName, base, true);
    const apiKey = get('apiKey');
    if (!apiKey) throw new ConfigError(`${baseName} is set but API_KEY is not: the key to certify with is required`);
    config.apiKey = headerSafeKey('API_KEY', apiKey);
  }
  if (config.quickstartBaseUrl) {
    const own = get('quickstartApiKey');
    const key = own ?? get('apiKey');
    if (!key) throw new ConfigError('QUICKSTART_BASE_URL is set but neither QUICKSTART_API_KEY nor API_KEY is');
    config.quickstartApiKey = headerSafeKey(own !== undefined ? 'QUICKSTART_API_KEY' : 'API_KEY', key);
  }
  const allowInsecure = flag('ALLOW_INSECURE_HTTP', get('allowInsecureHttp'));
  refuseInsecure(baseName, config.baseUrl, allowInsecure);
  refuseInsecure('QUICKSTART_BASE_URL', config.quickstartBaseUrl, allowInsecure);
  return config;
}
