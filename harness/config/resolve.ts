// Flags over the environment over the settings file. A setting present but empty is an error, not the default: a missing CI secret expands
// to an empty string, and must not certify another target.
import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import {
  ENV_FILE_SETTING,
  KEYS,
  NAMING_A_TARGET,
  SETTINGS,
  baseSetting,
  certifiedAddress,
  defaultOf,
  plain,
  type Key,
  type RunConfig,
  type Setting,
  type SettingValues,
} from './settings.js';
import { ConfigError, baseAddress, headerSafeKey, refuseInsecure } from './values.js';

export interface ParsedArgs {
  help: boolean;
  version: boolean;
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

/** `lenient`: whatever can be read, never throwing (for the reports of a run it refused). */
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
  // leniently parsed, a string flag given no value is true
  const valueOf = (flag: string) => (typeof v[flag] === OPTIONS[flag].type ? String(v[flag]) : undefined);
  const values: ParsedArgs['values'] = {};
  for (const [key, s] of Object.entries(SETTINGS) as Array<[Key, Setting]>) values[key] = valueOf(s.flag);
  return { help: v.help === true, version: v.version === true, list: v.list === true, envFile: valueOf(ENV_FILE_SETTING.flag), values };
}

/** Inserts, deletes and changes of a character. */
function editDistance(a: string, b: string): number {
  let row = [...Array(b.length + 1).keys()];
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/** The closest within a third of its length, or one it is the start of. */
export function nearestFlag(typed: string, flags: string[]): string | undefined {
  const lower = typed.toLowerCase();
  const [best] = flags.map((flag) => ({ flag, d: editDistance(lower, flag) })).sort((a, b) => a.d - b.d);
  if (best && best.d <= Math.max(1, Math.floor(lower.length / 3))) return best.flag;
  return flags.find((flag) => lower.length >= 3 && flag.startsWith(lower));
}

function readEnvFile(path: string, explicit: boolean): Record<string, string> {
  try {
    if (!explicit && !statSync(path, { throwIfNoEntry: false })) return {};
    // loaded only now: --help and --version need no parser
    const { parse } = createRequire(import.meta.url)('dotenv') as typeof import('dotenv');
    return parse(readFileSync(path));
  } catch (err) {
    throw new ConfigError(`cannot read env file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** --dotenv or ENV_FILE, else .env in `cwd` when there is one. */
function settingsFile(args: ParsedArgs, env: NodeJS.ProcessEnv, cwd: string): { path: string; values: Record<string, string> } {
  const envFile = args.envFile ?? env[ENV_FILE_SETTING.env];
  if (envFile === '')
    throw new ConfigError(
      `${args.envFile === '' ? `--${ENV_FILE_SETTING.flag}` : ENV_FILE_SETTING.env} is set but empty: give a file, or unset it to read .env`,
    );
  const path = envFile ?? `${cwd}/.env`;
  return { path, values: readEnvFile(path, envFile !== undefined) };
}

/** Undefined when given nowhere; throws ConfigError when given empty. */
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
 * `record`: the settings of `judge`, which sends nothing: the base address is required (it says which entries are the store's), a key is
 * not, and no address is insecure.
 */
export function resolveConfig(args: ParsedArgs, env: NodeJS.ProcessEnv, cwd = process.cwd(), { record = false } = {}): RunConfig {
  const file = settingsFile(args, env, cwd);
  // every setting, also one this run would not read: an empty one is a mistake wherever it is
  const raw = Object.fromEntries(KEYS.map((key) => [key, givenValue(key, args, env, file)])) as Record<Key, string | undefined>;
  // a fallback may depend on a setting above it (keyVariants on the profile)
  const resolved: Record<string, unknown> = {};
  for (const key of KEYS) {
    const s: Setting = SETTINGS[key];
    const value = raw[key] ?? s.default;
    resolved[key] = value === undefined ? s.fallback?.(resolved) : s.parse(s.env, value);
  }
  const values = resolved as SettingValues;

  const { target, stagingBaseUrl, apiKey, quickstartApiKey, allowInsecureHttp, ...rest } = values;
  const setting = baseSetting(values);
  const base = certifiedAddress(values);
  if (setting && !base) {
    const baseName = SETTINGS[setting].env;
    const embedded = 'or TARGET=embedded for the embedded reference server';
    if (raw.target !== undefined) throw new ConfigError(`TARGET=${target} but ${baseName} is not set: set it, ${embedded}`);
    // a key or address without the base address is meant for a server of the user's (a CI secret missing on this branch)
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

/** What the reports of a run whose configuration was refused say of it: each setting as given where valid, else its default. Never throws. */
export function refusedRunSettings(argv: string[], env: NodeJS.ProcessEnv, cwd = process.cwd()) {
  const args = parseCommandLine(argv, true);
  let file = { path: '', values: {} };
  try {
    file = settingsFile(args, env, cwd);
  } catch {
    // flags and the environment still say what they say
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
  const deployment = valueOf('deployment');
  return {
    reportDir: valueOf('reportDir'),
    profile: valueOf('profile'),
    strict: valueOf('strict'),
    // the deployment too, so that the metrics of a refused run say whose it was
    target: { environment: baseUrl ? valueOf('target') : ('embedded' as const), baseUrl, ...(deployment && { deployment }) },
    baselineFile: valueOf('baselineFile'),
  };
}
