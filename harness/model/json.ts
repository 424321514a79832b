// JSON that keeps 64-bit integers exact. Many services hand out int64 ids beyond
// 2^53; JSON.parse would round them, and a rounded id would make a correct server
// fail (the wrong animal fetched, "duplicate" ids). Integers beyond the safe range
// are parsed as bigint; everything else is what JSON.parse gives.
import { parse as parseLossless } from 'lossless-json';

const INTEGER_LITERAL = /^-?\d+$/;

function parseNumber(text: string): number | bigint {
  const value = Number(text);
  return INTEGER_LITERAL.test(text) && !Number.isSafeInteger(value) ? BigInt(text) : value;
}

/**
 * Digits enough for an integer JSON.parse may round: 2^53 has 16. Text without such a
 * run holds no integer beyond the safe range, and JSON.parse gives just what the
 * lossless parse would, in a fraction of the time: most bodies are parsed once, natively.
 */
const LONG_DIGITS = /\d{16}/;

/** Parses JSON text; throws SyntaxError on invalid JSON. */
export function parseJson(text: string): unknown {
  const standard = JSON.parse(text); // the standard grammar decides what is valid JSON
  if (!LONG_DIGITS.test(text)) return standard;
  try {
    return parseLossless(text, undefined, parseNumber);
  } catch {
    return standard; // lossless-json refuses duplicate keys, which JSON allows
  }
}

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/**
 * Whether a number given to schema validation lies in the int64 range (the 'int64'
 * format, see spec.ts). Doubles from -(2^63) up to but not including 2^63: 2^63 - 1
 * has no double of its own (it rounds to 2^63), so forValidation, which sees the
 * exact integer, maps every in-range bigint below 2^63 and every out-of-range one
 * beyond it: the mapping decides, this comparison only reads its answer.
 */
export function isInt64Range(value: number): boolean {
  return value >= -(2 ** 63) && value < 2 ** 63;
}

/** The largest double below 2^63, where in-range integers that would round up to 2^63 go. */
const LARGEST_INT64_DOUBLE = 2 ** 63 - 1024;

/** An exact integer as a number for Ajv, on the right side of the int64 range's boundary. */
function bigintForValidation(value: bigint): number {
  if (value > INT64_MAX) return 2 ** 64;
  if (value < INT64_MIN) return -(2 ** 64); // Number(-(2^63) - 1) would round to -(2^63), inside
  return Math.min(Number(value), LARGEST_INT64_DOUBLE);
}

/**
 * A copy for schema validation: bigints become numbers (Ajv has no bigint) that keep
 * the answer to "inside the int64 range?" (see isInt64Range), and a property whose
 * value is null is left out, as absent: many serialisers write an unset optional
 * field as null, a reasonable choice the description does not rule out. A required
 * property that is null is still missing, and fails.
 */
export function forValidation(value: unknown): unknown {
  return needsMapping(value) ? mapForValidation(value) : value; // Ajv reads the value, never changes it
}

/** Whether a value holds a bigint or a property whose value is null: what forValidation changes. */
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

/** An integer as JSON values hold it here: a number where that is exact, else a bigint. */
export function jsonInteger(n: bigint): number | bigint {
  return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
}

/** The exact decimal text of an integer id, for paths and comparisons. */
export function integerText(value: number | bigint): string {
  // String() writes a safe integer exactly, and far faster than BigInt() (pages of 200,000 ids)
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return typeof value === 'bigint' ? value.toString() : BigInt(value).toString();
}

/** Deep equality in which integers compare exactly (1 equals 1n, 2^53 does not equal 2^53+1). */
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

/**
 * JSON text in which bigints are written as exact integers (JSON.stringify cannot
 * write a bigint at all): request bodies carry int64 values such as 2^63 - 1.
 * Members whose value is undefined are left out, as JSON.stringify leaves them.
 */
export function stringifyJson(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : stringifyJson(v))).join(',')}]`;
  if (value && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
    const members = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${members.map(([k, v]) => `${JSON.stringify(k)}:${stringifyJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** JSON text for messages; bigints are written as exact integers, a missing value as (absent). */
export function showJson(value: unknown): string {
  return value === undefined ? '(absent)' : stringifyJson(value);
}
