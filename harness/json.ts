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

/** Parses JSON text; throws SyntaxError on invalid JSON. */
export function parseJson(text: string): unknown {
  const standard = JSON.parse(text); // the standard grammar decides what is valid JSON
  try {
    return parseLossless(text, undefined, parseNumber);
  } catch {
    return standard; // lossless-json refuses duplicate keys, which JSON allows
  }
}

/**
 * A copy for schema validation: bigints become numbers (Ajv has no bigint), and a
 * property whose value is null is left out, as absent: many serialisers write an
 * unset optional field as null, a reasonable choice the description does not rule
 * out. A required property that is null is still missing, and fails.
 */
export function forValidation(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(forValidation);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, forValidation(v)]));
  }
  return value;
}

export function isInteger(value: unknown): value is number | bigint {
  return typeof value === 'bigint' || Number.isInteger(value);
}

/** The exact decimal text of an integer id, for paths and comparisons. */
export function integerText(value: number | bigint): string {
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

/** JSON text for messages; bigints are written as exact integers, a missing value as (absent). */
export function showJson(value: unknown): string {
  if (value === undefined) return '(absent)';
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v))
    .replace(/"(-?\d+)n"/g, '$1');
}
