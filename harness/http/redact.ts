// Keeps secrets out of every output: each secret, and the forms a server echoing a
// header back might give it (URL-encoded, base64, JSON-escaped), is replaced by a label.
export interface Secret {
  value: string;
  label: string;
}

/**
 * What a key is, as far as a server may read it: a JWT (three base64url segments: the
 * server may verify the signature it decodes), a UUID or plain hex (case-insensitive:
 * a server may compare the value, not the text), or any other text (compared as text,
 * or decoded as base64 or base64url).
 */
export type KeyFormat = 'jwt' | 'uuid' | 'hex' | 'text';

export function keyFormat(key: string): KeyFormat {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(key)) return 'uuid';
  if (/^[0-9a-f]+$/i.test(key)) return 'hex';
  if (/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(key)) return 'jwt';
  return 'text';
}

/** Letter case means nothing to a UUID or hex key read as the value it names. */
const caseSignificant = (format: KeyFormat) => format !== 'uuid' && format !== 'hex';

/** Another character of the same kind (digit, lower- or upper-case letter; a hex digit for hex keys) as ch; X for any other. */
function otherOfKind(ch: string, hex = false): string {
  const next = (from: string, size: number) => String.fromCharCode(from.charCodeAt(0) + ((ch.charCodeAt(0) - from.charCodeAt(0) + 1) % size));
  if (/[0-9]/.test(ch)) return next('0', 10);
  if (/[a-z]/.test(ch)) return next('a', hex ? 6 : 26);
  if (/[A-Z]/.test(ch)) return next('A', hex ? 6 : 26);
  return 'X';
}

/**
 * The position whose change changes what the key means. The last character of a
 * base64 or base64url text may carry bits a decoder drops (the 43rd character of an
 * HS256 signature holds 4 bits of its 6, so a lenient decoder reads the same
 * signature), and padding (=) carries none: so the character before the last one
 * that is not padding, which carries 6 whole bits. Any character of a hex or UUID key
 * carries its 4 bits: the last.
 */
function significantIndex(key: string, format: KeyFormat): number {
  if (format === 'uuid' || format === 'hex') return key.length - 1;
  return Math.max(0, key.replace(/=+$/, '').length - 2);
}

/**
 * A key that is not valid but looks it: one significant character (significantIndex)
 * changed to another of the same kind. Printed as a bash expansion of the variable that
 * gives it back: ${VAR%?}c for the last character, ${VAR:0:17}c${VAR:18} for another.
 */
export function nearMiss(key: string, variable: string): Secret {
  const format = keyFormat(key);
  const at = significantIndex(key, format);
  const changed = otherOfKind(key[at], format === 'uuid' || format === 'hex');
  const name = variable.slice(1);
  const label = at === key.length - 1 ? `\${${name}%?}${changed}` : `\${${name}:0:${at}}${changed}\${${name}:${at + 1}}`;
  return { value: key.slice(0, at) + changed + key.slice(at + 1), label };
}

export type NearMissKind = 'changed' | 'extended' | 'shortened' | 'case-changed' | 'prefixed' | 'second-word';

export interface NearMiss extends Secret {
  kind: NearMissKind;
  /** What it is, for messages: "the key with a character changed". */
  what: string;
}

/**
 * The family of near-miss credentials, each sent as `Bearer <value>` and each a key only
 * a faulty comparison accepts, whatever the key's format (keyFormat): changed (nearMiss),
 * extended, shortened, case-changed, prefixed, second-word. Which faulty comparison each
 * catches, and what is not sent, is said in the catalogue's accepts of AUTH-INVALID-KEY;
 * how each is made so that no decoder of the key's format reads it as the key is said
 * here, where it is made: no case change where case means nothing (caseSignificant),
 * characters two at a time and before any padding. Each one's label is
 * a bash expression of the key's variable that expands to the same value (${VAR}cc,
 * ${VAR%??}, ${VAR^^}, x${VAR}, ...), so reports and curl lines never hold the key and
 * still reproduce the request. Duplicates, the key itself and the empty string are left out.
 */
export function nearMisses(key: string, variable: string): NearMiss[] {
  const name = variable.slice(1);
  const format = keyFormat(key);
  // base64 padding carries nothing, and a decoder stops at it: characters go in and out before it
  const end = key.replace(/=+$/, '').length;
  const padded = end < key.length;
  const [data, padding] = [key.slice(0, end), key.slice(end)];
  const two = otherOfKind(data.slice(-1), !caseSignificant(format)).repeat(2);
  const first = otherOfKind(key.slice(0, 1));
  const upper = key.replace(/[a-z]+/g, (s) => s.toUpperCase());
  const lower = key.replace(/[A-Z]+/g, (s) => s.toLowerCase());
  const caseChanged: NearMiss[] = !caseSignificant(format)
    ? []
    : [
        upper !== key
          ? { kind: 'case-changed', value: upper, label: `\${${name}^^}`, what: 'the key upper-cased' }
          : { kind: 'case-changed', value: lower, label: `\${${name},,}`, what: 'the key lower-cased' },
      ];
  const family: NearMiss[] = [
    { ...nearMiss(key, variable), kind: 'changed', what: 'the key with a character changed' },
    // two characters, not one: a decoder of base64 or hex drops a trailing partial byte
    {
      kind: 'extended',
      value: data + two + padding,
      label: padded ? `\${${name}:0:${end}}${two}\${${name}:${end}}` : `\${${name}}${two}`,
      what: 'the key with two more characters',
    },
    {
      kind: 'shortened',
      value: data.slice(0, -2) + padding,
      label: padded ? `\${${name}:0:${end - 2}}\${${name}:${end}}` : `\${${name}%??}`,
      what: 'the key without its last two characters',
    },
    ...caseChanged,
    { kind: 'prefixed', value: first + key, label: `${first}\${${name}}`, what: 'the key with a character before it' },
    // not where a decoder may stop before the space and read the first word alone: at a
    // base64 key's padding, or at the first character that is no hex digit (Node's hex)
    ...(padded || !caseSignificant(format)
      ? []
      : [{ kind: 'second-word' as const, value: `${key} ${key}`, label: `\${${name}} \${${name}}`, what: 'the key, a space and the key again' }]),
  ];
  const seen = new Set([key, '']);
  return family.filter((v) => !seen.has(v.value) && seen.add(v.value));
}

/**
 * A key of the same format and length as `key` that shares none of its letters and
 * digits: each is replaced by a different one of its kind drawn at random (a hex digit
 * for a hex or UUID key, in its case), and the rest (a JWT's dots, a UUID's dashes,
 * base64 padding) kept. Sent where the key itself, or most of it, must not travel
 * (why: AUTH-INVALID-KEY's accepts).
 */
export function randomKeyLike(key: string, randomBelow: (n: number) => number): string {
  const hex = !caseSignificant(keyFormat(key));
  const kinds = ['0123456789', hex ? 'abcdef' : 'abcdefghijklmnopqrstuvwxyz', hex ? 'ABCDEF' : 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
  return [...key]
    .map((ch) => {
      const kind = kinds.find((k) => k.includes(ch));
      if (!kind) return ch;
      const others = kind.replace(ch, '');
      return others[randomBelow(others.length)];
    })
    .join('');
}

/** Below this length a secret is replaced only where it stands alone, so that a short key does not mangle every number in the output. */
const SHORT_SECRET = 12;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class Redactor {
  private readonly forms: Array<[string, string]> = [];
  private pairs: Array<[RegExp, string]> = [];
  /** Matches where any of the pairs' patterns would: a text it does not match is returned as it is, unscanned by each. */
  private any: RegExp = /(?!)/;

  constructor(secrets: Secret[]) {
    this.add(secrets);
  }

  /** How many forms of secrets it hides: it only grows, so a text redacted at one size need not be redacted again at it. */
  get size(): number {
    return this.forms.length;
  }

  /** The length of the longest form of a secret it hides: a text cut this far beyond a point holds every secret that starts before it. */
  get longest(): number {
    return this.forms[0]?.[0].length ?? 0;
  }

  /** Hides these secrets too, from now on (a credential the run made from a key). */
  add(secrets: Secret[]): void {
    for (const { value, label } of secrets) {
      if (!value) continue;
      // as sent, and as a server might echo it: URL-encoded, base64, JSON-escaped, with / escaped
      const variants = [
        value,
        encodeURIComponent(value),
        Buffer.from(value).toString('base64'),
        JSON.stringify(value).slice(1, -1),
        value.replace(/\//g, '\\/'),
      ];
      for (const form of new Set(variants)) if (!this.forms.some(([f]) => f === form)) this.forms.push([form, label]);
    }
    this.forms.sort((a, b) => b[0].length - a[0].length); // longest first, so no secret is half-replaced
    const patterns = this.forms.map(([form]) => (form.length < SHORT_SECRET ? `(?<![A-Za-z0-9])${escapeRegExp(form)}(?![A-Za-z0-9])` : escapeRegExp(form)));
    this.pairs = this.forms.map(([, label], i) => [new RegExp(patterns[i], 'g'), label]);
    this.any = patterns.length ? new RegExp(patterns.map((p) => `(?:${p})`).join('|')) : /(?!)/;
  }

  redact(text: string, labelFor: (label: string) => string = (l) => l): string {
    // the replacements run one after another, but when none matches the text none changes it
    if (!this.any.test(text)) return text;
    let out = text;
    for (const [pattern, label] of this.pairs) out = out.replace(pattern, () => labelFor(label));
    return out;
  }

  /** For curl lines: the label becomes a shell variable expanded inside single quotes. */
  redactShell(text: string): string {
    return this.redact(text, (label) => `'"${label}"'`);
  }
}
