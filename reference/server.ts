// The embedded reference server: a small in-memory Animal Store that follows the
// API description (animal-store-api.md), plus the quickstart message service on
// its own port. Faults (faults.ts) break one documented behaviour each and are
// consulted where that behaviour lives; variants (variants.ts) pick another reading
// where the description leaves a choice open. The router (routing.ts) turns each
// request into the operation it reaches, with the deviations of real routers (other
// spellings of a path, HEAD, OPTIONS, content negotiation), before the key is looked at.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule, { type FormatsPlugin } from 'ajv-formats';
import type { FaultName } from './faults.js';
import type { VariantName } from './variants.js';
import { sameBase64, sameUuid, verifiesAsJwt } from './keys.js';
import { isEarly, methodsOf, routeQuickstart, routeStore, sendEarly, type Routed, type Switches } from './routing.js';
import { escapeNonAscii, forValidation, isObject, isProblem, mediaType, parseJson, toJson, type Fields, type Json, type Problem } from './wire.js';

// ajv-formats is CommonJS: Node hands its default export over as the module object,
// a bundler (Vitest) as the function itself
const addFormats = ((formatsModule as any).default ?? formatsModule) as FormatsPlugin;

export interface ReferenceOptions {
  /** The valid bearer key. */
  apiKey: string;
  /** Key of the quickstart service; defaults to apiKey. */
  quickstartApiKey?: string;
  /** Deliberate violations, see faults.ts. */
  faults?: FaultName[];
  /** Allowed alternative readings, see variants.ts. */
  variants?: VariantName[];
  /** Page size bounds of GET /pets; default 1/100/20. */
  limits?: { min: number; max: number; default: number };
  /** PetStatus values; default available, pending, sold. */
  statuses?: string[];
  /** JSON Schema (2020-12) for NewPet; default the documented one. */
  newPetSchema?: object;
  /** Animals already in the store at start, spread over every status (default 0). */
  prefill?: number;
  /**
   * A rate limit, as a gateway in front of a correct server applies it: a token
   * bucket of this many animal-store requests a second (bursts up to as many),
   * beyond which 429 with Retry-After: 1. Not a variant: every run against it takes
   * seconds, so only the test of rate limiting starts one.
   */
  ratePerSecond?: number;
  /**
   * Load shedding, as a server under load answers: one animal-store request in `every`
   * (any method) gets 503 with Retry-After: `retryAfterSeconds`. The load-shedding variant
   * is this with Retry-After: 0; a longer one makes every run take seconds.
   */
  loadShedding?: { every: number; retryAfterSeconds: number };
  /** A single worker: the animal store serves one request at a time, each taking this many ms (abandoned ones too). */
  oneAtATimeMs?: number;
  /** Requests to this animal-store operation (any, valid or not) are never answered; the rest are. */
  neverAnswers?: string;
  /** After answering this many animal-store requests the server is gone, as a killed process: both ports closed, every connection dropped. */
  killedAfter?: number;
  /** After answering this many quickstart requests its port is gone (the animal store goes on). */
  quickstartKilledAfter?: number;
  /** One animal-store GET in this many answers 500 (a flaky backend): a retry (--retries) gets a right answer. */
  failsEvery?: number;
}

export interface ReferenceServer {
  /** http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  /** http://127.0.0.1:PORT2 */
  quickstartBaseUrl: string;
  petCount(): number;
  messageCount(): number;
  /** How many requests reached an animal-store operation (by operationId). */
  requestsFor(operationId: string): number;
  close(): Promise<void>;
}

interface Pet {
  id: bigint;
  fields: Fields;
  createdAt: string;
  /** performance.now() when it was stored. */
  storedAt: number;
}

const MAX_BODY_BYTES = 64 * 1024;
/** The delay of the slow-responses fault: over the budget its fault entry sets. */
const SLOW_RESPONSE_MS = 40;
/** The rate-limited variant refuses every so many requests. */
const RATE_LIMIT_EVERY = 7;
/** The lagging variants read an animal only this long after it was stored, as a search index or a replica behind the store. */
const LIST_LAG_MS = 1500;
const INTEGER = /^-?\d+$/;
const FIRST_LARGE_ID = 2n ** 53n + 1n; // 9007199254740993: not representable as a double
/** The known-categories-only variant knows the categories 1 to this. */
const KNOWN_CATEGORIES = 1000n;
/** The long-names variant: so many animals, each with a name this long (a page of 100 is 1.2 MB). */
const LONG_NAMES = { count: 120, length: 12_000 };
/** The load-shedding variant: one store request in this many is answered 503 with Retry-After: 0. */
const SHED_EVERY = 20;
/** Where the quickstart-sibling-path variant serves the quickstart service, on the store's port. */
const QUICKSTART_SIBLING = '/v1-quickstart';

export async function startReferenceServer(opts: ReferenceOptions): Promise<ReferenceServer> {
  const faults = new Set<string>(opts.faults ?? []);
  const variants = new Set<string>(opts.variants ?? []);
  const has = (fault: FaultName) => faults.has(fault);
  const variant = (name: VariantName) => variants.has(name);
  const switches: Switches = { has, variant };

  const apiKey = opts.apiKey;
  const quickstartApiKey = opts.quickstartApiKey ?? opts.apiKey;
  const limits = opts.limits ?? { min: 1, max: 100, default: 20 };
  const statuses = opts.statuses ?? ['available', 'pending', 'sold'];
  const newPetSchema = (opts.newPetSchema ?? {
    type: 'object',
    required: ['name', 'categoryId'],
    properties: {
      name: { type: 'string' },
      categoryId: { type: 'integer', format: 'int64' },
      status: { type: 'string', enum: statuses },
    },
  }) as Record<string, any>;
  const properties: Record<string, any> = newPetSchema.properties ?? {};
  const required: string[] = newPetSchema.required ?? [];

  // no coerceTypes: "7" is not an integer; validateSchema off: the schema is the project's
  // own, proved valid by the self-tests, and checking it cost ~60 ms of every server start
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
  addFormats(ajv);
  const validateNewPet = ajv.compile(newPetSchema);

  const pets: Pet[] = [];
  const messages: Array<Record<string, Json>> = [];
  const firstId = has('ids-beyond-int64') ? 2n ** 64n : variant('large-ids') ? FIRST_LARGE_ID : 1n;
  let nextId = firstId;
  let storeRequests = 0;
  /** Animal-store requests received, and answered, for the options that act on every so many. */
  let storeArrivals = 0;
  let storeAnswered = 0;
  let quickstartAnswered = 0;
  const shedding = opts.loadShedding ?? (variant('load-shedding') ? { every: SHED_EVERY, retryAfterSeconds: 0 } : undefined);
  /** One request at a time (oneAtATimeMs): each waits for the one before it. */
  let worker: Promise<void> = Promise.resolve();
  /** Requests received per animal-store operation ("(no route)" for the rest). */
  const received = new Map<string, number>();
  const bucket = { tokens: opts.ratePerSecond ?? 0, at: performance.now() };

  // ---------------------------------------------------------------- responses

  function sendJson(res: ServerResponse, status: number, body: Json, headers: Record<string, string> = {}): void {
    if (body === undefined) return void res.writeHead(status, headers).end(); // 204
    const text = variant('escaped-non-ascii') ? escapeNonAscii(toJson(body)) : toJson(body);
    const type = has('wrong-content-type') && status < 400 ? 'text/plain' : variant('charset') ? 'application/json; charset=utf-8' : 'application/json';
    // gzip: compressed when the client accepts it; gzip-label-uncompressed: a proxy that labels
    // every answer gzip but compresses only large ones
    const gzipAccepted = /\bgzip\b/.test(res.req?.headers['accept-encoding'] ?? '');
    if (gzipAccepted && (variant('gzip') || has('gzip-label-uncompressed'))) {
      const content = has('gzip-label-uncompressed') ? Buffer.from(text) : gzipSync(text);
      res.writeHead(status, { ...headers, 'content-type': type, 'content-encoding': 'gzip', 'content-length': content.length, vary: 'Accept-Encoding' });
      return void res.end(content);
    }
    res.writeHead(status, { ...headers, 'content-type': type, 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  function sendError(res: ServerResponse, problem: Problem, headers: Record<string, string> = {}): void {
    const { status, message } = problem;
    if (status === 401 && variant('www-authenticate')) headers = { ...headers, 'www-authenticate': 'Bearer' };
    if (problem.frameworkPage) {
      const html = `<!DOCTYPE html><html><head><title>${status}</title></head><body><h1>${status}</h1><p>${message}</p></body></html>`;
      res.writeHead(status, { ...headers, 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) });
      res.end(html);
      return;
    }
    if (has('plain-text-errors') || problem.plainText) {
      const text = `${status} ${message}`;
      res.writeHead(status, { ...headers, 'content-type': 'text/plain', 'content-length': Buffer.byteLength(text) });
      res.end(text);
      return;
    }
    const body: Record<string, Json> = {
      code: variant('problem-free-codes') ? problem.code.toUpperCase() : problem.code,
      message,
      status: has('error-status-mismatch') ? 400 : has('error-status-as-string') ? String(status) : status,
    };
    if (has('error-without-code')) delete body.code;
    if (variant('error-extra-fields')) body.details = [];
    sendJson(res, status, body, headers);
  }

  const invalid = (message: string): Problem => ({ status: 400, code: 'invalid_request', message });
  const notFound = (message = 'The requested resource could not be found'): Problem => ({ status: 404, code: 'not_found', message });
  const crash = (message: string): Problem => ({ status: 500, code: 'internal_error', message });
  /** A query or path value the server cannot use: the description names no status for it. */
  const badParameter = (message: string): Problem =>
    variant('param-errors-422') ? { status: 422, code: 'unprocessable_entity', message } : { ...invalid(message), frameworkPage: has('param-errors-html') };

  // ---------------------------------------------------------------- authentication

  /** Whether a token is the key: the same text, or with a key-format variant the same value as the server reads it. */
  const isKey = (token: string, key: string) =>
    variant('jwt-key') ? verifiesAsJwt(token) : variant('uuid-key') ? sameUuid(token, key) : variant('base64-key') ? sameBase64(token, key) : token === key;

  /**
   * What an Authorization header amounts to. RFC 9110: the scheme is
   * case-insensitive and is separated from the token by one or more spaces.
   */
  function credential(header: string | undefined, key: string): 'ok' | 'missing' | 'wrong-key' | 'wrong-scheme' | 'raw-key' | 'bare-bearer' | 'invalid' {
    if (header === undefined || header === '') return 'missing';
    const m = (variant('auth-lenient-whitespace') ? /^(\S+)[ \t]+(.*?)[ \t]*$/ : /^(\S+) +(\S+)$/).exec(header);
    if (!m) return isKey(header, key) ? 'raw-key' : header.toLowerCase() === 'bearer' ? 'bare-bearer' : 'invalid';
    const [, scheme, token] = m;
    if (scheme.toLowerCase() !== 'bearer') return isKey(token, key) ? 'wrong-scheme' : 'invalid';
    return isKey(token, key) ? 'ok' : 'wrong-key';
  }

  const queryOf = (req: IncomingMessage) => new URL(req.url ?? '/', 'http://localhost').searchParams;
  const bearerToken = (header: string | undefined) => header?.split(/ +/)[1] ?? '';
  /** What a server that checks only a key's form looks at: its length and its prefix. */
  const sameForm = (token: string, key: string) => token.length === key.length && token.slice(0, 8) === key.slice(0, 8);

  /** The animal store's credential check; undefined when the request may proceed. */
  function storeAuth(req: IncomingMessage, operation: string): Problem | undefined {
    const kind = credential(req.headers.authorization, apiKey);
    // scheme-case-sensitive: only "Bearer " as written passes, though RFC 9110 makes the scheme case-insensitive
    const schemeAsWritten = !has('scheme-case-sensitive') || req.headers.authorization?.startsWith('Bearer ');
    if (kind === 'ok' && schemeAsWritten) return undefined;
    if (operation === 'listOrders' && has('orders-unauthenticated')) return undefined;
    if (kind === 'missing' && operation === 'listPets' && has('no-auth-on-list')) return undefined;
    if (kind === 'missing' && operation === 'listPets' && has('no-auth-with-query') && req.url?.includes('?')) return undefined;
    // RFC 6750 2.3: a resource server may take the bearer token from the query
    if (kind === 'missing' && variant('access-token-query') && queryOf(req).get('access_token') === apiKey) return undefined;
    if (kind === 'missing' && has('key-elsewhere-accepted')) {
      if (req.headers['x-api-key'] === apiKey || queryOf(req).get('api_key') === apiKey) return undefined;
    }
    if (kind === 'wrong-key' && has('invalid-key-accepted')) return undefined;
    if (kind === 'wrong-key' && has('key-form-only') && sameForm(bearerToken(req.headers.authorization), apiKey)) return undefined;
    if (kind !== 'missing' && nearMissAccepted(req.headers.authorization!, apiKey, 'store')) return undefined;
    if (kind === 'wrong-scheme' && has('any-scheme-accepted')) return undefined;
    if (kind === 'raw-key' && has('raw-key-accepted')) return undefined;
    if (kind === 'bare-bearer' && has('empty-bearer-accepted')) return undefined;
    if (has('bearer-stripped-repeatedly') && req.headers.authorization?.replace(/^(Bearer )+/, '') === apiKey) return undefined;
    if (has('glued-bearer-accepted') && req.headers.authorization?.replace(/^Bearer/, '') === apiKey) return undefined;
    if (kind !== 'missing' && has('auth-403')) return { status: 403, code: 'forbidden', message: 'The credential is not allowed' };
    return {
      status: 401,
      code: 'unauthorized',
      message: kind === 'missing' ? 'Missing API key: send Authorization: Bearer <API_KEY>' : 'Invalid API key or Authorization header',
    };
  }

  function quickstartAuth(req: IncomingMessage): Problem | undefined {
    const kind = credential(req.headers.authorization, quickstartApiKey);
    if (kind === 'ok') return undefined;
    if (kind === 'missing' && has('qs-no-auth')) return undefined;
    if (kind === 'wrong-key' && has('qs-invalid-key-accepted')) return undefined;
    if (kind !== 'missing' && nearMissAccepted(req.headers.authorization!, quickstartApiKey, 'quickstart')) return undefined;
    if (kind === 'raw-key' && has('qs-raw-key-accepted')) return undefined;
    if (kind === 'wrong-scheme' && has('qs-any-scheme-accepted')) return undefined;
    if (kind === 'bare-bearer' && has('qs-bare-bearer-accepted')) return undefined;
    return { status: 401, code: 'unauthorized', message: 'The key is absent or invalid, or the header is not of the form Bearer <API_KEY>' };
  }

  // ---------------------------------------------------------------- near-miss keys

  /**
   * Key comparisons that accept a token which merely resembles the key, each a bug of
   * real servers, by the faults that make them (qs- ones on the quickstart service).
   */
  const firstWord = (token: string) => token.trim().split(/\s+/)[0];
  const nearMissBugs: Array<[FaultName, (token: string, key: string) => boolean]> = [
    ['key-prefix-accepted', (token, key) => token.startsWith(key)],
    ['key-truncation-accepted', (token, key) => token !== '' && key.startsWith(token)],
    ['key-case-insensitive', (token, key) => token.toLowerCase() === key.toLowerCase()],
    ['key-substring-accepted', (token, key) => token.includes(key)],
    ['key-trimmed-split', (token, key) => firstWord(token) === key],
    ['qs-key-case-insensitive', (token, key) => token.toLowerCase() === key.toLowerCase()],
    ['qs-key-trimmed-split', (token, key) => firstWord(token) === key],
  ];

  /** Whether a near-miss fault accepts a Bearer header (the scheme is still checked). */
  function nearMissAccepted(header: string, key: string, service: 'store' | 'quickstart'): boolean {
    const token = /^bearer\s+(.*)$/i.exec(header)?.[1]; // all that follows the scheme
    return (
      token !== undefined &&
      nearMissBugs.some(([fault, accepts]) => has(fault) && fault.startsWith('qs-') === (service === 'quickstart') && accepts(token, key))
    );
  }

  // ---------------------------------------------------------------- the store

  /** Whether a read sees the animal yet: lagging-reads (a replica) delays every read, `lagging` one kind of them. */
  function readable(pet: Pet, lagging = false): boolean {
    return !(lagging || variant('lagging-reads')) || performance.now() - pet.storedAt >= LIST_LAG_MS;
  }

  function newId(): bigint {
    const id = nextId;
    nextId += 1n;
    return has('duplicate-ids') ? firstId : id;
  }

  function addPet(fields: Fields, id = newId()): Pet {
    const pet = { id, fields, createdAt: new Date().toISOString(), storedAt: performance.now() };
    pets.push(pet);
    return pet;
  }

  function petJson(pet: Pet): Json {
    return {
      id: has('string-ids') ? pet.id.toString() : pet.id,
      ...(variant('null-status') && { status: null }), // overwritten by a stored status
      ...pet.fields,
      ...(variant('extra-fields') && { createdAt: pet.createdAt, tags: [] }),
      // a signed URL: a field that differs on every read
      ...(variant('signed-photo-url') && { photoUrl: `https://cdn.example/pets/${pet.id}.jpg?signature=${randomUUID()}` }),
    };
  }

  // ---------------------------------------------------------------- GET /pets

  /** The page size asked for, or the problem with it. */
  function pageSize(raw: string | null, filtered: boolean): number | Problem {
    const { min, max } = limits;
    const pageDefault = has('wrong-default') ? 30 : has('default-page-10') ? 10 : limits.default;
    if (raw === null) return pageDefault;
    let n: number;
    if (INTEGER.test(raw)) n = Number(raw);
    else if (has('limit-not-integer-500')) return crash(`cannot compute a page of ${raw}`);
    else if (variant('truncate-limit') && /^-?\d+\.\d+$/.test(raw)) n = Math.trunc(Number(raw));
    else if (variant('default-limit-on-invalid')) return pageDefault;
    else return badParameter(`limit must be an integer from ${min} to ${max}`);
    if (n === 0 && has('limit-zero-500')) return crash('division by zero');
    if (n < 0 && has('limit-negative-500')) return crash('negative page size');
    if (INTEGER.test(raw) && BigInt(raw) > 2n ** 63n - 1n && has('limit-beyond-int64-500')) return crash(`cannot parse ${raw} into a long`);
    if (n > max && filtered && has('filtered-no-maximum')) return n;
    if (n === min && filtered && has('filtered-min-ignored')) return pageDefault;
    if (n > max && has('limit-above-max-500')) return crash('page too large');
    if (n > max && has('no-maximum')) return n;
    if (n < min && variant('limit-zero-max')) return max;
    if (n < min && has('limit-zero-unbounded')) return Infinity;
    if (n < min || n > max) {
      return variant('clamp-limit') ? Math.min(Math.max(n, min), max) : badParameter(`limit must be an integer from ${min} to ${max}`);
    }
    // a page size rounded up to the store's page granularity
    if (has('limit-rounded-up') && n > 1 && n % 10 !== 0) return Math.ceil(n / 10) * 10;
    return n;
  }

  function listPets(url: URL): [number, Json] | Problem {
    // repeated-params-joined: a repeated query parameter is one value, joined with commas (Spring, ASP.NET)
    const query = variant('repeated-params-joined')
      ? new URLSearchParams([...new Set(url.searchParams.keys())].map((k): [string, string] => [k, url.searchParams.getAll(k).join(',')]))
      : url.searchParams;
    const limit = pageSize(query.get('limit'), query.has('status'));
    if (isProblem(limit)) return limit;
    // lagging-list: the list and its status filter see a write late; getPet reads the store itself
    let items = pets.filter((p) => readable(p, variant('lagging-list')));
    const status = query.get('status');
    if (status !== null && !statuses.includes(status)) {
      if (has('unknown-status-500')) return crash(`no such status: ${status}`);
      if (variant('unknown-status-empty')) items = [];
      else if (!variant('unknown-status-ignored')) return badParameter(`status must be one of ${statuses.join(', ')}`);
    } else if (status !== null && !has('status-filter-ignored')) {
      // defaults-disagree: the list's queries read a missing status as the first one (COALESCE)
      const statusOf = (p: Pet) => p.fields.status ?? (has('defaults-disagree') ? statuses[0] : undefined);
      const others = items.filter((p) => statusOf(p) !== status);
      items = items.filter((p) => statusOf(p) === status);
      if (has('status-filter-incomplete')) items.pop(); // the most recent one
      if (has('status-filter-mixed') && others.length) items.unshift(others[0]);
    }
    if (variant('newest-first')) items.reverse();
    const count = has('limit-ignored')
      ? items.length
      : has('default-limit-unfiltered-only') && status !== null && !query.has('limit')
        ? items.length
        : has('limit-off-by-one')
          ? limit + 1
          : has('page-short')
            ? limit - 1
            : limit;
    // an inner join on a status table: no row for an animal stored without one
    if (status === null && has('unfiltered-inner-join')) items = items.filter((p) => p.fields.status !== undefined);
    if (status === null && has('unfiltered-hides-last-status')) items = items.filter((p) => p.fields.status !== statuses[statuses.length - 1]);
    if (status === statuses[0] && has('first-status-filter-empty')) items = [];
    const capped = has('max-page-50') || (status !== null && has('filtered-page-50'));
    const page = items.slice(0, Math.max(0, capped ? Math.min(count, 50) : count)).map((pet) => listedJson(petJson(pet)));
    if (has('list-duplicates') && page.length > 1) page[page.length - 1] = page[0];
    return [200, has('list-envelope') ? { items: page } : page];
  }

  // ---------------------------------------------------------------- POST /pets

  /**
   * The faults that accept an invalid body: each lets one kind of defect through,
   * normalised so that the stored animal is still a valid Pet (see faults.ts).
   */
  function lenient(body: Fields): Fields {
    const out = { ...body };
    for (const [key, schema] of Object.entries(properties)) {
      if (schema?.type !== 'integer') continue;
      const v = out[key];
      if (has('coerce-numeric-strings') && typeof v === 'string' && INTEGER.test(v)) out[key] = Number(v);
      if (has('accept-fractional-integer') && typeof v === 'number' && !Number.isInteger(v)) out[key] = Math.trunc(v);
    }
    if (has('accept-wrong-type-name') && 'name' in out && typeof out.name !== 'string') out.name = toJson(out.name);
    const statusEnum: Json[] | undefined = properties.status?.enum;
    if (has('accept-unknown-status') && typeof out.status === 'string' && statusEnum && !statusEnum.includes(out.status)) delete out.status;
    if (has('accept-missing-name') && !('name' in out)) out.name = '';
    if (has('accept-missing-category') && !('categoryId' in out)) out.categoryId = 0;
    return out;
  }

  /** The NewPet in a request, or why it is refused; `base`: the fields a PATCH applies its own to. */
  function readNewPet(req: IncomingMessage, text: string, base?: Fields): Fields | Problem {
    if (mediaType(req) !== 'application/json') return invalid('Content-Type must be application/json');
    if (text.length === 0) return has('empty-body-500') ? crash('cannot read an empty body') : invalid('A JSON body is required');
    let value: Json;
    try {
      value = parseJson(text);
    } catch {
      return has('malformed-json-500') ? crash('unexpected end of JSON input') : invalid('The body is not valid JSON');
    }
    const rejected = (message: string): Problem => (has('invalid-body-422') ? { status: 422, code: 'unprocessable_entity', message } : invalid(message));
    if (has('accept-array-body') && Array.isArray(value) && value.length === 1) value = value[0];
    if (!isObject(value)) return rejected('The body must be a JSON object (NewPet)');
    const body = lenient(base ? { ...base, ...value } : value);
    if (!validateNewPet(forValidation(body))) {
      const why = (validateNewPet.errors ?? []).map((e) => `${e.instancePath || 'body'} ${e.message}`).join('; ');
      return rejected(`Invalid NewPet: ${why}`);
    }
    // Ajv's int64 format asks only for an integer: the range is the server's to check
    const beyond = Object.keys(properties).find(
      (key) => properties[key].format === 'int64' && typeof body[key] === 'bigint' && (body[key] < -(2n ** 63n) || body[key] > 2n ** 63n - 1n),
    );
    if (beyond && !has('int64-range-unchecked')) return rejected(`Invalid NewPet: /${beyond} is outside the int64 range`);
    // the fault stores what a long column would: the value clamped
    if (beyond) body[beyond] = (body[beyond] as bigint) < 0n ? -(2n ** 63n) : 2n ** 63n - 1n;
    // keep the fields the schema names (documented or added by a modified schema)
    const known = new Set([...Object.keys(properties), ...required]);
    return Object.fromEntries(Object.entries(body).filter(([k]) => known.size === 0 || known.has(k)));
  }

  function createPet(req: IncomingMessage, text: string, denied: Problem | undefined): [number, Json] | Problem {
    const fields = readNewPet(req, text);
    if (isProblem(fields)) return fields;
    if (denied) return denied; // reached only with the validate-before-auth variant
    const edge = storedValues(fields, text);
    if (isProblem(edge)) return edge;
    if (has('name-uppercased') && typeof fields.name === 'string') fields.name = fields.name.toUpperCase();
    if (has('status-dropped')) delete fields.status;
    if (has('status-changed') && typeof fields.status === 'string') {
      fields.status = statuses[(statuses.indexOf(fields.status) + 1) % statuses.length];
    }
    // the default when status is omitted is not stated: by default none is stored
    const echoed = { ...fields }; // what a 201 that echoes the request shows
    if ((variant('default-status') || variant('status-default-on-read')) && !('status' in fields)) fields.status = statuses[0];
    // a create that looks the animal up first: the same NewPet again is the animal stored before
    const twin =
      has('duplicate-body-deduplicated') && pets.find((p) => ['name', 'categoryId', 'status'].every((k) => toJson(p.fields[k]) === toJson(fields[k])));
    if (twin) return [201, petJson(twin)];
    const pet: Pet = has('not-persisted')
      ? { id: newId(), fields, createdAt: new Date().toISOString(), storedAt: performance.now() }
      : addPet(fields, honouredId(text));
    // status-default-on-read: the 201 echoes the request and the id; reads show the default the database filled in
    const answer = variant('status-default-on-read') ? petJson({ ...pet, fields: echoed }) : petJson(pet);
    return [has('created-200') ? 200 : 201, answer];
  }

  // ---------------------------------------------------------------- valid values: edge values, an id sent

  /**
   * The faults and variants about valid values: what a fault makes of a valid NewPet
   * before it is stored, or the refusal a fault or variant gives it.
   */
  function storedValues(fields: Fields, text: string): Fields | Problem {
    const name = typeof fields.name === 'string' ? fields.name : undefined;
    if (variant('id-rejected') && honouredId(text, true) !== undefined) return invalid('id is assigned by the service');
    if (variant('name-limit-255') && name !== undefined && [...name].length > 255) return invalid('name is longer than 255 characters');
    // integers arrive as bigints (parseJson)
    const categoryId = fields.categoryId as bigint;
    if (variant('known-categories-only') && (categoryId < 1n || categoryId > KNOWN_CATEGORIES)) return invalid(`No category with id ${categoryId}`);
    // a presence check written as a truth test: 0 is "missing"
    if (has('zero-category-refused') && categoryId === 0n) return invalid('categoryId is required');
    if (has('long-name-500') && name !== undefined && name.length > 1000) return crash('value too long for type character varying(1000)');
    if (has('emoji-refused-422') && name !== undefined && /[\u{10000}-\u{10FFFF}]/u.test(name)) {
      return { status: 422, code: 'unprocessable_entity', message: 'name holds characters outside the Basic Multilingual Plane' };
    }
    if (name !== undefined) {
      let stored = name;
      if (has('non-ascii-replaced')) stored = stored.replace(/[^\u0000-\u007F]/gu, '?');
      if (has('name-truncated-255')) stored = [...stored].slice(0, 255).join('');
      if (has('nfc-normalised')) stored = stored.normalize('NFC');
      if (has('names-trimmed')) stored = stored.trim();
      if (has('names-ltrimmed')) stored = stored.trimStart();
      if (has('nfkc-normalised')) stored = stored.normalize('NFKC');
      if (has('c1-controls-stripped')) stored = stored.replace(/[\u007F-\u009F]/g, '');
      if (has('names-html-escaped')) stored = stored.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
      if (has('private-use-stripped')) stored = stored.replace(/[\p{Co}\p{Cn}]/gu, '');
      fields.name = stored;
    }
    if (has('int64-via-double')) {
      for (const key of Object.keys(properties)) {
        if (typeof fields[key] === 'bigint') fields[key] = BigInt(Number(fields[key]));
      }
    }
    return fields;
  }

  /** The integer id a NewPet carries, when the id-honoured fault uses it (or `any`: whenever it carries one). */
  function honouredId(text: string, any = false): bigint | undefined {
    if (!any && !has('id-honoured')) return undefined;
    const id = (parseJson(text) as Fields).id;
    return typeof id === 'bigint' || (typeof id === 'number' && Number.isInteger(id)) ? BigInt(id) : undefined;
  }

  /** A list item as the list-only faults write it (the 201 body and getPet are right). */
  function listedJson(pet: Json): Json {
    if (!isObject(pet)) return pet;
    const listed = { ...pet };
    if (has('list-names-ascii') && typeof listed.name === 'string') listed.name = listed.name.replace(/[^\u0000-\u007F]/gu, '?');
    // a default the list's query fills in (COALESCE), which the 201 body and getPet do not
    if ((has('list-default-status') || has('defaults-disagree')) && listed.status === undefined) listed.status = statuses[0];
    return listed;
  }

  // ---------------------------------------------------------------- GET /pets/{petId}

  function getPet(petId: string): [number, Json] | Problem {
    // parseInt reads the leading integer and drops the rest (7abc, 7.5 -> 7)
    if (has('get-id-parseint')) petId = /^\s*([+-]?\d+)/.exec(petId)?.[1].replace('+', '') ?? petId;
    if (INTEGER.test(petId) && petId.startsWith('-') && has('get-negative-id-500')) return crash(`no row for ${petId}`);
    if (INTEGER.test(petId) && BigInt(petId) > 2n ** 63n - 1n && has('get-beyond-int64-500')) return crash(`cannot parse ${petId} into a long`);
    if (!INTEGER.test(petId)) {
      if (has('get-invalid-id-500')) return crash(`cannot convert ${petId} to int64`);
      if (has('get-invalid-id-200')) return [200, null];
      return variant('invalid-id-404') ? notFound() : badParameter('petId must be an integer');
    }
    if (has('get-gone-410')) return { status: 410, code: 'gone', message: 'getPet has been removed' };
    // BigInt: ids beyond 2^53 (and beyond int64) are compared exactly and simply not found
    const id = BigInt(petId) + (has('get-wrong-animal') ? 1n : 0n);
    const pet = has('get-always-404') ? undefined : pets.find((p) => p.id === id && readable(p));
    // defaults-disagree: getPet's serialiser fills in another default than the list's queries
    if (pet && has('defaults-disagree') && pet.fields.status === undefined) return [200, petJson({ ...pet, fields: { ...pet.fields, status: statuses[1] } })];
    if (pet) return [200, petJson(pet)];
    if (has('get-nonexistent-200') && pets.length) return [200, petJson(pets[pets.length - 1])];
    return notFound(`No animal with id ${petId}`);
  }

  // ---------------------------------------------------------------- GET /store/orders

  function listOrders(): [number, Json] | Problem {
    if (has('orders-missing')) return notFound();
    // the order record is not shown: no orders are kept
    return [200, variant('orders-empty-object') ? {} : []];
  }

  // ---------------------------------------------------------------- PUT, PATCH, DELETE /pets/{petId} (not shown)

  /** The animal a petId names, or why there is none. */
  function storedPet(petId: string): Pet | Problem {
    if (!INTEGER.test(petId)) return badParameter('petId must be an integer');
    return pets.find((p) => p.id === BigInt(petId) && readable(p)) ?? notFound(`No animal with id ${petId}`);
  }

  /** PUT replaces the animal with a NewPet; PATCH (`merge`) applies the fields it is given. */
  function updatePet(req: IncomingMessage, petId: string, text: string, merge: boolean): [number, Json] | Problem {
    const pet = storedPet(petId);
    if (isProblem(pet)) return pet;
    const fields = readNewPet(req, text, merge ? pet.fields : undefined);
    if (isProblem(fields)) return fields;
    pet.fields = fields;
    return [200, petJson(pet)];
  }

  function deletePet(petId: string): [number, Json] | Problem {
    const pet = storedPet(petId);
    // delete-unauthenticated: a DELETE statement whose row count nobody reads, 204 for any id
    if (isProblem(pet)) return pet.status === 404 && has('delete-unauthenticated') ? [204, undefined] : pet;
    pets.splice(pets.indexOf(pet), 1);
    return [204, undefined];
  }

  // ---------------------------------------------------------------- routes the API does not have

  /** An Error 404 for an unknown path, 405 with Allow for a documented path and another method. */
  function noRoute({ method, path, petId }: Routed): { problem: Problem; headers: Record<string, string> } {
    const methods = variant('method-404') ? undefined : methodsOf(path, switches);
    if (!methods) return { problem: { ...notFound(`No route for ${method} ${path}`), frameworkPage: has('framework-404-html') }, headers: {} };
    if (method === 'PATCH' && variant('method-501'))
      return { problem: { status: 501, code: 'not_implemented', message: 'PATCH is not implemented' }, headers: {} };
    const problem = {
      status: 405,
      code: 'method_not_allowed',
      message: `${method} is not allowed on ${path}`,
      plainText: has('method-not-allowed-plain'),
      frameworkPage: has('item-method-html') && petId !== undefined,
    };
    return { problem, headers: { allow: methods.join(', ') } };
  }

  // ---------------------------------------------------------------- dispatch

  /** ratePerSecond: takes a token from the bucket, refilled continuously; false when it is empty. */
  function withinRate(): boolean {
    const rate = opts.ratePerSecond;
    if (!rate) return true;
    const now = performance.now();
    bucket.tokens = Math.min(rate, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** oneAtATimeMs: resolves when this request's turn with the single worker is over. */
  function oneAtATime(ms: number): Promise<void> {
    const turn = worker.then(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    worker = turn;
    return turn;
  }

  async function handleStore(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.on('finish', () => storeAnswered++);
    const { text, tooLarge } = await readBody(req, has('chunked-body-ignored'));
    // killed: the request is never answered, its connection drops, and the ports close
    if (opts.killedAfter !== undefined && storeAnswered >= opts.killedAfter) {
      req.socket.destroy();
      return void stopServers();
    }
    if (opts.oneAtATimeMs) await oneAtATime(opts.oneAtATimeMs);
    const arrival = ++storeArrivals;
    // a server shedding load asks to be called again later, whatever the request
    if (shedding && arrival % shedding.every === 0) {
      const problem = { status: 503, code: 'overloaded', message: 'The server is overloaded: try again later' };
      return sendError(res, problem, { 'retry-after': String(shedding.retryAfterSeconds) });
    }
    if (opts.failsEvery && req.method === 'GET' && arrival % opts.failsEvery === 0) return sendError(res, crash('the backend failed: try again'));
    if (has('slow-responses')) await new Promise((r) => setTimeout(r, SLOW_RESPONSE_MS));
    // rate limits are "not shown": a server may refuse some requests with 429 and Retry-After
    if (variant('rate-limited') && ++storeRequests % RATE_LIMIT_EVERY === 0) {
      return sendError(res, { status: 429, code: 'rate_limited', message: 'Too many requests' }, { 'retry-after': '0' });
    }
    if (!withinRate()) return sendError(res, { status: 429, code: 'rate_limited', message: 'Too many requests' }, { 'retry-after': '1' });
    const url = new URL(req.url ?? '/', 'http://localhost');
    // the router: the request as the operations see it, or an answer before any of them
    const route = routeStore(req, url, switches);
    if (isEarly(route)) return sendEarly(res, route);
    const { operation, path, petId } = route;
    received.set(operation ?? '(no route)', (received.get(operation ?? '(no route)') ?? 0) + 1);
    if (operation !== undefined && operation === opts.neverAnswers) return; // left open until the client gives up
    // routes the server does not have: its router answers before any key is looked at
    if (operation === 'listOrders' && variant('orders-absent')) return sendError(res, notFound(`No route for ${req.method} ${path}`));
    // orders exist in name only: each answers every caller alike, before any key is looked at
    if (operation === 'listOrders' && variant('orders-501'))
      return sendError(res, { status: 501, code: 'not_implemented', message: 'Orders are not implemented' });
    if (operation === 'listOrders' && variant('orders-403')) return sendError(res, { status: 403, code: 'forbidden', message: 'Orders are not available' });
    if (operation === 'listOrders' && variant('orders-400-before-auth') && !url.searchParams.has('storeId')) {
      return sendError(res, invalid('storeId is required'));
    }
    if (operation === 'getPet' && variant('getpet-removed')) return sendError(res, { ...notFound('Not Found'), frameworkPage: true });
    // getPet is deprecated: the variant announces it on every answer of the operation
    const headers: Record<string, string> =
      operation === 'getPet' && variant('deprecation-headers') ? { deprecation: 'true', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' } : {};

    // authentication comes first, on every route (unknown ones included)
    const denied = route.unguarded ? undefined : storeAuth(req, operation ?? '');
    const validateFirst = operation === 'createPet' && variant('validate-before-auth');
    // a data layer asked before the credential: an animal that does not exist is 404 to anyone
    const absent = petId !== undefined && INTEGER.test(petId) && !pets.some((p) => p.id === BigInt(petId) && readable(p));
    const lookupFirst = operation === 'getPet' && variant('lookup-before-auth') && absent;
    if (denied && !validateFirst && !lookupFirst) return sendError(res, denied, headers);
    if (tooLarge) return sendError(res, { status: 413, code: 'payload_too_large', message: `The body exceeds ${MAX_BODY_BYTES} bytes` });
    if (route.refusal) return sendError(res, route.refusal, headers);

    if (!operation) {
      const { problem, headers: allow } = noRoute(route);
      return sendError(res, problem, allow);
    }
    const operations: Record<string, () => [number, Json] | Problem> = {
      listPets: () => listPets(url),
      createPet: () => createPet(req, text, denied),
      getPet: () => getPet(petId!),
      listOrders,
      replacePet: () => updatePet(req, petId!, text, false),
      updatePet: () => updatePet(req, petId!, text, true),
      deletePet: () => deletePet(petId!),
    };
    const answer = operations[operation]();
    if (isProblem(answer)) return sendError(res, answer, headers);
    sendJson(res, answer[0], route.envelope ? { data: answer[1] } : answer[1], headers);
  }

  // ---------------------------------------------------------------- quickstart: POST /messages

  function utcTimestamp(): Json {
    const now = new Date();
    const hoursAhead = (h: number) => new Date(now.getTime() + h * 3600_000).toISOString();
    if (has('qs-epoch-created-at')) return now.getTime();
    if (has('qs-local-offset')) return hoursAhead(2).replace('Z', '+02:00');
    if (has('qs-local-no-zone')) return hoursAhead(2).replace('Z', '');
    if (has('qs-clock-ahead')) return hoursAhead(3);
    const iso = now.toISOString();
    if (variant('created-at-no-zone')) return iso.replace('Z', '');
    // ISO 8601's basic form with a decimal comma and an hour-only zero offset: 20261123T124326,821+00
    if (variant('created-at-basic')) return `${iso.replace(/[-:]/g, '').replace('.', ',').replace('Z', '')}+00`;
    return variant('quickstart-plus-zero') ? iso.replace('Z', '+00:00') : iso;
  }

  function sendMessage(req: IncomingMessage, text: string): [number, Json] | Problem {
    if (req.headers['content-type'] === undefined) {
      if (!has('qs-missing-content-type-accepted')) return invalid('The Content-Type header is missing');
    } else if (mediaType(req) !== 'application/json') {
      return invalid('Content-Type must be application/json');
    }
    let body: Json;
    try {
      body = parseJson(text);
    } catch {
      if (has('qs-invalid-json-500')) return crash('unexpected end of JSON input');
      if (!has('qs-invalid-json-accepted')) return invalid('The JSON is invalid');
      body = { message: text };
    }
    if (!isObject(body)) return invalid('The body must be a JSON object with message');
    let message = body.message;
    if (message === undefined) {
      if (!has('qs-missing-message-accepted')) return invalid('message is missing');
      message = '';
    }
    if (typeof message !== 'string') {
      if (!has('qs-non-string-message-accepted')) return invalid('message must be a string');
      message = toJson(message);
    }
    const stored: Record<string, Json> = {
      id: randomUUID(),
      message: has('qs-no-echo') ? 'Message received' : message,
      status: variant('quickstart-sent') ? 'sent' : 'queued',
      createdAt: utcTimestamp(),
    };
    messages.push(stored);
    const { id, ...rest } = stored;
    const status = variant('message-202') ? 202 : variant('message-200') ? 200 : 201;
    return [status, has('qs-missing-id') ? rest : { id, ...rest }];
  }

  /** The quickstart service, its paths under `prefix` (on the store's port: see quickstartOnStorePort). */
  async function handleQuickstart(req: IncomingMessage, res: ServerResponse, prefix = ''): Promise<void> {
    res.on('finish', () => quickstartAnswered++);
    const { text, tooLarge } = await readBody(req, has('chunked-body-ignored'));
    if (opts.quickstartKilledAfter !== undefined && quickstartAnswered >= opts.quickstartKilledAfter) {
      req.socket.destroy();
      return void stop(quickstart);
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    url.pathname = url.pathname.slice(prefix.length);
    const route = routeQuickstart(req, url, switches);
    // its errors are its own, not the store's: the sibling-path variant answers them as plain text
    const refuse = (problem: Problem) => sendError(res, { ...problem, plainText: variant('quickstart-sibling-path') });
    const denied = route.unguarded ? undefined : quickstartAuth(req);
    if (denied) return refuse(denied);
    if (tooLarge) return refuse({ status: 413, code: 'payload_too_large', message: `The body exceeds ${MAX_BODY_BYTES} bytes` });
    if (route.refusal) return refuse(route.refusal);
    const answer = route.operation ? sendMessage(req, text) : notFound(`No route for ${req.method} ${route.path}`);
    if (isProblem(answer)) return refuse(answer);
    sendJson(res, answer[0], answer[1]);
  }

  // ---------------------------------------------------------------- start

  for (let i = 0; i < (opts.prefill ?? 0); i++) {
    addPet(prefilledFields(i, properties, required, statuses));
  }

  const serve = (handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>) =>
    createServer((req, res) => {
      handler(req, res).catch((err: Error) => {
        if (!res.headersSent) sendError(res, crash(`internal error: ${err.message}`));
        else res.destroy();
      });
    });
  if (variant('long-names')) {
    for (let i = 0; i < LONG_NAMES.count; i++) {
      addPet({ ...prefilledFields(i, properties, required, statuses), name: `long-name-${i + 1}-`.padEnd(LONG_NAMES.length, 'abcdefghij') });
    }
  }

  // variants that serve the quickstart service on the store's own port, under this
  // prefix: at the origin root (every path outside /v1), or under a sibling path
  const quickstartOnStorePort = variant('quickstart-at-store-root') ? '' : variant('quickstart-sibling-path') ? QUICKSTART_SIBLING : undefined;
  const isQuickstartPath = (path: string) =>
    quickstartOnStorePort === ''
      ? path !== '/v1' && !path.startsWith('/v1/')
      : quickstartOnStorePort !== undefined && (path === quickstartOnStorePort || path.startsWith(`${quickstartOnStorePort}/`));
  const store = serve((req, res) => (isQuickstartPath(pathOf(req)) ? handleQuickstart(req, res, quickstartOnStorePort) : handleStore(req, res)));
  const quickstart = serve(handleQuickstart);
  const [storePort, quickstartPort] = await Promise.all([listen(store), listen(quickstart)]);
  const stopServers = () => Promise.all([stop(store), stop(quickstart)]);

  return {
    baseUrl: `http://127.0.0.1:${storePort}/v1`,
    quickstartBaseUrl: quickstartOnStorePort === undefined ? `http://127.0.0.1:${quickstartPort}` : `http://127.0.0.1:${storePort}${quickstartOnStorePort}`,
    petCount: () => pets.length,
    messageCount: () => messages.length,
    requestsFor: (operationId) => received.get(operationId) ?? 0,
    close: async () => {
      await stopServers();
    },
  };
}

// -------------------------------------------------------------------- helpers

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections(); // keep-alive connections would hold close() open
  });
}

/**
 * The whole body, at most MAX_BODY_BYTES of it kept; the rest is drained. `lengthOnly`:
 * a server that reads only a body with a Content-Length takes a chunked one for empty.
 */
function readBody(req: IncomingMessage, lengthOnly = false): Promise<{ text: string; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    if (lengthOnly && req.headers['content-length'] === undefined) {
      req.resume();
      return req.on('end', () => resolve({ text: '', tooLarge: false }));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge: size > MAX_BODY_BYTES }));
    req.on('error', reject);
  });
}

/** The path of a request's URL. */
function pathOf(req: IncomingMessage): string {
  return new URL(req.url ?? '/', 'http://localhost').pathname;
}

/** A valid NewPet for the i-th prefilled animal, extra required fields included. */
function prefilledFields(i: number, properties: Record<string, any>, required: string[], statuses: string[]): Fields {
  const fields: Fields = { name: `prefill-${i + 1}`, categoryId: (i % 5) + 1, status: statuses[i % statuses.length] };
  for (const key of required) {
    if (key in fields) continue;
    const schema = properties[key] ?? {};
    fields[key] = schema.enum
      ? schema.enum[0]
      : schema.type === 'string'
        ? `${key}-${i + 1}`
        : schema.type === 'integer' || schema.type === 'number'
          ? (schema.minimum ?? 1)
          : schema.type === 'boolean'
            ? true
            : schema.type === 'array'
              ? []
              : {};
  }
  return fields;
}
