// The animal store: the route, then the credential ("every operation requires
// authentication"), then the operation.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { storeAuth } from '../auth.js';
import { invalid, noRoute, notFound, notImplemented, sendError, tooLarge } from '../errors.js';
import type { Gateway } from '../gateway.js';
import type { Context } from '../options.js';
import { isEarly, routeStore, sendEarly, type Routed } from '../routing.js';
import { seam } from '../seams.js';
import { readBody, sendJson } from '../transport.js';
import { INTEGER, isProblem, problem, urlOf, type Answer, type Headers, type Problem } from '../wire.js';
import { createPet, keepRefused } from './create.js';
import { deletePet, getPet, listOrders, updatePet } from './get.js';
import { listPets } from './list.js';

const OPERATIONS: Record<string, (ctx: Context, r: { req: IncomingMessage; url: URL; text: string; route: Routed; denied?: Problem }) => Answer> = {
  listPets: (ctx, r) => listPets(ctx, r.url),
  createPet: (ctx, r) => createPet(ctx, r.req, r.text, r.denied),
  getPet: (ctx, r) => getPet(ctx, r.route.petId!),
  listOrders: (ctx) => listOrders(ctx),
  replacePet: (ctx, r) => updatePet(ctx, r.req, r.route.petId!, r.text, false),
  updatePet: (ctx, r) => updatePet(ctx, r.req, r.route.petId!, r.text, true),
  deletePet: (ctx, r) => deletePet(ctx, r.route.petId!),
};

export async function handleStore(ctx: Context, gateway: Gateway, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { sw, received } = ctx;
  gateway.watch(res);
  const body = await readBody(sw, req);
  if (!(await gateway.pass(req, res))) return;
  const url = urlOf(req);
  const route = routeStore(req, url, sw);
  if (isEarly(route)) return sendEarly(res, route);
  const { operation, path, petId } = route;
  received.set(operation ?? '(no route)', (received.get(operation ?? '(no route)') ?? 0) + 1);
  if (operation !== undefined && operation === ctx.opts.neverAnswers) return; // left open until the client gives up
  const unheard = operation && sw.first(BEFORE_THE_KEY, operation, `No route for ${req.method} ${path}`, url);
  if (unheard) return sendError(sw, res, unheard);
  const headers = sw.fold(OPERATION_HEADERS, {}, operation);
  const refuse = (refusal: Problem) => sendError(sw, res, { ...refusal, headers: { ...headers, ...refusal.headers } });

  const denied = route.unguarded ? undefined : storeAuth(sw, req, ctx.apiKey, operation ?? '');
  const absent = () => petId !== undefined && INTEGER.test(petId) && !ctx.animals.find(BigInt(petId));
  if (denied && !sw.any(KEY_LATER, operation, absent)) return refuse(operation === 'createPet' ? keepRefused(ctx, 'denied', body.text, denied) : denied);
  if (body.tooLarge) return sendError(sw, res, tooLarge());
  if (route.refusal) return refuse(route.refusal);
  if (!operation) return sendError(sw, res, noRoute(sw, route));
  const answer = OPERATIONS[operation](ctx, { req, url, text: body.text, route, denied });
  if (isProblem(answer)) return refuse(answer);
  sendJson(sw, res, answer[0], route.envelope ? { data: answer[1] } : answer[1], headers);
}

// Seams

/** Answered to every caller alike, before any key is looked at. */
const BEFORE_THE_KEY = seam<(operation: string, noRouteMessage: string, url: URL) => Problem | undefined>('answered before the key', {
  'orders-absent': (op, message) => (op === 'listOrders' ? notFound(message) : undefined),
  'orders-501': (op) => (op === 'listOrders' ? notImplemented('Orders are not implemented') : undefined),
  'orders-403': (op) => (op === 'listOrders' ? problem(403, 'forbidden', 'Orders are not available') : undefined),
  'orders-400-before-auth': (op, _message, url) => (op === 'listOrders' && !url.searchParams.has('storeId') ? invalid('storeId is required') : undefined),
  'getpet-removed': (op) => (op === 'getPet' ? { ...notFound('Not Found'), frameworkPage: true } : undefined),
});

const OPERATION_HEADERS = seam<(headers: Headers, operation: string | undefined) => Headers>('the headers of an operation', {
  'deprecation-headers': (headers, op) => (op === 'getPet' ? { ...headers, deprecation: 'true', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' } : headers),
});

/** The operation runs before the key is looked at: its own refusal comes first. */
const KEY_LATER = seam<(operation: string | undefined, absent: () => boolean) => boolean>('the key looked at later', {
  'validate-before-auth': (op) => op === 'createPet',
  'lookup-before-auth': (op, absent) => op === 'getPet' && absent(),
});
