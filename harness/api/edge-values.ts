// The edge values of a property's input space, derived from its JSON schema (type,
// format, bounds, enum): the values ordinary implementation bugs sit on, just
// outside the hand-picked ASCII names and small integers the other probes use.
// Every value is valid for its schema: a server must store it, or refuse it with
// the documented 400, and what it stores must come back exactly.
import { INT64_MAX, INT64_MIN, jsonInteger } from '../model/json.js';

export { INT64_MAX, INT64_MIN };

type Schema = Record<string, any>;

export interface EdgeValue {
  /** What is special about it, for messages: "text in several scripts". */
  label: string;
  value: unknown;
}

/** The smallest and largest integer of a format (int64 when none is given: JSON Schema sets no range). */
function integerRange(schema: Schema): [bigint, bigint] {
  if (schema.format === 'int32') return [-(2n ** 31n), 2n ** 31n - 1n];
  return [INT64_MIN, INT64_MAX];
}

/** The integers a schema allows: its format's range narrowed by its bounds. */
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
  const edges: EdgeValue[] = [];
  for (const [label, n] of candidates) {
    if (n < low || n > high || seen.has(n)) continue;
    seen.add(n);
    edges.push({ label: `${label} (${n})`, value: jsonInteger(n) });
  }
  return edges;
}

/** Exactly `count` code points, cycling through `chars`, after `start`. */
function codePoints(start: string, chars: string, count: number): string {
  const units = [...chars];
  const head = [...start];
  return head.concat(Array.from({ length: Math.max(0, count - head.length) }, (_, i) => units[i % units.length])).join('');
}

/** Every C0 control character but U+0000 (see below), which JSON must write escaped. */
const CONTROLS = Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join('');

/** DEL and every C1 control character: valid JSON as they are, and what a Latin-1 or Windows-1252 layer changes. */
const C1_CONTROLS = Array.from({ length: 0x9f - 0x7f + 1 }, (_, i) => String.fromCharCode(0x7f + i)).join('');

/**
 * One code point of each of the 17 planes: Latin, an emoji, CJK extensions B and G,
 * unassigned ones (planes 4 to 13: valid scalar values, which a store must keep), a tag
 * character, and private use (planes 15 and 16, up to U+10FFFD).
 */
const EVERY_PLANE = [
  0x41, 0x1f600, 0x20000, 0x30000, 0x40000, 0x50000, 0x60000, 0x70000, 0x80000, 0x90000, 0xa0000, 0xb0000, 0xc0000, 0xd0000, 0xe0041, 0xf0000, 0x10fffd,
]
  .map((c) => String.fromCodePoint(c))
  .join('');

/**
 * Strings. Each carries the run's prefix (left-behind data is found by it) but the
 * empty string. Length bounds (minLength, maxLength, counted in code points) are respected; a string
 * with a format or pattern gets no edge values (arbitrary text would not satisfy it).
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
    // not the textbook attacks (a script element, a tautology, DROP TABLE): firewalls in front
    // of an API refuse those, and what is judged is what the store keeps, not the firewall
    { label: 'markup (a store must keep text, not escape or strip it)', value: `${p}<b>bold</b> <i>x</i> &amp; &lt; <!-- c -->` },
    { label: 'text that looks like SQL (quotes, comments)', value: `${p}O'Brien's "pet" -- note; /* block */ \\'` },
    { label: 'percent-encoding (a store must not decode it)', value: `${p}%41%2F%25%00 a+b %E2%9C%93` },
    { label: 'format strings', value: `${p}%s %d %n %x %% {0} {} \${x} {{x}} #{x} %(name)s` },
    {
      label: 'whitespace (runs of spaces, no-break and ideographic spaces, trailing spaces: nothing trimmed or collapsed)',
      value: `${p}two  spaces\u00A0nbsp\u3000ideographic  `,
    },
    // the one value whose prefix is not at its start: the whitespace must come first
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
 * A name that holds one character of many classes at once (several scripts, a decomposed
 * and a precomposed mark, an emoji, a C0 and a C1 control, a line separator, markup,
 * percent-encoding, a trailing space), short enough for a store that limits names to 255
 * characters: the run creates one with its first animals, so that a list which leaves
 * out a kind of name is seen on a small store (LIST-UNFILTERED-COMPLETE).
 */
export function mixedClassesName(prefix: string): string {
  return `${prefix}-mixed Zoë 中文 e\u0301 \u00E9 😀 \u0007\u0085 \u2028 <b>&amp;</b> %41 `;
}

/**
 * The edge values of one property schema (already dereferenced): enum members, integer
 * bounds of its format and schema, strings of every class above, both booleans.
 * Other types get none.
 */
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

/** An integer out of its format's range, which Ajv's int64 format does not see (it checks only integrality). */
export function outOfRange(schema: Schema, value: unknown): boolean {
  if (schema.type !== 'integer' || (typeof value !== 'bigint' && typeof value !== 'number')) return false;
  if (typeof value === 'number' && !Number.isInteger(value)) return false;
  const [low, high] = integerRange(schema);
  const n = BigInt(value);
  return n < low || n > high;
}

/** Probe values for an integer query or path parameter, as the exact decimal text a URL carries. */
export interface IntegerProbes {
  /** Inside the range: its bounds, and 0 and -1 where they are inside it. */
  edges: string[];
  /** Strictly inside the range, between its bounds: the interval values are drawn from (undefined when it is empty). */
  interior?: { min: number; max: number };
  /** Below the minimum: just below, a negative number, the int64 minimum, and beyond int64. */
  below: string[];
  /** Above the maximum: just above, the int64 maximum, and beyond int64. */
  above: string[];
  /** Integers outside the int64 range on either side (for a parameter without bounds). */
  beyondInt64: string[];
  /**
   * Text that is no integer: a number followed by letters (`near` and letters: parseInt
   * reads 7abc as 7, so near is a value that names something where that matters, a real
   * id), a word, a fraction, and `near` as language parsers read it (languageIntegers).
   */
  notInteger: string[];
  /**
   * Text some parsers read as an integer and others refuse: empty, padded with a space,
   * hexadecimal, an exponent. Sent only where both readings are acceptable (a query
   * value that may be refused or read leniently, within the bounds).
   */
  lenient: string[];
}

const decimal = (values: bigint[]) => [...new Set(values.map(String))];

/**
 * Text a language's integer parser reads as `near` though no int64 path value is written
 * so: Python's int() takes underscores between digits, a float parser an exponent,
 * JavaScript's Number() a hexadecimal prefix.
 */
function languageIntegers(near: string): string[] {
  if (!/^\d+$/.test(near)) return [];
  const underscored = near.length > 1 ? `${near.slice(0, -1)}_${near.slice(-1)}` : `0_${near}`;
  return [underscored, `${near}e0`, `0x${BigInt(near).toString(16)}`];
}

/**
 * The values to probe an integer parameter with, from its schema rather than picked by
 * hand: the edges inside its range, the interval between them for values drawn at
 * random, integers just and far outside it, integers no int64 can hold, and text that is
 * no integer. In each list the values most likely to find a bug come first (health sends
 * only the first few).
 */
export function integerProbes(schema: Schema, near = '7'): IntegerProbes {
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

/**
 * The values outside an enumeration a query parameter may get: an unknown word, a
 * member in another letter case (enumeration values are compared exactly), and the
 * empty value. Unknown first (health sends only it).
 */
export function enumProbes(schema: Schema): { members: string[]; outside: string[] } {
  const members: string[] = schema.enum.map(String);
  const outside = ['not-a-member', members[0].toUpperCase(), ''].filter((v) => !members.includes(v));
  return { members, outside };
}
