// Each parser throws ConfigError (one line, exit code 2) naming the setting.
import { SIZE_UNITS } from '../model/units.js';

export class ConfigError extends Error {}

/** The rules across settings check these (the base addresses and keys). */
export const text = (_name: string, value: string) => value;

export function baseAddress(name: string, value: string, requireV1: boolean): string {
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

/** Not trimmed: a silently changed key could certify with the wrong one. The message never holds the key. */
export function headerSafeKey(name: string, key: string): string {
  if (/[^\t\x20-\x7e\x80-\xff]/.test(key)) {
    const hint = /[\r\n]$/.test(key) ? 'a newline at its end?' : 'a control character?';
    throw new ConfigError(`${name} contains a character an HTTP header cannot carry (${hint})`);
  }
  if (/^[\t ]|[\t ]$/.test(key)) throw new ConfigError(`${name} begins or ends with white space, which an HTTP header does not carry`);
  return key;
}

export const oneOf =
  <T extends string>(values: readonly T[]) =>
  (name: string, value: string): T => {
    if (!values.includes(value as T)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got ${value}`);
    return value as T;
  };

export function positiveInteger(name: string, value: string, min = 1): number {
  if (!/^\d+$/.test(value) || Number(value) < min) throw new ConfigError(`${name} must be an integer of at least ${min}, got ${value}`);
  return Number(value);
}

/** fast-check's seeds are 32-bit integers; a non-negative one reads the same everywhere. */
export const MAX_SEED = 2 ** 31 - 1;

export function boundedInteger(name: string, value: string, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) > max) throw new ConfigError(`${name} must be an integer from 0 to ${max}, got ${value}`);
  return Number(value);
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function duration(name: string, value: string, min = 1): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  const ms = m ? Math.round(Number(m[1]) * UNIT_MS[m[2] ?? 'ms']) : NaN;
  if (!(ms >= min)) throw new ConfigError(`${name} must be a duration such as 1500, 1500ms, 90s or 2m, got ${value}`);
  // "--timeout 5" is meant as seconds far more often than as 5 ms
  if (!m![2] && ms > 0 && ms < 100) throw new ConfigError(`${name}=${value} is ${value} milliseconds; give a unit (${value}s) or at least 100 ms`);
  return ms;
}

/** 0 is refused: nothing could be read. */
export function size(name: string, value: string): number {
  const m = /^(\d+)\s*(B|KiB|MiB|GiB)?$/i.exec(value.trim());
  const bytes = m ? Number(m[1]) * SIZE_UNITS[(m[2] ?? '').toLowerCase()] : NaN;
  if (!(bytes >= 1) || !Number.isSafeInteger(bytes)) throw new ConfigError(`${name} must be a size above 0 such as 1048576, 512KiB or 16MiB, got ${value}`);
  return bytes;
}

const BOOLEAN_SPELLINGS = { true: ['1', 'true', 'yes', 'on', 'y'], false: ['0', 'false', 'no', 'off', 'n'] };

export function flag(name: string, value: string): boolean {
  const spelled = value.toLowerCase();
  if (BOOLEAN_SPELLINGS.true.includes(spelled)) return true;
  if (BOOLEAN_SPELLINGS.false.includes(spelled)) return false;
  throw new ConfigError(
    `${name} must be one of ${BOOLEAN_SPELLINGS.true.join(', ')} (on) or ${BOOLEAN_SPELLINGS.false.join(', ')} (off), in any case; got ${value}`,
  );
}

export const list = (value: string) =>
  value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

export function refuseInsecure(name: string, url: string | undefined, allowed: boolean): void {
  if (!url || allowed) return;
  const { protocol, hostname } = new URL(url);
  if (protocol === 'http:' && !LOOPBACK.test(hostname)) {
    throw new ConfigError(`refusing to send the API key over plain http to ${hostname} (${name}); use https, or --allow-insecure-http`);
  }
}
