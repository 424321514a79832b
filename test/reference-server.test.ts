// Smoke test of the embedded reference server: a handful of documented behaviours
// over real HTTP, and that a few faults and variants change what it answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceOptions, type ReferenceServer } from '../reference/server.js';
import { FAULT_NAMES, FAULTS } from '../reference/faults.js';
import { SEAMS } from '../reference/seams.js';
import { VARIANT_NAMES, VARIANT_SPECS } from '../reference/variants.js';
import { loadCatalogue } from '../harness/api/catalogue.js';

const KEY = 'smoke-test-key';
const auth = { authorization: `Bearer ${KEY}` };
const json = { ...auth, 'content-type': 'application/json' };

async function withServer<T>(options: Omit<ReferenceOptions, 'apiKey'>, fn: (s: ReferenceServer) => Promise<T>): Promise<T> {
  const server = await startReferenceServer({ apiKey: KEY, ...options });
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

/** The JSON body of a response, untyped (the tests look at what came back). */
const read = async (res: Response): Promise<any> => res.json();

const post = (url: string, body: unknown, headers: Record<string, string> = json) =>
  fetch(url, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('reference server, correct behaviour', () => {
  let s: ReferenceServer;
  beforeAll(async () => {
    s = await startReferenceServer({ apiKey: KEY });
  });
  afterAll(() => s.close());

  it('answers 401 with an Error without a valid bearer credential, before validating the body', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${KEY}`, `Token ${KEY}`, KEY, 'Bearer']) {
      const res = await fetch(`${s.baseUrl}/pets`, { headers: authorization ? { authorization } : {} });
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await read(res)).toMatchObject({ code: 'unauthorized', status: 401 });
    }
    const invalidBody = await post(`${s.baseUrl}/pets`, {}, { 'content-type': 'application/json' });
    expect(invalidBody.status).toBe(401);
    expect((await fetch(`${s.baseUrl}/pets`, { headers: { authorization: `bearer ${KEY}` } })).status).toBe(200);
  });

  it('creates animals 201 with sequential integer ids, and rejects invalid bodies with 400', async () => {
    const res = await post(`${s.baseUrl}/pets`, { name: 'Rex', categoryId: 7, status: 'sold' });
    expect(res.status).toBe(201);
    expect(await read(res)).toEqual({ id: 1, name: 'Rex', categoryId: 7, status: 'sold' });
    const noStatus = await post(`${s.baseUrl}/pets`, { name: 'Tom', categoryId: 2 });
    expect(await read(noStatus)).toEqual({ id: 2, name: 'Tom', categoryId: 2 });
    for (const bad of [
      { name: 'x' },
      { name: 'x', categoryId: '7' },
      { name: 'x', categoryId: 1.5 },
      { name: 1, categoryId: 1 },
      { name: 'x', categoryId: 1, status: 'AVAILABLE' },
      [{ name: 'x', categoryId: 1 }],
      '',
      '{"name":',
      'null',
    ]) {
      const r = await post(`${s.baseUrl}/pets`, bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(await read(r)).toMatchObject({ code: 'invalid_request', status: 400 });
    }
    expect((await post(`${s.baseUrl}/pets`, { name: 'x', categoryId: 1 }, { ...auth, 'content-type': 'text/plain' })).status).toBe(400);
    expect(s.petCount()).toBe(2);
  });

  it('lists a bare array bounded by limit, filtered by status; rejects bad limits and statuses', async () => {
    for (let i = 0; i < 25; i++) await post(`${s.baseUrl}/pets`, { name: `p${i}`, categoryId: 1, status: i % 2 ? 'pending' : 'available' });
    const list = async (query: string) => fetch(`${s.baseUrl}/pets${query}`, { headers: auth });
    expect(await read(await list(''))).toHaveLength(20);
    expect(await read(await list('?limit=1'))).toHaveLength(1);
    expect(await read(await list('?limit=100'))).toHaveLength(27);
    const pending: Array<{ status: string }> = await read(await list('?status=pending'));
    expect(pending.length).toBe(12);
    expect(pending.every((p) => p.status === 'pending')).toBe(true);
    for (const q of ['?limit=0', '?limit=101', '?limit=abc', '?limit=1.5', '?limit=', '?status=nope']) {
      expect((await list(q)).status, q).toBe(400);
    }
  });

  it('gets an animal by id; 404 for unknown (even beyond int64), 400 for a non-integer id', async () => {
    const get = (id: string) => fetch(`${s.baseUrl}/pets/${id}`, { headers: auth });
    expect(await read(await get('1'))).toMatchObject({ id: 1, name: 'Rex' });
    for (const id of ['999', '9223372036854775807', '99999999999999999999999']) expect((await get(id)).status).toBe(404);
    for (const id of ['abc', '1.5']) expect((await get(id)).status).toBe(400);
    expect((await fetch(`${s.baseUrl}/store/orders`, { headers: auth })).status).toBe(200);
    const unknown = await fetch(`${s.baseUrl}/nowhere`, { headers: auth });
    expect(unknown.status).toBe(404);
    expect(await read(unknown)).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('quickstart: 201 with a queued message in UTC; 401 and 400 as troubleshooting says', async () => {
    const url = `${s.quickstartBaseUrl}/messages`;
    const ok = await post(url, { message: 'hi' });
    expect(ok.status).toBe(201);
    const body = await read(ok);
    expect(body).toMatchObject({ message: 'hi', status: 'queued' });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.createdAt).toMatch(/Z$/);
    for (const authorization of [undefined, 'Bearer nope', KEY, `Token ${KEY}`, `Basic ${KEY}`, 'Bearer']) {
      const r = await post(url, { message: 'hi' }, { 'content-type': 'application/json', ...(authorization && { authorization }) });
      expect(r.status, String(authorization)).toBe(401);
    }
    expect((await post(url, '{"message":"hi"', json)).status).toBe(400);
    expect((await post(url, {}, json)).status).toBe(400);
    expect((await post(url, { message: 42 }, json)).status).toBe(400);
    expect((await post(url, { message: 'hi' }, auth)).status).toBe(400); // no Content-Type
    expect(s.messageCount()).toBe(1);
  });
});

describe('reference server, faults and variants', () => {
  it('every fault names requirement ids of the catalogue, and every requirement is covered', () => {
    const ids = new Set(loadCatalogue().map((r) => r.id));
    // a SHOULD an allowed variant fails is covered by that variant
    const expected = [...Object.values(FAULTS), ...Object.values(VARIANT_SPECS)].flatMap((f): string[] => [
      ...('expect' in f ? f.expect : (f.shouldFail ?? [])),
    ]);
    expect(expected.filter((id) => !ids.has(id))).toEqual([]);
    expect([...ids].filter((id) => !expected.includes(id))).toEqual([]);
  });

  it('every fault and variant is an entry at a named seam', () => {
    const seamsOf = (name: string) => [...SEAMS.values()].filter((s) => name in s.entries).map((s) => s.name);
    expect([...FAULT_NAMES, ...VARIANT_NAMES].filter((name) => seamsOf(name).length === 0)).toEqual([]);
  });

  it('validate-before-auth answers 400 to an invalid body without a key', () =>
    withServer({ variants: ['validate-before-auth'] }, async (s) => {
      expect((await post(`${s.baseUrl}/pets`, {}, { 'content-type': 'application/json' })).status).toBe(400);
      expect((await post(`${s.baseUrl}/pets`, { name: 'a', categoryId: 1 }, { 'content-type': 'application/json' })).status).toBe(401);
    }));

  it('list-envelope and limit-off-by-one change the list', () =>
    withServer({ faults: ['list-envelope', 'limit-off-by-one'], prefill: 5 }, async (s) => {
      const body = await read(await fetch(`${s.baseUrl}/pets?limit=2`, { headers: auth }));
      expect(body.items).toHaveLength(3);
    }));

  it('plain-text-errors serves errors as text/plain', () =>
    withServer({ faults: ['plain-text-errors'] }, async (s) => {
      const res = await fetch(`${s.baseUrl}/pets`);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toBe('text/plain');
    }));

  it('large-ids writes ids beyond 2^53 exactly and finds them again', () =>
    withServer({ variants: ['large-ids'] }, async (s) => {
      const first = await (await post(`${s.baseUrl}/pets`, '{"name":"a","categoryId":9007199254740993}')).text();
      expect(first).toBe('{"id":9007199254740993,"name":"a","categoryId":9007199254740993}');
      await post(`${s.baseUrl}/pets`, { name: 'b', categoryId: 1 });
      const second = await (await fetch(`${s.baseUrl}/pets/9007199254740994`, { headers: auth })).text();
      expect(second).toBe('{"id":9007199254740994,"name":"b","categoryId":1}');
      expect((await fetch(`${s.baseUrl}/pets/9007199254740995`, { headers: auth })).status).toBe(404);
    }));

  it('prefill spreads animals over every status; variants change defaults', () =>
    withServer({ prefill: 6, variants: ['charset', 'clamp-limit', 'message-202', 'www-authenticate'] }, async (s) => {
      const res = await fetch(`${s.baseUrl}/pets?limit=500`, { headers: auth });
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const page: Array<{ status: string }> = await read(res);
      expect(page.map((p) => p.status)).toEqual(['available', 'pending', 'sold', 'available', 'pending', 'sold']);
      expect((await fetch(`${s.baseUrl}/pets`)).headers.get('www-authenticate')).toBe('Bearer');
      expect((await post(`${s.quickstartBaseUrl}/messages`, { message: 'x' })).status).toBe(202);
    }));
});

describe('reference server, dimensions of a request: faults', () => {
  const get = (url: string, headers: Record<string, string> = auth, method = 'GET') => fetch(url, { method, headers });

  it('limit-rounded-up answers 10 animals to limit=2 and 100 to limit=99; 1, 20 and 100 unchanged', () =>
    withServer({ faults: ['limit-rounded-up'], prefill: 120 }, async (s) => {
      for (const [limit, count] of [
        [2, 10],
        [11, 20],
        [99, 100],
        [1, 1],
        [20, 20],
        [100, 100],
      ]) {
        expect(await read(await get(`${s.baseUrl}/pets?limit=${limit}`)), `limit=${limit}`).toHaveLength(count);
      }
    }));

  it('unfiltered-inner-join leaves animals without a status out of the unfiltered list only', () =>
    withServer({ faults: ['unfiltered-inner-join'] }, async (s) => {
      await post(`${s.baseUrl}/pets`, { name: 'no status', categoryId: 1 });
      await post(`${s.baseUrl}/pets`, { name: 'sold', categoryId: 1, status: 'sold' });
      expect((await read(await get(`${s.baseUrl}/pets`))).map((p: any) => p.id)).toEqual([2]);
      expect(await read(await get(`${s.baseUrl}/pets/1`))).toEqual({ id: 1, name: 'no status', categoryId: 1 });
    }));

  it('list-default-status lists an animal without a status as available; 201, getPet and the filter see none', () =>
    withServer({ faults: ['list-default-status'] }, async (s) => {
      expect(await read(await post(`${s.baseUrl}/pets`, { name: 'a', categoryId: 1 }))).toEqual({ id: 1, name: 'a', categoryId: 1 });
      expect(await read(await get(`${s.baseUrl}/pets`))).toEqual([{ id: 1, name: 'a', categoryId: 1, status: 'available' }]);
      expect(await read(await get(`${s.baseUrl}/pets?status=available`))).toEqual([]);
      expect(await read(await get(`${s.baseUrl}/pets/1`))).toEqual({ id: 1, name: 'a', categoryId: 1 });
    }));

  it('names-trimmed, nfd-normalised, nfkc-normalised and c1-controls-stripped change names on storing', () =>
    withServer({ faults: ['nfkc-normalised', 'c1-controls-stripped'], variants: ['names-trimmed'] }, async (s) => {
      const stored = async (name: string) => (await read(await post(`${s.baseUrl}/pets`, { name, categoryId: 1 }))).name;
      expect(await stored('  a  ')).toBe('a');
      expect(await stored('\uFB01\uFF21')).toBe('fiA');
      expect(await stored('a\u007Fb\u0080c\u009Fd\u00A9')).toBe('abcd\u00A9'); // U+00A9, past the C1 range, is kept
    }).then(() =>
      withServer({ variants: ['nfd-normalised'] }, async (s) => {
        expect((await read(await post(`${s.baseUrl}/pets`, { name: '\u00E9', categoryId: 1 }))).name).toBe('e\u0301');
      }),
    ));

  it('duplicate-body-deduplicated answers the same NewPet again with the animal stored before', () =>
    withServer({ faults: ['duplicate-body-deduplicated'] }, async (s) => {
      const body = { name: 'twin', categoryId: 3, status: 'pending' };
      const [first, second] = [await post(`${s.baseUrl}/pets`, body), await post(`${s.baseUrl}/pets`, body)];
      expect(second.status).toBe(201);
      expect((await read(second)).id).toBe((await read(first)).id);
      expect((await read(await post(`${s.baseUrl}/pets`, { name: 'twin', categoryId: 3 }))).id).toBe(2); // another status: another animal
      expect(s.petCount()).toBe(2);
    }));

  it('get-id-parseint fetches animal 1 for 1abc and 1.5; abc is still 400', () =>
    withServer({ faults: ['get-id-parseint'] }, async (s) => {
      await post(`${s.baseUrl}/pets`, { name: 'a', categoryId: 1 });
      for (const id of ['1abc', '1.5']) expect(await read(await get(`${s.baseUrl}/pets/${id}`))).toMatchObject({ id: 1 });
      expect((await get(`${s.baseUrl}/pets/abc`)).status).toBe(400);
    }));

  it('empty-bearer-accepted lets "Bearer" alone into the store (not the quickstart service)', () =>
    withServer({ faults: ['empty-bearer-accepted'] }, async (s) => {
      expect((await get(`${s.baseUrl}/pets`, { authorization: 'Bearer' })).status).toBe(200);
      expect((await get(`${s.baseUrl}/pets`, { authorization: 'Bearer nope' })).status).toBe(401);
      expect((await post(`${s.quickstartBaseUrl}/messages`, { message: 'x' }, { authorization: 'Bearer', 'content-type': 'application/json' })).status).toBe(
        401,
      );
    }));

  it('scheme-case-sensitive refuses bearer <key> with 401', () =>
    withServer({ faults: ['scheme-case-sensitive'] }, async (s) => {
      expect((await get(`${s.baseUrl}/pets`, { authorization: `bearer ${KEY}` })).status).toBe(401);
      expect((await get(`${s.baseUrl}/pets`, { authorization: `BEARER ${KEY}` })).status).toBe(401);
      expect((await get(`${s.baseUrl}/pets`)).status).toBe(200);
    }));

  it('the default server takes any spelling of application/json, in Content-Type and Accept', async () => {
    await withServer({}, async (s) => {
      for (const type of ['application/json; charset=utf-8', 'Application/JSON']) {
        expect((await post(`${s.baseUrl}/pets`, { name: 'a', categoryId: 1 }, { ...auth, 'content-type': type })).status, type).toBe(201);
        expect((await post(`${s.quickstartBaseUrl}/messages`, { message: 'x' }, { ...auth, 'content-type': type })).status, type).toBe(201);
      }
      for (const accept of ['*/*', 'application/*', 'application/json; charset=utf-8'])
        expect((await get(`${s.baseUrl}/pets`, { ...auth, accept })).status).toBe(200);
    });
  });

  it('content-type-exact and qs-content-type-exact refuse a charset parameter with 400', () =>
    withServer({ faults: ['content-type-exact', 'qs-content-type-exact'] }, async (s) => {
      const charset = { ...auth, 'content-type': 'application/json; charset=utf-8' };
      const createWith = (headers: Record<string, string>) => post(`${s.baseUrl}/pets`, { name: 'a', categoryId: 1 }, headers);
      expect(await read(await createWith(charset))).toMatchObject({ status: 400, code: 'invalid_request' });
      expect((await createWith({ ...auth, 'content-type': 'Application/JSON' })).status).toBe(400);
      expect((await createWith(json)).status).toBe(201);
      expect((await post(`${s.quickstartBaseUrl}/messages`, { message: 'x' }, charset)).status).toBe(400);
      expect((await post(`${s.quickstartBaseUrl}/messages`, { message: 'x' })).status).toBe(201);
    }));

  it('accept-exact answers 406 to */* and to no Accept once the key has passed', () =>
    withServer({ faults: ['accept-exact'] }, async (s) => {
      const star = await get(`${s.baseUrl}/pets`, { ...auth, accept: '*/*' });
      expect(star.status).toBe(406);
      expect(await read(star)).toMatchObject({ status: 406, code: 'not_acceptable' });
      expect((await get(`${s.baseUrl}/pets`, { ...auth, accept: 'application/json; charset=utf-8' })).status).toBe(406);
      expect((await get(`${s.baseUrl}/pets`, { ...auth, accept: 'application/json' })).status).toBe(200);
      expect((await get(`${s.baseUrl}/pets`, { accept: '*/*' })).status).toBe(401);
    }));

  it('trailing-slash-envelope wraps the page of GET /pets/ as {data}, behind the key', () =>
    withServer({ faults: ['trailing-slash-envelope'], prefill: 3 }, async (s) => {
      expect((await read(await get(`${s.baseUrl}/pets/`))).data).toHaveLength(3);
      expect(await read(await get(`${s.baseUrl}/pets`))).toHaveLength(3);
      expect((await get(`${s.baseUrl}/pets/`, {})).status).toBe(401);
    }));

  it('mixed-case-route-unauthenticated serves /v1/PETS and /v1/Pets without a key; /v1/pets still needs one', () =>
    withServer({ faults: ['mixed-case-route-unauthenticated'], prefill: 2 }, async (s) => {
      const origin = new URL(s.baseUrl).origin;
      for (const path of ['/v1/PETS', '/v1/Pets']) expect(await read(await get(`${origin}${path}`, {})), path).toHaveLength(2);
      expect((await get(`${origin}/v1/pets`, {})).status).toBe(401);
    }));

  it('without a fault, HEAD gets 401 without a key and 405 with one; OPTIONS and DELETE likewise', async () => {
    await withServer({ prefill: 1 }, async (s) => {
      for (const [method, path] of [
        ['HEAD', '/pets'],
        ['OPTIONS', '/pets'],
        ['DELETE', '/pets/1'],
      ]) {
        expect((await get(`${s.baseUrl}${path}`, {}, method)).status, method).toBe(401);
        const allowed = await get(`${s.baseUrl}${path}`, auth, method);
        expect(allowed.status, method).toBe(405);
        expect(allowed.headers.get('allow')).toBe(path === '/pets' ? 'GET, POST' : 'GET');
      }
      expect(s.petCount()).toBe(1);
    });
  });

  it('head-unauthenticated answers a keyless HEAD on a GET route 200, without a body', () =>
    withServer({ faults: ['head-unauthenticated'], prefill: 1 }, async (s) => {
      for (const path of ['/pets', '/pets/1', '/store/orders']) {
        const res = await get(`${s.baseUrl}${path}`, {}, 'HEAD');
        expect(res.status, path).toBe(200);
        expect(await res.text()).toBe('');
      }
      expect((await get(`${s.baseUrl}/pets`, {})).status).toBe(401);
    }));

  it('options-unauthenticated answers a keyless OPTIONS /pets with the page', () =>
    withServer({ faults: ['options-unauthenticated'], prefill: 2 }, async (s) => {
      const res = await get(`${s.baseUrl}/pets`, {}, 'OPTIONS');
      expect(res.status).toBe(200);
      expect(await read(res)).toHaveLength(2);
    }));

  it('delete-unauthenticated deletes without a key: 204 for any integer id', () =>
    withServer({ faults: ['delete-unauthenticated'], prefill: 2 }, async (s) => {
      const res = await get(`${s.baseUrl}/pets/1`, {}, 'DELETE');
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');
      expect(s.petCount()).toBe(1);
      expect((await get(`${s.baseUrl}/pets/1`)).status).toBe(404);
      expect((await get(`${s.baseUrl}/pets/2`)).status).toBe(200); // the other animal stays
      expect((await get(`${s.baseUrl}/pets/999`, {}, 'DELETE')).status).toBe(204);
      expect((await get(`${s.baseUrl}/pets/abc`, {}, 'DELETE')).status).toBe(400);
    }));

  it('qs-trailing-slash-unauthenticated queues POST /messages/ without a key', () =>
    withServer({ faults: ['qs-trailing-slash-unauthenticated'] }, async (s) => {
      const noKey = { 'content-type': 'application/json' };
      expect((await post(`${s.quickstartBaseUrl}/messages/`, { message: 'x' }, noKey)).status).toBe(201);
      expect((await post(`${s.quickstartBaseUrl}/messages`, { message: 'x' }, noKey)).status).toBe(401);
      expect(s.messageCount()).toBe(1);
    }));
});

describe('reference server, dimensions of a request: allowed variants', () => {
  const call = (url: string, method = 'GET', headers: Record<string, string> = auth, body?: unknown) =>
    fetch(url, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    });

  it('head-as-get answers HEAD as GET without the body, behind the key', () =>
    withServer({ variants: ['head-as-get'], prefill: 1 }, async (s) => {
      expect((await call(`${s.baseUrl}/pets`, 'HEAD', {})).status).toBe(401);
      const res = await call(`${s.baseUrl}/pets`, 'HEAD');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.text()).toBe('');
      expect((await call(`${s.baseUrl}/nowhere`, 'HEAD')).status).toBe(404);
    }));

  it('cors-preflight answers OPTIONS on any path 204 with the CORS headers, before the key', () =>
    withServer({ variants: ['cors-preflight'] }, async (s) => {
      for (const path of ['/pets', '/pets/1', '/nowhere']) {
        const res = await call(`${s.baseUrl}${path}`, 'OPTIONS', { origin: 'https://example.com', 'access-control-request-method': 'GET' });
        expect(res.status, path).toBe(204);
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        expect(res.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
        expect(res.headers.get('access-control-allow-methods')).toMatch(/GET/);
        expect(await res.text()).toBe('');
      }
      expect((await call(`${s.baseUrl}/pets`, 'GET', {})).status).toBe(401);
    }));

  it('canonical-redirect answers 308 to the documented path, query kept, before the key', () =>
    withServer({ variants: ['canonical-redirect'], prefill: 1 }, async (s) => {
      const origin = new URL(s.baseUrl).origin;
      for (const [path, location] of [
        ['/v1/pets/?limit=1', '/v1/pets?limit=1'],
        ['/v1//pets', '/v1/pets'],
        ['/v1/PETS/1/', '/v1/pets/1'],
        ['/V1/Store/Orders', '/v1/store/orders'],
      ]) {
        const res = await call(`${origin}${path}`, 'GET', {});
        expect(res.status, path).toBe(308);
        expect(res.headers.get('location')).toBe(location);
      }
      expect((await call(`${origin}/v1/pets`, 'GET', {})).status).toBe(401);
      expect((await call(`${origin}/v1/nowhere/`, 'GET')).status).toBe(404);
      expect(await read(await fetch(`${origin}/v1/PETS/`, { headers: auth }))).toHaveLength(1); // followed
    }));

  it('canonical-redirect with trailing-slash-redirect ends at /v1/pets/ without a loop', () =>
    withServer({ variants: ['canonical-redirect', 'trailing-slash-redirect'], prefill: 1 }, async (s) => {
      const origin = new URL(s.baseUrl).origin;
      expect((await call(`${origin}/v1/pets/`)).status).toBe(200);
      expect(await read(await fetch(`${origin}/v1/PETS`, { headers: auth }))).toHaveLength(1);
    }));

  it('case-insensitive-routes routes /v1/PETS as /v1/pets, key and all', () =>
    withServer({ variants: ['case-insensitive-routes'], prefill: 1 }, async (s) => {
      const origin = new URL(s.baseUrl).origin;
      expect((await call(`${origin}/v1/PETS`, 'GET', {})).status).toBe(401);
      expect(await read(await call(`${origin}/V1/Pets`))).toHaveLength(1);
      expect(await read(await call(`${origin}/v1/PETS/1`))).toMatchObject({ id: 1 });
      expect((await call(`${origin}/v1/pets/`)).status).toBe(404);
    }));

  it('matrix-params-stripped routes /v1/pets;x=1 as /v1/pets, key and all', () =>
    withServer({ variants: ['matrix-params-stripped'], prefill: 1 }, async (s) => {
      expect((await call(`${s.baseUrl}/pets;x=1`, 'GET', {})).status).toBe(401);
      expect(await read(await call(`${s.baseUrl}/pets;x=1?limit=1`))).toHaveLength(1);
      expect(await read(await call(`${s.baseUrl}/pets/1;jsessionid=abc`))).toMatchObject({ id: 1 });
    }));

  it('update-delete-implemented: PUT, PATCH and DELETE behind the key, 404 for an absent id, 400 for a bad body', () =>
    withServer({ variants: ['update-delete-implemented'] }, async (s) => {
      await post(`${s.baseUrl}/pets`, { name: 'a', categoryId: 1 });
      const item = `${s.baseUrl}/pets/1`;
      for (const method of ['PUT', 'PATCH', 'DELETE']) expect((await call(item, method, {})).status, method).toBe(401);
      expect(await read(await call(`${s.baseUrl}/pets/999`, 'PATCH'))).toMatchObject({ status: 404, code: 'not_found' });
      for (const [method, body] of [
        ['PATCH', undefined],
        ['PATCH', { categoryId: 'x' }],
        ['PATCH', [1]],
        ['PUT', undefined],
        ['PUT', { name: 'b' }],
      ] as const) {
        expect(await read(await call(item, method, auth, body)), `${method} ${JSON.stringify(body)}`).toMatchObject({ status: 400, code: 'invalid_request' });
      }
      expect(await read(await call(item, 'PATCH', auth, { status: 'sold' }))).toEqual({ id: 1, name: 'a', categoryId: 1, status: 'sold' });
      expect(await read(await call(item, 'PUT', auth, { name: 'b', categoryId: 2 }))).toEqual({ id: 1, name: 'b', categoryId: 2 });
      expect((await call(`${s.baseUrl}/pets`, 'PATCH')).status).toBe(405);
      expect((await call(item, 'POST')).headers.get('allow')).toBe('GET, PUT, PATCH, DELETE');
      expect((await call(item, 'DELETE')).status).toBe(204);
      expect((await call(item)).status).toBe(404);
      expect(s.petCount()).toBe(0);
    }));
});
