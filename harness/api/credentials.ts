// The credentials dimension of the input space (input-space.ts), made from a key.
import type { Secret } from '../http/redact.js';

/**
 * As a server may read it: a JWT's signature verified, a UUID or hex value compared case-insensitively, other text compared as text or
 * decoded as base64(url).
 */
type KeyFormat = 'jwt' | 'uuid' | 'hex' | 'text';

export function keyFormat(key: string): KeyFormat {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(key)) return 'uuid';
  if (/^[0-9a-f]+$/i.test(key)) return 'hex';
  if (/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(key)) return 'jwt';
  return 'text';
}

const caseSignificant = (format: KeyFormat) => format !== 'uuid' && format !== 'hex';

/** Another character of the same kind as ch (a hex digit for hex keys); X for any other. */
function otherOfKind(ch: string, hex = false): string {
  const next = (from: string, size: number) => String.fromCharCode(from.charCodeAt(0) + ((ch.charCodeAt(0) - from.charCodeAt(0) + 1) % size));
  if (/[0-9]/.test(ch)) return next('0', 10);
  if (/[a-z]/.test(ch)) return next('a', hex ? 6 : 26);
  if (/[A-Z]/.test(ch)) return next('A', hex ? 6 : 26);
  return 'X';
}

/**
 * The last character of base64 may carry bits a decoder drops (the 43rd of an HS256 signature holds 4 of its 6), and padding carries none:
 * so the one before the last that is not padding. Every hex character carries its 4 bits.
 */
function significantIndex(key: string, format: KeyFormat): number {
  if (format === 'uuid' || format === 'hex') return key.length - 1;
  return Math.max(0, key.replace(/=+$/, '').length - 2);
}

/** Printed as a bash expansion of the variable that gives it back: ${VAR%?}c, or ${VAR:0:17}c${VAR:18}. */
export function nearMiss(key: string, variable: string): Secret {
  const format = keyFormat(key);
  const at = significantIndex(key, format);
  const changed = otherOfKind(key[at], format === 'uuid' || format === 'hex');
  const name = variable.slice(1);
  const label = at === key.length - 1 ? `\${${name}%?}${changed}` : `\${${name}:0:${at}}${changed}\${${name}:${at + 1}}`;
  return { value: key.slice(0, at) + changed + key.slice(at + 1), label };
}

type NearMissKind = 'changed' | 'extended' | 'shortened' | 'case-changed' | 'prefixed' | 'second-word';

interface NearMiss extends Secret {
  kind: NearMissKind;
  what: string;
}

/**
 * Keys only a faulty comparison accepts, whatever the key's format (which each catches: AUTH-INVALID-KEY's accepts). Each label is a bash
 * expression of the key's variable that expands to the value, so reports and curl lines never hold the key and still reproduce the request.
 */
export function nearMisses(key: string, variable: string): NearMiss[] {
  const name = variable.slice(1);
  const format = keyFormat(key);
  // a decoder stops at base64 padding: characters go in and out before it
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
    // not where a decoder may stop before the space (base64 padding, Node's hex at a non-hex digit)
    ...(padded || !caseSignificant(format)
      ? []
      : [{ kind: 'second-word' as const, value: `${key} ${key}`, label: `\${${name}} \${${name}}`, what: 'the key, a space and the key again' }]),
  ];
  const seen = new Set([key, '']);
  return family.filter((v) => !seen.has(v.value) && seen.add(v.value));
}

/** Same format and length, sharing none of the key's letters and digits: sent where the key itself must not travel (AUTH-INVALID-KEY's accepts). */
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

export type CredentialKind =
  | 'missing'
  | 'empty'
  | 'scheme-only'
  | 'unset-variable'
  | ReturnType<typeof nearMisses>[number]['kind']
  | 'random'
  | 'scheme-twice'
  | 'other-scheme'
  | 'no-scheme'
  | 'glued'
  | 'scheme-case';

export interface CredentialClass {
  kind: CredentialKind;
  header: string | undefined;
  label: string;
  /** The valid key in a spelling HTTP allows: it must be accepted. */
  valid?: true;
  secret?: Secret;
}

/**
 * Why each, and what is not sent: the accepts of AUTH-INVALID-KEY and of the checks that send them. Without key variants no class carries
 * the key: the near-misses are one random key of its format and length, and the lower-case scheme is left out.
 */
export function credentialClasses(key: string, variable: string, keyVariants: boolean, randomKey: string): CredentialClass[] {
  const sent = keyVariants ? key : randomKey;
  const what = keyVariants ? 'the valid key' : "a random key of the key's format";
  return [
    { kind: 'missing', header: undefined, label: 'no Authorization header' },
    { kind: 'empty', header: '', label: 'an empty Authorization header' },
    { kind: 'scheme-only', header: 'Bearer', label: 'Bearer with no token' },
    { kind: 'unset-variable', header: 'Bearer undefined', label: 'Bearer undefined (the key of an unset variable)' },
    { kind: 'unset-variable', header: 'Bearer null', label: 'Bearer null (the key of an unset variable)' },
    ...(keyVariants
      ? nearMisses(key, variable).map((v) => ({
          kind: v.kind,
          header: `Bearer ${v.value}`,
          label: `an invalid bearer key (${v.what})`,
          secret: { value: v.value, label: v.label },
        }))
      : [{ kind: 'random' as const, header: `Bearer ${randomKey}`, label: "an invalid bearer key (a random key of the key's format and length)" }]),
    { kind: 'scheme-twice', header: `Bearer Bearer ${sent}`, label: `the scheme twice (Bearer Bearer <${keyVariants ? 'key' : 'random key'}>)` },
    { kind: 'other-scheme', header: `Basic ${sent}`, label: `${what} under the Basic scheme` },
    { kind: 'other-scheme', header: `Token ${sent}`, label: `${what} under the Token scheme` },
    { kind: 'no-scheme', header: sent, label: `${what} with no scheme` },
    {
      kind: 'glued',
      header: `Bearer${sent}`,
      label: `${what} glued to Bearer, with no space`,
      // a short key is otherwise hidden only where it stands alone
      ...(keyVariants && { secret: { value: `Bearer${key}`, label: `Bearer${variable}` } }),
    },
    ...(keyVariants
      ? [{ kind: 'scheme-case' as const, header: `bearer ${key}`, label: 'the valid key under the scheme in lower case (bearer)', valid: true as const }]
      : []),
  ];
}

export const secretsOf = (classes: CredentialClass[]): Secret[] => classes.flatMap((c) => (c.secret ? [c.secret] : []));
