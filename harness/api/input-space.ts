// The classes every probe is drawn from, dimension by dimension, from the spec where it defines one, else by HTTP's rules: credentials in
// credentials.ts, query and body values in edge-values.ts and bodies.ts.
import { isSafeMethod } from '../http/exchange.js';
import type { AnimalStoreSpec } from './spec.js';

export { edgeValues, enumProbes, integerProbes } from './edge-values.js';

export interface Spelling {
  label: string;
  path: string;
}

/**
 * Spellings a router or proxy may normalise to the path, or take for another route (RFC 3986 6.2.2.2 makes %70 and p the same), most likely
 * to find a forgotten route first. No dot segments: clients remove them (RFC 3986 5.2.4).
 */
export function pathSpellings(path: string): Spelling[] {
  const [, first, ...rest] = path.split('/');
  const tail = rest.length ? `/${rest.join('/')}` : '';
  return [
    { label: 'a trailing slash', path: `${path}/` },
    { label: 'another letter case', path: `/${first.toUpperCase()}${tail}` },
    { label: 'a doubled slash', path: `/${path}` },
    { label: 'a format suffix (.json)', path: `${path}.json` },
    { label: 'a path parameter (;x=1)', path: `${path};x=1` },
    { label: `its first letter percent-encoded (%${first.charCodeAt(0).toString(16)})`, path: `/%${first.charCodeAt(0).toString(16)}${first.slice(1)}${tail}` },
  ];
}

/** The same integer to some parsers and another string to others: the same resource or an Error are both right, another resource is not. */
export function integerSpellings(value: string): Array<{ label: string; value: string }> {
  const fullwidth = [...value].map((c) => (/\d/.test(c) ? String.fromCharCode(0xff10 + Number(c)) : c)).join('');
  return [
    { label: 'a leading zero', value: `0${value}` },
    { label: 'a plus sign', value: `+${value}` },
    { label: 'white space around it', value: `%20${value}%20` },
    { label: 'fullwidth digits', value: encodeURIComponent(fullwidth) },
  ];
}

export function itemSpellings(template: string, id: string): Spelling[] {
  const at = (value: string) => template.replace(/\{\w+\}/, value);
  return [...integerSpellings(id).map((s) => ({ label: `its id with ${s.label}`, path: at(s.value) })), ...pathSpellings(at(id))];
}

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** How each is judged: AUTH-EVERY-METHOD. */
export function undocumentedMethods(spec: AnimalStoreSpec, path: string): { safe: string[]; unsafe: string[] } {
  const documented = spec.operations.filter((op) => op.path === path).map((op) => op.method);
  const others = HTTP_METHODS.filter((m) => !documented.includes(m));
  return { safe: others.filter(isSafeMethod), unsafe: others.filter((m) => !isSafeMethod(m)) };
}

/** Allowed spellings besides the suite's own (why each: HTTP-VALID-SPELLINGS's accepts); health sends the first two. */
export const READ_HEADER_SPELLINGS: Array<{ label: string; headers: Record<string, string | null> }> = [
  { label: 'Accept: */*', headers: { accept: '*/*' } },
  { label: 'Accept-Encoding: gzip', headers: { 'accept-encoding': 'gzip' } },
  { label: 'no Accept header', headers: { accept: null } },
  { label: 'Accept: application/*', headers: { accept: 'application/*' } },
  { label: 'Accept: a list (text/plain, application/json)', headers: { accept: 'text/plain, application/json' } },
  { label: 'Content-Type: application/json and no body', headers: { 'content-type': 'application/json' } },
];

const BODY_FRAMINGS: Array<{ label: string; chunked: boolean }> = [{ label: 'the body sent chunked (Transfer-Encoding: chunked)', chunked: true }];

export function bodySpellingsOf(mediaType: string): Array<{ label: string; options: { contentType?: string; chunked?: boolean } }> {
  return [
    ...contentTypeSpellings(mediaType).map(({ label, contentType }) => ({ label, options: { contentType } })),
    ...BODY_FRAMINGS.map(({ label, chunked }) => ({ label, options: { chunked } })),
  ];
}

export function contentTypeSpellings(mediaType: string): Array<{ label: string; contentType: string }> {
  const cased = mediaType.replace(/(^|\/)(\w)/g, (_m, before: string, letter: string) => before + letter.toUpperCase());
  return [
    { label: `Content-Type: ${mediaType}; charset=utf-8`, contentType: `${mediaType}; charset=utf-8` },
    { label: `Content-Type: ${cased}`, contentType: cased },
  ];
}
