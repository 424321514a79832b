// The input space of the API's requests, dimension by dimension: the classes every
// probe is drawn from, in one place. Where the spec defines a dimension (an operation's
// path, its methods, a parameter's schema, a body's media type and schema) the classes
// are derived from it; where HTTP defines it (path spellings, methods, credentials,
// header spellings) they are listed here (credentials in credentials.ts), each with
// why it is a class of its own.
//
//   dimension     classes                                               from
//   path          pathSpellings, integerSpellings (a path parameter)    the operation's path; HTTP (RFC 3986, RFC 9110)
//   method        undocumentedMethods                                   the spec's paths; HTTP (RFC 9110 9.3)
//   credentials   credentialClasses, nearMisses (credentials.ts)        HTTP (RFC 9110 11, RFC 6750)
//   headers       READ_HEADER_SPELLINGS, contentTypeSpellings,          HTTP (RFC 9110 8.3, 12.5; RFC 9112 7.1)
//                 BODY_FRAMINGS
//   query         integerProbes (interior values drawn by the run),     each parameter's schema
//                 enumProbes
//   body          edgeValues (edge-values.ts), negativeNewPets and      NewPet's schema; JSON and Unicode
//                 edgeNewPets (bodies.ts), generated examples
//
// Which requirement judges which class is said by the checks and, for a reader, by the
// catalogue's accepts (spec/requirements.yaml).
import { isSafeMethod } from '../http/exchange.js';
import type { AnimalStoreSpec } from './spec.js';

export { edgeValues, enumProbes, integerProbes } from './edge-values.js';

/** One spelling of a request's path, relative to the base address. */
export interface Spelling {
  /** What is different about it, for messages: "a trailing slash". */
  label: string;
  path: string;
}

/**
 * Other spellings of a documented path (its parameters filled in) that a router or a
 * proxy may normalise to it, or may take for another route: a trailing slash (routers
 * differ on it), a doubled slash (collapsed by some proxies, not by others), another
 * letter case (RFC 3986 paths are case-sensitive, many routers are not), a format
 * suffix (.json: Rails, Spring), a path parameter after ";" (servlet containers strip
 * it), and a letter percent-encoded (%70 is p: RFC 3986 6.2.2.2 makes them the same
 * path, so a rule matched on the raw text and a router that decodes disagree). In the
 * order most likely to find a forgotten route first (a sample takes the first few).
 * Dot segments (/./, /../) are not sent: every client removes them before sending
 * (RFC 3986 5.2.4), so no real request carries them.
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

/**
 * Other spellings of an integer in a path: a leading zero, a plus sign, white space
 * around it (percent-encoded), fullwidth digits. Each is the same integer to some parsers
 * (Python's int() takes the last two) and another string to others, so the same
 * resource or an Error are both right; another resource is not.
 */
export function integerSpellings(value: string): Array<{ label: string; value: string }> {
  const fullwidth = [...value].map((c) => (/\d/.test(c) ? String.fromCharCode(0xff10 + Number(c)) : c)).join('');
  return [
    { label: 'a leading zero', value: `0${value}` },
    { label: 'a plus sign', value: `+${value}` },
    { label: 'white space around it', value: `%20${value}%20` },
    { label: 'fullwidth digits', value: encodeURIComponent(fullwidth) },
  ];
}

/**
 * The spellings of an animal's path (`/pets/{petId}` with the id filled in): its id with a
 * leading zero or a plus sign, then every path spelling of the path itself.
 */
export function itemSpellings(template: string, id: string): Spelling[] {
  const at = (value: string) => template.replace(/\{\w+\}/, value);
  return [...integerSpellings(id).map((s) => ({ label: `its id with ${s.label}`, path: at(s.value) })), ...pathSpellings(at(id))];
}

/** The methods HTTP defines that may reach an API's route (RFC 9110 9.3; TRACE and CONNECT are stopped by proxies). */
const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The methods no operation documents on a path of the spec: safe ones (HEAD, OPTIONS)
 * and unsafe ones, which would write (how each is judged: AUTH-EVERY-METHOD).
 */
export function undocumentedMethods(spec: AnimalStoreSpec, path: string): { safe: string[]; unsafe: string[] } {
  const documented = spec.operations.filter((op) => op.path === path).map((op) => op.method);
  const others = HTTP_METHODS.filter((m) => !documented.includes(m));
  return { safe: others.filter(isSafeMethod), unsafe: others.filter((m) => !isSafeMethod(m)) };
}

/**
 * Request headers a valid client sends besides the suite's own (Accept: application/json,
 * Accept-Encoding: identity, no Content-Type without a body), each allowed by HTTP (why
 * each: HTTP-VALID-SPELLINGS's accepts). The list's elements are separated by a comma
 * and a space. In the order a sample takes them (health sends the first two).
 */
export const READ_HEADER_SPELLINGS: Array<{ label: string; headers: Record<string, string | null> }> = [
  { label: 'Accept: */*', headers: { accept: '*/*' } },
  { label: 'Accept-Encoding: gzip', headers: { 'accept-encoding': 'gzip' } },
  { label: 'no Accept header', headers: { accept: null } },
  { label: 'Accept: application/*', headers: { accept: 'application/*' } },
  { label: 'Accept: a list (text/plain, application/json)', headers: { accept: 'text/plain, application/json' } },
  { label: 'Content-Type: application/json and no body', headers: { 'content-type': 'application/json' } },
];

/** How a request body is framed besides the suite's own Content-Length: chunked (HTTP-VALID-SPELLINGS). */
const BODY_FRAMINGS: Array<{ label: string; chunked: boolean }> = [{ label: 'the body sent chunked (Transfer-Encoding: chunked)', chunked: true }];

/** Every other spelling of a request that carries a body of this media type: its Content-Type, then its framing. */
export function bodySpellingsOf(mediaType: string): Array<{ label: string; options: { contentType?: string; chunked?: boolean } }> {
  return [
    ...contentTypeSpellings(mediaType).map(({ label, contentType }) => ({ label, options: { contentType } })),
    ...BODY_FRAMINGS.map(({ label, chunked }) => ({ label, options: { chunked } })),
  ];
}

/** The same media type as other clients write a body's Content-Type: with a charset, and in another letter case (HTTP-VALID-SPELLINGS). */
export function contentTypeSpellings(mediaType: string): Array<{ label: string; contentType: string }> {
  const cased = mediaType.replace(/(^|\/)(\w)/g, (_m, before: string, letter: string) => before + letter.toUpperCase());
  return [
    { label: `Content-Type: ${mediaType}; charset=utf-8`, contentType: `${mediaType}; charset=utf-8` },
    { label: `Content-Type: ${cased}`, contentType: cased },
  ];
}
