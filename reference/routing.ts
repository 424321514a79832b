// The router of both services, and the deviations of real routers and frameworks. It
// runs before the credential is looked at: some answer there (a redirect, a preflight).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { seam, type Switches } from './seams.js';
import { sendText } from './transport.js';
import { problem, type Headers, type Problem } from './wire.js';

export interface Routed {
  method: string;
  path: string;
  /** undefined: no route (404, or 405 on a documented path). */
  operation?: string;
  /** Percent-decoded, whatever the method. */
  petId?: string;
  /** Reached past the credential check: a route mounted without it. */
  unguarded: boolean;
  /** Refused once the credential has passed. */
  refusal?: Problem;
  /** A legacy route that wraps the page as {"data": [...]}. */
  envelope: boolean;
}

/** An answer given before the credential check; `text`: a text/plain body. */
export type Early = { status: number; headers: Headers; text?: string };

export const isEarly = (route: Routed | Early): route is Early => 'status' in route;

export function sendEarly(res: ServerResponse, { status, headers, text }: Early): void {
  if (text === undefined) return void res.writeHead(status, headers).end();
  sendText(res, status, headers, 'text/plain', text);
}

const DOCUMENTED = ['/v1/pets', '/v1/pets/{petId}', '/v1/store/orders'];
const ITEM = '/v1/pets/{petId}';

const patterns = new Map(DOCUMENTED.flatMap((t) => ['', 'i'].map((flags) => [t + flags, new RegExp(`^${t.replace('{petId}', '([^/]+)')}$`, flags)])));
const matchOf = (template: string, path: string, anyCase = false) => patterns.get(template + (anyCase ? 'i' : ''))!.exec(path);

type Route = { method: string; path: string; operation: string; unguarded?: boolean };

const ROUTES: Route[] = [
  { method: 'GET', path: '/v1/pets', operation: 'listPets' },
  { method: 'POST', path: '/v1/pets', operation: 'createPet' },
  { method: 'GET', path: ITEM, operation: 'getPet' },
  { method: 'GET', path: '/v1/store/orders', operation: 'listOrders' },
];

const routesOf = (path: string, sw: Switches) => [...ROUTES, ...sw.at(MORE_ROUTES).flat()].filter((r) => matchOf(r.path, path));

/** undefined for a path the server does not have. */
export function methodsOf(path: string, sw: Switches): string[] | undefined {
  const methods = [...new Set(routesOf(path, sw).map((r) => r.method))];
  return methods.length ? methods : undefined;
}

/** The documented path another spelling stands for: any letter case; with `slashes`, doubled and trailing ones dropped. */
function documentedSpelling(path: string, slashes: boolean): string | undefined {
  const p = slashes ? path.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1') : path;
  for (const template of DOCUMENTED) {
    const m = matchOf(template, p, true);
    if (m) return template.replace('{petId}', m[1]);
  }
  return undefined;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // malformed percent-encoding: not an integer either
  }
}

type Draft = Pick<Routed, 'method' | 'path' | 'unguarded' | 'envelope'> & { early?: Early };

export function routeStore(req: IncomingMessage, url: URL, sw: Switches): Routed | Early {
  let draft: Draft = { method: req.method ?? 'GET', path: url.pathname, unguarded: false, envelope: false };
  for (const step of sw.at(ROUTER)) {
    draft = step(draft, url, sw);
    if (draft.early) return draft.early;
  }
  const { method, path, envelope } = draft;
  const routes = routesOf(path, sw).filter((r) => r.method === method);
  const operation = routes[0]?.operation;
  const unguarded = draft.unguarded || routes.some((r) => r.unguarded);
  const item = matchOf(ITEM, path);
  const refusal = sw.first(REFUSED_ONCE_IN, req, operation);
  return { method, path, operation, petId: item ? decoded(item[1]) : undefined, unguarded, envelope, refusal };
}

export function routeQuickstart(req: IncomingMessage, url: URL, sw: Switches): Routed {
  const [path, unguarded, method = req.method ?? 'GET'] = sw.first(QS_MORE_ROUTES, req.method ?? 'GET', url.pathname) ?? [url.pathname, false];
  const operation = method === 'POST' && path === '/messages' ? 'sendMessage' : undefined;
  return { method, path, operation, unguarded, envelope: false, refusal: operation ? sw.first(QS_REFUSED_ONCE_IN, req) : undefined };
}

// Seams

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
const early = (d: Draft, answer: Early | undefined): Draft => (answer ? { ...d, early: answer } : d);
/** A route for /v1/pets/ added beside /v1/pets. */
const besidePets = (method: string, route: Partial<Draft>) => (d: Draft) =>
  d.path === '/v1/pets/' && d.method === method ? { ...d, path: '/v1/pets', ...route } : d;
const headAsGet = (d: Draft, sw: Switches) => d.method === 'HEAD' && !!methodsOf(d.path, sw)?.includes('GET');

/** Steps before the route is looked up, in the order they run. */
const ROUTER = seam<(d: Draft, url: URL, sw: Switches) => Draft>('the router', {
  // a browser sends no credential on a preflight: the CORS layer answers it first
  'cors-preflight': (d) => early(d, d.method === 'OPTIONS' ? PREFLIGHT : undefined),
  // Express answers OPTIONS itself, before any middleware
  'options-framework-default': (d) => early(d, d.method === 'OPTIONS' ? FRAMEWORK_OPTIONS : undefined),
  'matrix-params-stripped': (d) => ({ ...d, path: d.path.replace(/;[^/]*/g, '') }),
  'trailing-slash-redirect': (d, url) =>
    d.path === '/v1/pets' ? early(d, redirect(307, `/v1/pets/${url.search}`)) : d.path === '/v1/pets/' ? { ...d, path: '/v1/pets' } : d,
  'canonical-redirect': (d, url) => {
    const canonical = documentedSpelling(d.path, true);
    return early(d, canonical !== undefined && canonical !== d.path ? redirect(308, canonical + url.search) : undefined);
  },
  'case-insensitive-routes': (d) => ({ ...d, path: documentedSpelling(d.path, false) ?? d.path }),
  'trailing-slash-unauthenticated': besidePets('GET', { unguarded: true }),
  'slash-post-unauthenticated': besidePets('POST', { unguarded: true }),
  'head-empty-200': (d) => early(d, d.method === 'HEAD' ? { status: 200, headers: { 'content-length': '0' } } : undefined),
  'trailing-slash-envelope': besidePets('GET', { envelope: true }),
  'mixed-case-route-unauthenticated': (d) => (d.path !== '/v1/pets' && d.path.toLowerCase() === '/v1/pets' ? { ...d, path: '/v1/pets', unguarded: true } : d),
  'head-unauthenticated': (d, _url, sw) => (headAsGet(d, sw) ? { ...d, method: 'GET', unguarded: true } : d),
  'head-as-get': (d, _url, sw) => (headAsGet(d, sw) ? { ...d, method: 'GET' } : d),
  'options-unauthenticated': (d) => (d.method === 'OPTIONS' && d.path === '/v1/pets' ? { ...d, method: 'GET', unguarded: true } : d),
});

/** Operations to update or delete an animal are "not shown": a server may still have them. */
const MORE_ROUTES = seam<Route[]>('routes the description does not show', {
  'update-delete-implemented': [
    { method: 'PUT', path: ITEM, operation: 'replacePet' },
    { method: 'PATCH', path: ITEM, operation: 'updatePet' },
    { method: 'DELETE', path: ITEM, operation: 'deletePet' },
  ],
  'delete-unauthenticated': [{ method: 'DELETE', path: ITEM, operation: 'deletePet', unguarded: true }],
});

const contentTypeExact = () => problem(400, 'invalid_request', 'Content-Type must be application/json');

/** What a framework with exact media-type matching refuses. */
const REFUSED_ONCE_IN = seam<(req: IncomingMessage, operation: string | undefined) => Problem | undefined>('content negotiation', {
  'accept-exact': (req) => (req.headers.accept !== 'application/json' ? problem(406, 'not_acceptable', 'Accept must be application/json') : undefined),
  'get-body-parsed': (req) =>
    req.method === 'GET' && req.headers['content-type'] === 'application/json' ? problem(400, 'invalid_request', 'The body is not valid JSON') : undefined,
  // " application/json" matches nothing
  'accept-list-unparsed': (req) => {
    const accepted = req.headers.accept?.split(',').map((type) => type.split(';')[0]);
    const none = accepted && !accepted.some((type) => ['application/json', 'application/*', '*/*'].includes(type));
    return none ? problem(406, 'not_acceptable', 'None of the accepted types can be produced') : undefined;
  },
  'content-type-exact': (req, operation) => (operation === 'createPet' && req.headers['content-type'] !== 'application/json' ? contentTypeExact() : undefined),
});

const QS_MORE_ROUTES = seam<(method: string, path: string) => [path: string, unguarded: boolean, method?: string] | undefined>('quickstart routes', {
  'qs-trailing-slash-unauthenticated': (method, path) => (path === '/messages/' && method === 'POST' ? ['/messages', true] : undefined),
  'qs-put-unauthenticated': (method, path) => (path === '/messages' && method === 'PUT' ? ['/messages', true, 'POST'] : undefined),
});

const QS_REFUSED_ONCE_IN = seam<(req: IncomingMessage) => Problem | undefined>('quickstart content negotiation', {
  'qs-content-type-exact': (req) => {
    const type = req.headers['content-type'];
    return type !== undefined && type !== 'application/json' ? contentTypeExact() : undefined;
  },
});
