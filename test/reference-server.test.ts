// Smoke test of the embedded reference server: a handful of documented behaviours
// over real HTTP, and that a few faults and variants change what it answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceOptions, type ReferenceServer } from '../reference/server.js';
import { FAULTS } from '../reference/faults.js';
import { VARIANT_SPECS } from '../reference/variants.js';
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
