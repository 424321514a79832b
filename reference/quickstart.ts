// The quickstart message service, at its own address: POST /messages with a JSON body
// {message}, answered with id, message, status "queued" and createdAt in UTC.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { quickstartAuth } from './auth.js';
import { crash, invalid, notFound, sendError, tooLarge } from './errors.js';
import type { Context } from './options.js';
import { routeQuickstart, sendEarly, type Early } from './routing.js';
import { seam } from './seams.js';
import { readBody, sendJson } from './transport.js';
import { isObject, isProblem, mediaType, parseJson, toJson, urlOf, type Answer, type Fields, type Json, type Problem } from './wire.js';
import { refusedByTokenizer } from './store/validation.js';

function sendMessage({ sw, messages }: Context, req: IncomingMessage, text: string): Answer {
  if (req.headers['content-type'] === undefined) {
    if (!sw.any(NO_CONTENT_TYPE_TAKEN)) return invalid('The Content-Type header is missing');
  } else if (mediaType(req) !== 'application/json') {
    return invalid('Content-Type must be application/json');
  }
  let body: Json;
  try {
    if (refusedByTokenizer(sw, text)) throw new Error('refused by the reader');
    body = parseJson(text);
  } catch {
    const taken = sw.first(INVALID_JSON, text) ?? invalid('The JSON is invalid');
    if (isProblem(taken)) return taken;
    body = taken;
  }
  const fields = isObject(body) ? body : sw.first(NON_OBJECT_TAKEN, body);
  if (!isObject(fields)) return invalid('The body must be a JSON object with message');
  const sent = fields.message === undefined ? sw.at(NO_MESSAGE_TAKEN)[0] : fields.message;
  if (sent === undefined) return invalid('message is missing');
  const message = typeof sent === 'string' ? sent : sw.first(NON_STRING_TAKEN, sent);
  if (message === undefined) return invalid('message must be a string');
  const now = new Date();
  const stored = sw.fold(STORED, { id: randomUUID(), message, status: 'queued', createdAt: sw.first(CREATED_AT, now) ?? now.toISOString() });
  messages.push(stored);
  return [sw.at(SENT_STATUS)[0] ?? 201, sw.fold(ANSWERED, stored)];
}

/** The quickstart service; `prefix`: where a variant serves it on the store's port. */
export function quickstartService(ctx: Context, kill: () => void): (req: IncomingMessage, res: ServerResponse, prefix?: string) => Promise<void> {
  const { sw, opts } = ctx;
  let answered = 0;
  return async (req, res, prefix = '') => {
    res.on('finish', () => answered++);
    const { text, tooLarge: large } = await readBody(sw, req);
    if (opts.quickstartKilledAfter !== undefined && answered >= opts.quickstartKilledAfter) {
      req.socket.destroy();
      return kill();
    }
    const url = urlOf(req);
    url.pathname = url.pathname.slice(prefix.length);
    const route = routeQuickstart(req, url, sw);
    const early = sw.first(BEFORE_THE_KEY, route.method, route.path);
    if (early) return sendEarly(res, early);
    const refuse = (problem: Problem) => sendError(sw, res, sw.fold(ERRORS, problem));
    const denied = route.unguarded ? undefined : quickstartAuth(sw, req, ctx.quickstartApiKey);
    if (denied) return refuse(denied);
    if (large) return refuse(tooLarge());
    if (route.refusal) return refuse(route.refusal);
    const answer = route.operation ? sendMessage(ctx, req, text) : notFound(`No route for ${req.method} ${route.path}`);
    if (isProblem(answer)) return refuse(answer);
    sendJson(sw, res, answer[0], answer[1]);
  };
}

// Seams

const NO_CONTENT_TYPE_TAKEN = seam<() => boolean>('a message without Content-Type', { 'qs-missing-content-type-accepted': () => true });

const INVALID_JSON = seam<(text: string) => Json | Problem>('a message of invalid JSON', {
  'qs-invalid-json-500': () => crash('unexpected end of JSON input'),
  'qs-invalid-json-accepted': (text) => ({ message: text }),
  'qs-empty-body-500': (text) => (text === '' ? crash("Cannot read properties of undefined (reading 'message')") : invalid('The JSON is invalid')),
});

const NON_OBJECT_TAKEN = seam<(body: Json) => Json | undefined>('a JSON body that is no object', {
  'qs-string-body-as-message': (body) => (typeof body === 'string' ? { message: body } : undefined),
});

const NO_MESSAGE_TAKEN = seam<string>('a body without message', { 'qs-missing-message-accepted': '' });

const NON_STRING_TAKEN = seam<(message: Json) => Json>('a message that is no string', {
  'qs-non-string-message-accepted': (message) => toJson(message),
  'qs-non-string-echoed': (message) => message,
});

const BEFORE_THE_KEY = seam<(method: string, path: string) => Early | undefined>('quickstart answers before the key', {
  'messages-usage-get': (method, path) =>
    method === 'GET' && path === '/messages'
      ? { status: 200, headers: {}, text: 'Usage: POST /messages with Authorization: Bearer <API_KEY> and a JSON body {"message": "..."}' }
      : undefined,
});

const hoursAhead = (now: Date, hours: number) => new Date(now.getTime() + hours * 3600_000).toISOString();

const CREATED_AT = seam<(now: Date) => Json>('createdAt', {
  'qs-epoch-created-at': (now) => now.getTime(),
  'qs-local-offset': (now) => hoursAhead(now, 2).replace('Z', '+02:00'),
  'qs-local-no-zone': (now) => hoursAhead(now, 2).replace('Z', ''),
  'qs-clock-ahead': (now) => hoursAhead(now, 3),
  'created-at-no-zone': (now) => now.toISOString().replace('Z', ''),
  'created-at-basic': (now) => `${now.toISOString().replace(/[-:]/g, '').replace('.', ',').replace('Z', '')}+00`,
  'quickstart-plus-zero': (now) => now.toISOString().replace('Z', '+00:00'),
});

const STORED = seam<(m: Fields) => Fields>('a message stored', {
  'qs-no-echo': (m) => ({ ...m, message: 'Message received' }),
  'quickstart-sent': (m) => ({ ...m, status: 'sent' }),
});

const ANSWERED = seam<(m: Fields) => Fields>('a message answered', { 'qs-missing-id': ({ id: _id, ...rest }) => rest });

const SENT_STATUS = seam<number>('the status of a message sent', { 'message-202': 202, 'message-200': 200 });

const ERRORS = seam<(p: Problem) => Problem>('the quickstart errors', { 'quickstart-sibling-path': (p) => ({ ...p, plainText: true }) });
