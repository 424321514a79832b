// The reference server's router: how a request's method and path reach an operation,
// and the deviations of real routers and frameworks that faults and variants model
// (other spellings of a path, HEAD and OPTIONS, methods the description does not
// show, content negotiation, CORS). handleStore and handleQuickstart call it once,
// before the credential is looked at: it gives the request as the operations see it,
// or an answer given before any of them runs (a redirect, a CORS preflight).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultName } from './faults.js';
import type { VariantName } from './variants.js';
import type { Problem } from './wire.js';

/** The faults and variants a server was started with. */
export interface Switches {
  has(fault: FaultName): boolean;
  variant(name: VariantName): boolean;
}

/** A request as the operations see it. */
export interface Routed {
  method: string;
  path: string;
  /** The operation the method and path reach; undefined: no route (404, or 405 on a documented path). */
  operation?: string;
  /** The petId of a path /v1/pets/{petId} (percent-decoded), whatever the method. */
  petId?: string;
  /** Reached without the credential check: a route mounted without it. */
  unguarded: boolean;
  /** Refused once the credential has passed: a framework's strict content negotiation. */
  refusal?: Problem;
  /** A legacy route that wraps the page as {"data": [...]}. */
  envelope: boolean;
}

/** An answer given before any operation, and any credential check, runs. */
export interface Early {
  status: number;
  headers: Record<string, string>;
  /** A text/plain body; none when undefined. */
  text?: string;
}

export const isEarly = (route: Routed | Early): route is Early => 'status' in route;

export function sendEarly(res: ServerResponse, early: Early): void {
  const body = early.text === undefined ? {} : { 'content-type': 'text/plain', 'content-length': String(Buffer.byteLength(early.text)) };
  res.writeHead(early.status, { ...early.headers, ...body });
  res.end(early.text);
}

// ---------------------------------------------------------------- the animal store's routes

/** The paths of the description, under the base address /v1. */
const DOCUMENTED = ['/v1/pets', '/v1/pets/{petId}', '/v1/store/orders'];
const ITEM = '/v1/pets/{petId}';

const patterns = new Map(DOCUMENTED.flatMap((t) => ['', 'i'].map((flags) => [t + flags, new RegExp(`^${t.replace('{petId}', '([^/]+)')}$`, flags)])));
/** The match of a path against a template; `anyCase`: its letters in any case. */
const matchOf = (template: string, path: string, anyCase = false) => patterns.get(template + (anyCase ? 'i' : ''))!.exec(path);

const ROUTES: Array<{ method: string; path: string; operation: string; only?: (s: Switches) => boolean }> = [
  { method: 'GET', path: '/v1/pets', operation: 'listPets' },
  { method: 'POST', path: '/v1/pets', operation: 'createPet' },
  { method: 'GET', path: ITEM, operation: 'getPet' },
  { method: 'GET', path: '/v1/store/orders', operation: 'listOrders' },
  // operations to update or delete an animal are "not shown": a server may still have them
  { method: 'PUT', path: ITEM, operation: 'replacePet', only: (s) => s.variant('update-delete-implemented') },
  { method: 'PATCH', path: ITEM, operation: 'updatePet', only: (s) => s.variant('update-delete-implemented') },
  { method: 'DELETE', path: ITEM, operation: 'deletePet', only: (s) => s.variant('update-delete-implemented') || s.has('delete-unauthenticated') },
];

const routesOf = (path: string, s: Switches) => ROUTES.filter((r) => matchOf(r.path, path) && (r.only?.(s) ?? true));

/** The methods of a path the server has routes for; undefined for a path it does not have. */
export function methodsOf(path: string, s: Switches): string[] | undefined {
  const methods = routesOf(path, s).map((r) => r.method);
  return methods.length ? methods : undefined;
}

/**
 * The documented path another spelling stands for: its letters in any case, and with
 * `slashes` doubled slashes and a trailing one dropped (/v1//PETS/ -> /v1/pets).
 */
function documentedSpelling(path: string, slashes: boolean): string | undefined {
  const p = slashes ? path.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1') : path;
  for (const template of DOCUMENTED) {
    const m = matchOf(template, p, true);
    if (m) return template.replace('{petId}', m[1]);
  }
  return undefined;
}

/** A browser's preflight, answered by a CORS layer in front of the API. */
const PREFLIGHT: Early = {
  status: 204,
  headers: {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, HEAD, PUT, PATCH, POST, DELETE',
    'access-control-allow-headers': 'Authorization, Content-Type',
    'access-control-max-age': '600',
  },
};

const FRAMEWORK_OPTIONS: Early = { status: 200, headers: { allow: 'GET,HEAD,POST' }, text: 'GET,HEAD,POST' };

const redirect = (status: number, location: string): Early => ({ status, headers: { location }, text: `Redirecting to ${location}` });

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // malformed percent-encoding: not an integer either
  }
}

export function routeStore(req: IncomingMessage, url: URL, s: Switches): Routed | Early {
  let method = req.method ?? 'GET';
  // a browser sends no credential on a preflight: the CORS layer answers it first
  if (method === 'OPTIONS' && s.variant('cors-preflight')) return PREFLIGHT;
  // Express answers OPTIONS itself, before any middleware: the route's methods, as text
  if (method === 'OPTIONS' && s.variant('options-framework-default')) return FRAMEWORK_OPTIONS;
  let path = url.pathname;
  // servlet containers drop path parameters (;jsessionid=...) before routing
  if (s.variant('matrix-params-stripped')) path = path.replace(/;[^/]*/g, '');
  if (s.variant('trailing-slash-redirect')) {
    // the collection lives at /v1/pets/; the router sends /v1/pets there
    if (path === '/v1/pets') return redirect(307, `/v1/pets/${url.search}`);
    if (path === '/v1/pets/') path = '/v1/pets';
  }
  const canonical = documentedSpelling(path, true);
  if (s.variant('canonical-redirect') && canonical !== undefined && canonical !== path) return redirect(308, canonical + url.search);
  if (s.variant('case-insensitive-routes')) path = documentedSpelling(path, false) ?? path;

  let unguarded = false;
  let envelope = false;
  const collection = path === '/v1/pets/' && method === 'GET';
  // a second route for the collection, written without the credential check of the first
  if (collection && s.has('trailing-slash-unauthenticated')) [path, unguarded] = ['/v1/pets', true];
  // a legacy route kept for old clients, behind the key, that wraps the page
  if (collection && s.has('trailing-slash-envelope')) [path, envelope] = ['/v1/pets', true];
  // the credential check is mounted on the exact path; the router matches any case
  if (path !== '/v1/pets' && path.toLowerCase() === '/v1/pets' && s.has('mixed-case-route-unauthenticated')) [path, unguarded] = ['/v1/pets', true];

  // HEAD on a GET route: the framework answers it from the GET handler, behind the same
  // credential check, or past one that looks at GET and POST only
  if (method === 'HEAD' && methodsOf(path, s)?.includes('GET')) {
    if (s.has('head-unauthenticated')) [method, unguarded] = ['GET', true];
    else if (s.variant('head-as-get')) method = 'GET';
  }
  // OPTIONS falls through to the list handler, past a credential check that skips it
  if (method === 'OPTIONS' && path === '/v1/pets' && s.has('options-unauthenticated')) [method, unguarded] = ['GET', true];
  const operation = routesOf(path, s).find((r) => r.method === method)?.operation;
  // a delete handler that never asks for the credential
  if (operation === 'deletePet' && s.has('delete-unauthenticated')) unguarded = true;

  const item = matchOf(ITEM, path);
  return { method, path, operation, petId: item ? decoded(item[1]) : undefined, unguarded, envelope, refusal: storeRefusal(req, operation, s) };
}

/** What a framework with exact media-type matching refuses, once the credential has passed. */
function storeRefusal(req: IncomingMessage, operation: string | undefined, s: Switches): Problem | undefined {
  if (s.has('accept-exact') && req.headers.accept !== 'application/json') {
    return { status: 406, code: 'not_acceptable', message: 'Accept must be application/json' };
  }
  // a JSON body parser that runs for every method: a GET that names a JSON body it lacks is refused
  if (s.has('get-body-parsed') && req.method === 'GET' && req.headers['content-type'] === 'application/json') {
    return { status: 400, code: 'invalid_request', message: 'The body is not valid JSON' };
  }
  // an Accept list split on commas but not trimmed: " application/json" matches nothing
  const accepted = req.headers.accept?.split(',').map((type) => type.split(';')[0]);
  if (s.has('accept-list-unparsed') && accepted && !accepted.some((type) => ['application/json', 'application/*', '*/*'].includes(type))) {
    return { status: 406, code: 'not_acceptable', message: 'None of the accepted types can be produced' };
  }
  if (operation === 'createPet' && s.has('content-type-exact') && req.headers['content-type'] !== 'application/json') {
    return { status: 400, code: 'invalid_request', message: 'Content-Type must be application/json' };
  }
  return undefined;
}

// ---------------------------------------------------------------- the quickstart service's route

export function routeQuickstart(req: IncomingMessage, url: URL, s: Switches): Routed {
  const method = req.method ?? 'GET';
  let path = url.pathname;
  let unguarded = false;
  // a second route for /messages/, written without the credential check of the first
  if (path === '/messages/' && method === 'POST' && s.has('qs-trailing-slash-unauthenticated')) [path, unguarded] = ['/messages', true];
  const operation = method === 'POST' && path === '/messages' ? 'sendMessage' : undefined;
  const type = req.headers['content-type'];
  const strict = operation !== undefined && s.has('qs-content-type-exact') && type !== undefined && type !== 'application/json';
  const refusal: Problem | undefined = strict ? { status: 400, code: 'invalid_request', message: 'Content-Type must be application/json' } : undefined;
  return { method, path, operation, unguarded, envelope: false, refusal };
}
