// Integers beyond 2^53 are parsed as bigint: a rounded id would make a correct server fail.
import { parse as parseLossless } from 'lossless-json';

const INTEGER_LITERAL = /^-?\d+$/;

function parseNumber(text: string): number | bigint {
  const value = Number(text);
  return INTEGER_LITERAL.test(text) && !Number.isSafeInteger(value) ? BigInt(text) : value;
}

/** 2^53 has 16 digits: text without such a run is parsed natively, in a fraction of the time. */
const LONG_DIGITS = /\d{16}/;

export function parseJson(text: string): unknown {
  const standard = JSON.parse(text); // the standard grammar decides what is valid
  if (!LONG_DIGITS.test(text)) return standard;
  try {
    return parseLossless(text, undefined, parseNumber);
  } catch {
    return standard; // lossless-json refuses duplicate keys, which JSON allows
  }
}

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** 2^63 - 1 has no double of its own, so forValidation, which sees the exact integer, decides: this only reads its answer. */
export function isInt64Range(value: number): boolean {
  return value >= -(2 ** 63) && value < 2 ** 63;
}

/** Where in-range integers that would round up to 2^63 go. */
const LARGEST_INT64_DOUBLE = 2 ** 63 - 1024;

function bigintForValidation(value: bigint): number {
  if (value > INT64_MAX) return 2 ** 64;
  if (value < INT64_MIN) return -(2 ** 64); // Number(-(2^63) - 1) would round to -(2^63), inside
  return Math.min(Number(value), LARGEST_INT64_DOUBLE);
}

/** Ajv has no bigint. A null property is left out, as absent: many serialisers write an unset optional field so; a required one is still missing. */
export function forValidation(value: unknown): unknown {
  return needsMapping(value) ? mapForValidation(value) : value; // Ajv never changes the value
}

function needsMapping(value: unknown): boolean {
  if (typeof value === 'bigint') return true;
  if (Array.isArray(value)) return value.some(needsMapping);
  if (value && typeof value === 'object') {
    for (const key in value) {
      const v = (value as Record<string, unknown>)[key];
      if (v === null || needsMapping(v)) return true;
    }
  }
  return false;
}

function mapForValidation(value: unknown): unknown {
  if (typeof value === 'bigint') return bigintForValidation(value);
  if (Array.isArray(value)) return value.map(mapForValidation);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, mapForValidation(v)]),
    );
  }
  return value;
}

export function isInteger(value: unknown): value is number | bigint {
  return typeof value === 'bigint' || Number.isInteger(value);
}

export function jsonInteger(n: bigint): number | bigint {
  return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
}

export function integerText(value: number | bigint): string {
  // far faster than BigInt() (pages of 200,000 ids)
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return typeof value === 'bigint' ? value.toString() : BigInt(value).toString();
}

/** Integers compare exactly: 1 equals 1n. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (isInteger(a) && isInteger(b)) return integerText(a) === integerText(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => sameJson((a as any)[k], (b as any)[k]));
  }
  return Object.is(a, b);
}

/** JSON.stringify cannot write a bigint; request bodies carry int64 values. */
export function stringifyJson(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : stringifyJson(v))).join(',')}]`;
  if (value && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
    const members = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${members.map(([k, v]) => `${JSON.stringify(k)}:${stringifyJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function showJson(value: unknown): string {
  return value === undefined ? '(absent)' : stringifyJson(value);
}
