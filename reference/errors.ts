// Errors: "All error responses in the animal store use the Error body (code, message,
// status)", whose status "equals the HTTP status code".
import type { ServerResponse } from 'node:http';
import { methodsOf, type Routed } from './routing.js';
import { seam, type Switches } from './seams.js';
import { MAX_BODY_BYTES, sendJson, sendText } from './transport.js';
import { problem, type Fields, type Problem } from './wire.js';

export const invalid = (message: string) => problem(400, 'invalid_request', message);
export const notFound = (message = 'The requested resource could not be found') => problem(404, 'not_found', message);
export const crash = (message: string) => problem(500, 'internal_error', message);
export const tooLarge = () => problem(413, 'payload_too_large', `The body exceeds ${MAX_BODY_BYTES} bytes`);
export const notImplemented = (message: string) => problem(501, 'not_implemented', message);
export const unprocessable = (message: string) => problem(422, 'unprocessable_entity', message);

export const badParameter = (sw: Switches, message: string): Problem => sw.fold(BAD_PARAMETER, invalid(message));

const htmlPage = (status: number, message: string) =>
  `<!DOCTYPE html><html><head><title>${status}</title></head><body><h1>${status}</h1><p>${message}</p></body></html>`;

export function sendError(sw: Switches, res: ServerResponse, written: Problem): void {
  const shown = sw.fold(ERROR_WRITTEN, written);
  const { status, message, headers = {} } = shown;
  if (shown.frameworkPage) return sendText(res, status, headers, 'text/html; charset=utf-8', htmlPage(status, message));
  if (shown.plainText) return sendText(res, status, headers, 'text/plain', `${status} ${message}`);
  sendJson(sw, res, status, sw.fold(ERROR_BODY, { code: shown.code, message, status }), headers);
}

/** 404 for a path the API does not have, 405 with Allow for a documented path and another method. */
export function noRoute(sw: Switches, { method, path, petId }: Routed): Problem {
  const methods = methodsOf(path, sw);
  const answer = methods
    ? (sw.first(OTHER_METHOD, method, path) ?? problem(405, 'method_not_allowed', `${method} is not allowed on ${path}`, { allow: methods.join(', ') }))
    : notFound(`No route for ${method} ${path}`);
  return sw.fold(NO_ROUTE, answer, petId);
}

// Seams

const frameworkPage = (p: Problem): Problem => ({ ...p, frameworkPage: true });

const BAD_PARAMETER = seam<(p: Problem) => Problem>('a bad query or path value', {
  'param-errors-422': (p) => ({ ...p, status: 422, code: 'unprocessable_entity' }), // as FastAPI answers
  'param-errors-html': frameworkPage,
});

const ERROR_WRITTEN = seam<(p: Problem) => Problem>('an error answer', {
  'www-authenticate': (p) => (p.status === 401 ? { ...p, headers: { ...p.headers, 'www-authenticate': 'Bearer' } } : p),
  'plain-text-errors': (p) => ({ ...p, plainText: true }),
});

const ERROR_BODY = seam<(body: Fields) => Fields>('the Error body', {
  'problem-free-codes': (body) => ({ ...body, code: String(body.code).toUpperCase() }),
  'error-status-as-string': (body) => ({ ...body, status: String(body.status) }),
  'error-status-mismatch': (body) => ({ ...body, status: 400 }),
  'error-without-code': ({ code: _code, ...rest }) => rest,
  'error-extra-fields': (body) => ({ ...body, details: [] }),
});

const OTHER_METHOD = seam<(method: string, path: string) => Problem | undefined>('a documented path with another method', {
  'method-404': (method, path) => notFound(`No route for ${method} ${path}`),
  'method-501': (method) => (method === 'PATCH' ? notImplemented('PATCH is not implemented') : undefined),
});

const NO_ROUTE = seam<(p: Problem, petId: string | undefined) => Problem>('no route', {
  'framework-404-html': (p) => (p.status === 404 ? frameworkPage(p) : p),
  'method-not-allowed-plain': (p) => (p.status === 405 ? { ...p, plainText: true } : p),
  'item-method-html': (p, petId) => (p.status === 405 && petId !== undefined ? frameworkPage(p) : p),
});
