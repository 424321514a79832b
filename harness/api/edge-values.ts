// Values ordinary implementation bugs sit on, derived from a property's schema. Every one is valid: a server must store it exactly, or
// refuse it with the documented 400.
import { INT64_MAX, INT64_MIN, jsonInteger } from '../model/json.js';

export { INT64_MAX, INT64_MIN };

type Schema = Record<string, any>;

interface EdgeValue {
  label: string;
  value: unknown;
}

/** int64 when no format is given: JSON Schema sets no range. */
function integerRange(schema: Schema): [bigint, bigint] {
  if (schema.format === 'int32') return [-(2n ** 31n), 2n ** 31n - 1n];
  return [INT64_MIN, INT64_MAX];
}

export function integerBounds(schema: Schema): [bigint, bigint] {
  let [low, high] = integerRange(schema);
  if (schema.minimum !== undefined) low = BigInt(Math.ceil(schema.minimum));
  if (schema.exclusiveMinimum !== undefined) low = BigInt(Math.floor(schema.exclusiveMinimum)) + 1n;
  if (schema.maximum !== undefined) high = BigInt(Math.floor(schema.maximum));
  if (schema.exclusiveMaximum !== undefined) high = BigInt(Math.ceil(schema.exclusiveMaximum)) - 1n;
  return [low, high];
}

function integerEdges(schema: Schema): EdgeValue[] {
  const [low, high] = integerBounds(schema);
  const [formatLow, formatHigh] = integerRange(schema);
  const candidates: Array<[string, bigint]> = [
    ['zero', 0n],
    ['a negative value', -1n],
    ['2^31, one above the largest int32', 2n ** 31n],
    ['2^32, one above the largest uint32', 2n ** 32n],
    ['2^53 - 1, the largest integer a double holds exactly', 2n ** 53n - 1n],
    ['2^53 + 1, which a double rounds to 2^53', 2n ** 53n + 1n],
    [`the smallest ${schema.format ?? 'int64'}`, formatLow],
    [`the largest ${schema.format ?? 'int64'}`, formatHigh],
    ["the schema's minimum", low],
    ["the schema's maximum", high],
  ];
  const seen = new Set<bigint>();
  return candidates
    .filter(([, n]) => n >= low && n <= high && !seen.has(n) && seen.add(n))
    .map(([label, n]) => ({ label: `${label} (${n})`, value: jsonInteger(n) }));
}

function codePoints(start: string, chars: string, count: number): string {
  const units = [...chars];
  const head = [...start];
  return head.concat(Array.from({ length: Math.max(0, count - head.length) }, (_, i) => units[i % units.length])).join('');
}

/** U+0000 has a value of its own, below. */
const CONTROLS = Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join('');

/** Valid JSON as they are, and what a Latin-1 or Windows-1252 layer changes. */
const C1_CONTROLS = Array.from({ length: 0x9f - 0x7f + 1 }, (_, i) => String.fromCharCode(0x7f + i)).join('');

/** Planes 4 to 13 are unassigned but valid scalar values, which a store must keep. */
const EVERY_PLANE = [
  0x41, 0x1f600, 0x20000, 0x30000, 0x40000, 0x50000, 0x60000, 0x70000, 0x80000, 0x90000, 0xa0000, 0xb0000, 0xc0000, 0xd0000, 0xe0041, 0xf0000, 0x10fffd,
]
  .map((c) => String.fromCodePoint(c))
  .join('');

/**
 * Each carries the run's prefix (left-behind data is found by it), but the empty string; a string with a format or pattern gets none:
 * arbitrary text would not satisfy it.
 */
function stringEdges(schema: Schema, prefix: string): EdgeValue[] {
  if (schema.format !== undefined || schema.pattern !== undefined) return [];
  const p = `${prefix}-`;
  const candidates: EdgeValue[] = [
    {
      label: 'text in several scripts (Latin with diacritics, Greek, Cyrillic, CJK, Hangul, Arabic and Hebrew written right to left, Devanagari)',
      value: `${p}Zoë Ñandú Ærøskøbing Ελληνικά Кириллица 中文 日本語 한국어 العربية עברית हिन्दी`,
    },
    { label: 'astral-plane characters (emoji, a ZWJ family, a flag, a CJK extension B ideograph)', value: `${p}😀 👩‍👩‍👧‍👦 🇳🇿 𝄞 𠜎` },
    {
      label: 'combining marks, decomposed (e + U+0301, a + U+030A, Hangul jamo): must not be normalised to NFC',
      value: `${p}e\u0301 a\u030A n\u0303 \u1112\u1161\u11AB`,
    },
    {
      label: 'invisible format characters (zero-width space, ZWJ, byte order mark, right-to-left mark, soft hyphen)',
      value: `${p}a\u200Bb\u200Dc\uFEFFd\u200Fe\u00ADf`,
    },
    { label: 'characters JSON must escape (quote, backslash, every control character U+0001 to U+001F)', value: `${p}"quoted" back\\slash /slash ${CONTROLS}` },
    // many stores (PostgreSQL's text type) cannot hold it: a refusal is not held against them
    { label: 'U+0000 (NUL) inside the text', value: `${p}before\u0000after` },
    // a home-made JSON reader that takes a long digit run for a number it cannot hold
    { label: 'a run of 20 digits (an order or a phone number)', value: `${p}order 12345678901234567890` },
    { label: 'U+2028 and U+2029 (line and paragraph separators, which some JSON writers mishandle)', value: `${p}line\u2028paragraph\u2029end` },
    { label: 'C1 control characters and DEL (U+007F to U+009F), which Latin-1 layers mangle', value: `${p}${C1_CONTROLS}end` },
    {
      label: 'precomposed characters (NFC) and combining marks out of canonical order: NFD, or any normalisation, would change them',
      value: `${p}\u00E9 \u00E5 \uD55C e\u0302\u0323`,
    },
    {
      label: 'compatibility characters (a ligature, a circled digit, fullwidth and half-width forms, a superscript): NFKC would change them',
      value: `${p}\uFB01 \u2460 \uFF21\uFF42 \uFF76 \u00B2 \u2127`,
    },
    { label: 'a code point of every plane (0 to 16), private-use and tag characters among them', value: `${p}${EVERY_PLANE}` },
    // not the textbook attacks: firewalls in front of an API refuse those, and what is judged is what the store keeps
    { label: 'markup (a store must keep text, not escape or strip it)', value: `${p}<b>bold</b> <i>x</i> &amp; &lt; <!-- c -->` },
    { label: 'text that looks like SQL (quotes, comments)', value: `${p}O'Brien's "pet" -- note; /* block */ \\'` },
    { label: 'percent-encoding (a store must not decode it)', value: `${p}%41%2F%25%00 a+b %E2%9C%93` },
    { label: 'format strings', value: `${p}%s %d %n %x %% {0} {} \${x} {{x}} #{x} %(name)s` },
    {
      label: 'whitespace (runs of spaces, no-break and ideographic spaces, trailing spaces: nothing trimmed or collapsed)',
      value: `${p}two  spaces\u00A0nbsp\u3000ideographic  `,
    },
    // the one value whose prefix is not at its start
    { label: 'whitespace at the start (spaces, a tab, a no-break space)', value: `  \t\u00A0${p}starts with whitespace` },
    { label: 'a long value (1,024 characters)', value: codePoints(p, 'abcdefghijklmnopqrstuvwxyz', 1024) },
    { label: 'a long value of multi-byte characters (4,096 code points; UTF-8 of 2, 3 and 4 bytes)', value: codePoints(p, 'é中😀', 4096) },
    { label: 'the empty string', value: '' },
  ];
  const length = (s: string) => [...s].length;
  const fits = (s: string) => length(s) >= (schema.minLength ?? 0) && length(s) <= (schema.maxLength ?? Infinity);
  const edges = candidates.filter((e) => fits(e.value as string));
  if (schema.maxLength !== undefined && schema.maxLength >= length(p)) {
    edges.push({ label: `exactly maxLength (${schema.maxLength}) characters`, value: codePoints(p, 'x', schema.maxLength) });
  }
  return edges;
}

/**
 * One character of many classes, under 255 characters: the run creates one with its first animals, so that a list which leaves out a kind
 * of name is seen on a small store.
 */
export function mixedClassesName(prefix: string): string {
  return `${prefix}-mixed Zoë 中文 e\u0301 \u00E9 😀 \u0007\u0085 \u2028 <b>&amp;</b> %41 `;
}

/** The schema already dereferenced; types other than these get none. */
export function edgeValues(schema: Schema, prefix: string): EdgeValue[] {
  if (Array.isArray(schema.enum)) return schema.enum.map((value: unknown) => ({ label: `the enumeration member ${JSON.stringify(value)}`, value }));
  switch (schema.type) {
    case 'integer':
      return integerEdges(schema);
    case 'string':
      return stringEdges(schema, prefix);
    case 'boolean':
      return [
        { label: 'true', value: true },
        { label: 'false', value: false },
      ];
    default:
      return [];
  }
}

/** Ajv's int64 format checks only integrality. */
export function outOfRange(schema: Schema, value: unknown): boolean {
  if (schema.type !== 'integer' || (typeof value !== 'bigint' && typeof value !== 'number')) return false;
  if (typeof value === 'number' && !Number.isInteger(value)) return false;
  const [low, high] = integerRange(schema);
  const n = BigInt(value);
  return n < low || n > high;
}

const decimal = (values: bigint[]) => [...new Set(values.map(String))];

/** Python's int() takes underscores between digits, a float parser an exponent, JavaScript's Number() a hexadecimal prefix. */
function languageIntegers(near: string): string[] {
  if (!/^\d+$/.test(near)) return [];
  const underscored = near.length > 1 ? `${near.slice(0, -1)}_${near.slice(-1)}` : `0_${near}`;
  return [underscored, `${near}e0`, `0x${BigInt(near).toString(16)}`];
}

/**
 * Exact decimal text, as a URL carries it, the values most likely to find a bug first
 * (health sends only the first few). `near` should name something (a real id): parseInt
 * reads 7abc as 7. `lenient`: what some parsers read as an integer and others refuse.
 */
export function integerProbes(schema: Schema, near = '7') {
  if (schema.type !== 'integer') throw new Error(`not an integer parameter: ${JSON.stringify(schema)}`);
  const [low, high] = integerBounds(schema);
  const beyondBelow = [INT64_MIN - 1n];
  const beyondAbove = [INT64_MAX + 1n, 10n ** 20n];
  return {
    edges: decimal([-1n, high, 0n, low].filter((n) => n >= low && n <= high)),
    ...(high - low > 1n && high - low < 2n ** 53n && { interior: { min: Number(low) + 1, max: Number(high) - 1 } }),
    below: low > INT64_MIN ? decimal([low - 1n, -1n, INT64_MIN, ...beyondBelow].filter((n) => n < low)) : [],
    above: high < INT64_MAX ? decimal([high + 1n, INT64_MAX, ...beyondAbove].filter((n) => n > high)) : [],
    beyondInt64: decimal([...beyondAbove, ...beyondBelow]),
    notInteger: [`${near}abc`, 'abc', '1.5', ...languageIntegers(near)],
    lenient: ['', ` ${near}`, '0x10', '1e3'],
  };
}

/** Enumeration values are compared exactly; unknown first (health sends only it). */
export function enumProbes(schema: Schema): { members: string[]; outside: string[] } {
  const members: string[] = schema.enum.map(String);
  const outside = ['not-a-member', members[0].toUpperCase(), ''].filter((v) => !members.includes(v));
  return { members, outside };
}
