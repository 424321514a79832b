// The HTTP client in a real network: retries of idempotent requests, pacing by the
// server's rate limits, timeouts of the whole exchange, same-origin redirects,
// proxies from the environment, and no plain-http key to a remote host.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, createServer as createNetServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../harness/http/client.js';
import { retryAfterMs } from '../harness/http/pool.js';
import { Redactor } from '../harness/http/redact.js';
import { CheckError, Violation } from '../harness/model/outcome.js';
import { parseCommandLine, resolveConfig } from '../harness/config/resolve.js';
import { ConfigError } from '../harness/config/values.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise((r) => {
          s.closeAllConnections();
          s.close(r);
        }),
    ),
  );
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/**
 * A tunnelling proxy, as undici speaks to proxies with CONNECT: each CONNECT for which
 * `answers(n)` (n counts from 1) holds is tunnelled to its target, the others are held
 * unanswered (close() destroys them: server.close does not). The targets asked for, in order.
 */
async function tunnellingProxy(answers: (n: number) => boolean = () => true) {
  const seen: string[] = [];
  const held: Array<{ destroy(): void }> = [];
  const proxyServer = createServer();
  proxyServer.on('connect', (req, socket, head) => {
    seen.push(req.url ?? '');
    if (!answers(seen.length)) return void held.push(socket);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  return { url: await listen(proxyServer), seen, close: () => held.forEach((socket) => socket.destroy()) };
}

/** Runs `body` with HTTP_PROXY set to `proxy`, then puts HTTP_PROXY back as it was. */
async function withProxy(proxy: string, body: () => Promise<void>): Promise<void> {
  const saved = process.env.HTTP_PROXY;
  process.env.HTTP_PROXY = proxy;
  try {
    await body();
  } finally {
    if (saved === undefined) delete process.env.HTTP_PROXY;
    else process.env.HTTP_PROXY = saved;
  }
}

function client(retries = 0, more: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}): HttpClient {
  return new HttpClient({
    timeoutMs: 2000,
    maxBodyBytes: 1024,
    concurrency: 4,
    retries,
    signal: new AbortController().signal,
    userAgent: 'test',
    redactor: new Redactor([]),
    ...more,
  });
}

/** A server that records when each request arrived (ms since it started) and answers with `answer`. */
async function recording(answer: (req: IncomingMessage, res: ServerResponse, n: number) => void) {
  const arrivals: Array<{ at: number; url: string; method: string; authorization?: string; body: string }> = [];
  const started = performance.now();
  const url = await listen(
    createServer((req, res) => {
      let body = '';
      req.on('data', (d) => {
        body += d;
      });
      req.on('end', () => {
        arrivals.push({ at: performance.now() - started, url: req.url ?? '', method: req.method ?? '', authorization: req.headers.authorization, body });
        answer(req, res, arrivals.length);
      });
    }),
  );
  return { url, arrivals };
}

const json = (res: ServerResponse, status: number, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end('[]');

describe('retries', () => {
  it('retries an idempotent request after a 5xx (--retries), records every attempt and marks the 5xx superseded; never a POST', async () => {
    let calls = 0;
    const url = await listen(
      createServer((req, res) => {
        calls++;
        res.writeHead(calls === 1 || req.method === 'POST' ? 500 : 200, { 'content-type': 'application/json' }).end('[]');
      }),
    );
    const http = client(2);
    const ex = await http.send({ method: 'GET', url });
    expect(ex).toMatchObject({ status: 200, attempt: 2 });
    expect(ex.record().attempt).toBe(2);
    expect(http.requestCount).toBe(2);
    expect(http.retryCount).toBe(1);
    const [first] = http.exchanges;
    expect([first.status, first.superseded, first.next, first.final]).toEqual([500, true, ex, ex]);
    const post = await http.send({ method: 'POST', url, body: '{}' });
    expect(post).toMatchObject({ status: 500, attempt: 1, superseded: false });
  });

  it('makes no retry by default', async () => {
    const url = await listen(
      createServer((_req, res) => {
        res.writeHead(503).end();
      }),
    );
    const http = client();
    expect((await http.send({ method: 'GET', url })).status).toBe(503);
    expect(http.requestCount).toBe(1);
  });
});

describe('rate limits', () => {
  it('reads Retry-After as seconds or as an HTTP date, at most 10 s', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs('0', now)).toBe(0);
    expect(retryAfterMs('Sun, 22 Nov 2026 10:00:03 GMT', now)).toBe(3000);
    expect(retryAfterMs('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0); // in the past
    expect(retryAfterMs('3600', now)).toBe(10_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });

  it('waits out every 429, as long as it takes, whatever the method: being rate limited is no failure', async () => {
    const { url, arrivals } = await recording((_req, res, n) => json(res, n <= 5 ? 429 : 201, { 'retry-after': '0' }));
    const http = client();
    const ex = await http.send({ method: 'POST', url, body: '{}' });
    expect(ex).toMatchObject({ status: 201, attempt: 6 });
    expect(arrivals.map((a) => a.body)).toEqual(Array(6).fill('{}'));
    expect(http.rateLimitedCount).toBe(5);
  });

  it('a 503 with Retry-After is a 429: any method is paused for it, sent again, and counted with the rate limits', async () => {
    const { url, arrivals } = await recording((_req, res, n) => json(res, n === 1 ? 503 : 201, { 'retry-after': '1' }));
    const http = client();
    const ex = await http.send({ method: 'POST', url, body: '{"name":"x"}' });
    expect(ex).toMatchObject({ status: 201, attempt: 2 });
    expect(arrivals.map((a) => a.method)).toEqual(['POST', 'POST']);
    expect(arrivals[1].at - arrivals[0].at).toBeGreaterThanOrEqual(950);
    expect(http.rateLimitedCount).toBe(1);
    expect(http.exchanges[0]).toMatchObject({ status: 503, superseded: true });
  });

  it('pauses the whole client for Retry-After: no other request is sent meanwhile', async () => {
    const { url, arrivals } = await recording((_req, res, n) => json(res, n === 1 ? 429 : 200, { 'retry-after': '1' }));
    const http = client();
    const first = http.send({ method: 'GET', url: `${url}/first` });
    while (arrivals.length === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 300)); // the 429 has arrived, even on a loaded machine (the pause is 1 s)
    const other = await http.send({ method: 'GET', url: `${url}/other` });
    expect((await first).status).toBe(200);
    expect(other.status).toBe(200);
    const at = (path: string) => arrivals.filter((a) => a.url === path).map((a) => a.at);
    expect(at('/other')[0] - at('/first')[0]).toBeGreaterThanOrEqual(950);
  });

  it('halves the requests in flight after a 429 and lets them grow back as answers come', async () => {
    let hold = false;
    const held: ServerResponse[] = [];
    const { url, arrivals } = await recording((_req, res, n) => {
      if (n === 1) return json(res, 429, { 'retry-after': '0' });
      if (hold) held.push(res);
      else json(res, 200);
    });
    const http = client(0, { concurrency: 8 });
    /** Sends 8 at once while the server holds its answers: how many reach it in 1 s (well within the 2 s timeout). */
    const burst = async () => {
      hold = true;
      const before = arrivals.length;
      const sent = Promise.all(Array.from({ length: 8 }, () => http.send({ method: 'GET', url })));
      await new Promise((r) => setTimeout(r, 1000));
      const reached = arrivals.length - before;
      hold = false;
      while (held.length || arrivals.length - before < 8) {
        for (const res of held.splice(0)) json(res, 200);
        await new Promise((r) => setTimeout(r, 10));
      }
      await sent;
      return reached;
    };
    expect(await http.send({ method: 'GET', url })).toMatchObject({ status: 200, attempt: 2 });
    expect(await burst()).toBe(4); // 8 halved
    await Promise.all(Array.from({ length: 40 }, () => http.send({ method: 'GET', url })));
    expect(await burst()).toBe(8); // one more per round of answers, back to 8
  });

  it('spaces requests by --rate', async () => {
    const { url, arrivals } = await recording((_req, res) => json(res, 200));
    // 5 a second: gaps of 200 ms, far enough from none for a loaded machine, where the first arrival may lag
    await Promise.all(Array.from({ length: 5 }, () => client(0, { rate: 5 }).send({ method: 'GET', url }))); // a client each: no spacing
    const spread = (list: typeof arrivals) => list[list.length - 1].at - list[0].at;
    expect(spread(arrivals)).toBeLessThan(400);
    arrivals.length = 0;
    const http = client(0, { rate: 5 });
    await Promise.all(Array.from({ length: 5 }, () => http.send({ method: 'GET', url })));
    expect(spread(arrivals)).toBeGreaterThanOrEqual(600); // 4 gaps of 200 ms
  });

  it('ends a request still rate limited at the deadline as could-not-be-carried-out, and says so', async () => {
    const { url } = await recording((_req, res) => json(res, 429, { 'retry-after': '1' }));
    const deadline = new AbortController();
    setTimeout(() => deadline.abort(), 300);
    const http = client(0, { signal: deadline.signal });
    const started = performance.now();
    await expect(http.send({ method: 'GET', url })).rejects.toThrow(/-> 429 \(still rate limited when the run deadline passed\)/);
    expect(performance.now() - started).toBeLessThan(900); // the pause ends at the deadline
    expect(http.rateLimitedAtDeadline).toBe(true);
  });

  it("adds no abort listener per waiting request to the run's signal (no MaxListenersExceededWarning)", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      // 16 requests waiting out a 429 at once (250 ms without Retry-After): a timer with an abort listener each would warn
      const { url } = await recording((_req, res, n) => json(res, n <= 16 ? 429 : 200));
      const http = client(0, { concurrency: 16 });
      const answers = await Promise.all(Array.from({ length: 24 }, () => http.send({ method: 'GET', url })));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });
});

describe('timeouts', () => {
  it('bound the whole exchange: a body that drips a byte every 100 ms ends at the timeout', async () => {
    const url = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.flushHeaders();
        const timer = setInterval(() => res.write('['), 100);
        res.on('close', () => clearInterval(timer));
      }),
    );
    const started = performance.now();
    await expect(client(0, { timeoutMs: 500 }).send({ method: 'GET', url })).rejects.toThrow(/-> 200, body incomplete \(timed out after 500 ms\)/);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('bound the headers too: a status line that drips a byte every 100 ms ends at the timeout', async () => {
    const server = createNetServer((socket) => {
      const head = 'HTTP/1.1 200 OK\r\nx-slow: '.padEnd(1000, 'x');
      let i = 0;
      const timer = setInterval(() => socket.write(head[i++] ?? 'x'), 100);
      socket.on('close', () => clearInterval(timer));
      socket.on('error', () => undefined);
    });
    const sockets = new Set<import('node:net').Socket>();
    server.on('connection', (s) => {
      sockets.add(s);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const started = performance.now();
      const ex = client(0, { timeoutMs: 500 }).send({ method: 'GET', url: `http://127.0.0.1:${(server.address() as { port: number }).port}/` });
      await expect(ex).rejects.toThrow(/no response \(timed out after 500 ms\)/);
      expect(performance.now() - started).toBeLessThan(1000);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('redirects', () => {
  it('follows a same-origin redirect, with the key, and records every hop', async () => {
    const { url, arrivals } = await recording((req, res) => {
      if (req.url === '/v1/pets') return res.writeHead(308, { location: '/v1/pets/', 'content-type': 'text/plain' }).end('moved');
      json(res, 200);
    });
    const http = client();
    const ex = await http.send({ method: 'GET', url: `${url}/v1/pets`, headers: { authorization: 'Bearer k' } });
    expect(ex.status).toBe(200);
    expect(ex.summary).toBe('GET /v1/pets/ -> 200 (after a redirect from /v1/pets)');
    expect(http.exchanges.map((e) => [e.status, e.followed])).toEqual([
      [308, true],
      [200, false],
    ]);
    expect(ex.redirectedFrom).toBe(http.exchanges[0]);
    expect(arrivals.map((a) => a.authorization)).toEqual(['Bearer k', 'Bearer k']);
  });

  it('keeps method and body on 307 and 308; follows 301, 302 and 303 for GET only', async () => {
    const { url, arrivals } = await recording((req, res) => {
      const m = /^\/(\d{3})$/.exec(req.url ?? '');
      if (m) return res.writeHead(Number(m[1]), { location: '/there' }).end();
      json(res, 201);
    });
    const http = client();
    expect((await http.send({ method: 'POST', url: `${url}/307`, body: '{"a":1}' })).status).toBe(201);
    expect(arrivals[1]).toMatchObject({ method: 'POST', url: '/there', body: '{"a":1}' });
    for (const status of [301, 302, 303]) {
      expect((await http.send({ method: 'POST', url: `${url}/${status}`, body: '{}' })).status).toBe(status);
      expect((await http.send({ method: 'GET', url: `${url}/${status}` })).status).toBe(201);
    }
  });

  it('never follows a redirect to another origin, and at most 3 hops', async () => {
    const other = await recording((_req, res) => json(res, 200));
    const { url, arrivals } = await recording((req, res) => {
      if (req.url === '/away') return res.writeHead(302, { location: `${other.url}/x` }).end();
      res.writeHead(302, { location: '/loop' }).end();
    });
    const http = client();
    expect((await http.send({ method: 'GET', url: `${url}/away`, headers: { authorization: 'Bearer k' } })).status).toBe(302);
    expect(other.arrivals).toEqual([]);
    const looped = await http.send({ method: 'GET', url: `${url}/loop` });
    expect(looped.status).toBe(302);
    expect(arrivals.filter((a) => a.url === '/loop')).toHaveLength(4); // the request and 3 hops
  });
});

describe('proxies', () => {
  it('sends through HTTP_PROXY when it is set', async () => {
    const target = await listen(
      createServer((_req, res) => {
        res.writeHead(200).end('direct');
      }),
    );
    const proxy = await tunnellingProxy();
    await withProxy(proxy.url, async () => {
      const ex = await client().send({ method: 'GET', url: `${target}/v1/pets` });
      expect(ex.text).toBe('direct');
      expect(proxy.seen).toEqual([target.replace('http://', '')]);
    });
  });
});

describe('a proxy that never answers', () => {
  it('cannot hold a request past its timeout', async () => {
    const proxy = await tunnellingProxy(() => false);
    try {
      await withProxy(proxy.url, async () => {
        const started = Date.now();
        await expect(client().send({ method: 'GET', url: 'http://127.0.0.1:9/v1/pets' })).rejects.toThrow(/timed out after 2000 ms/);
        expect(Date.now() - started).toBeLessThan(4000);
      });
    } finally {
      proxy.close();
    }
  });
});

describe('a proxy that ignores one CONNECT', () => {
  it('holds no later request: each is sent over a CONNECT of its own, one request in flight at a time', async () => {
    const target = await listen(
      createServer((_req, res) => {
        res.writeHead(200).end('direct');
      }),
    );
    const proxy = await tunnellingProxy((n) => n > 1); // the first is never answered
    try {
      await withProxy(proxy.url, async () => {
        const http = client(0, { timeoutMs: 1000, concurrency: 1 });
        await expect(http.send({ method: 'GET', url: `${target}/v1/pets` })).rejects.toThrow(/timed out after 1000 ms/);
        for (let i = 0; i < 2; i++) expect((await http.send({ method: 'GET', url: `${target}/v1/pets` })).text).toBe('direct');
        expect(proxy.seen.length).toBeGreaterThanOrEqual(3);
      });
    } finally {
      proxy.close();
    }
  });
});

describe('plain http', () => {
  const resolve = (argv: string[], env: Record<string, string>) => resolveConfig(parseCommandLine(argv), env, '/nonexistent');

  it('refuses to send the key over http to a host other than loopback', () => {
    expect(() => resolve([], { BASE_URL: 'http://api.example.com/v1', API_KEY: 'k' })).toThrow(ConfigError);
    expect(() => resolve([], { BASE_URL: 'http://api.example.com/v1', API_KEY: 'k' })).toThrow(/refusing to send the API key over plain http/);
    expect(() => resolve([], { BASE_URL: 'https://api.example.com/v1', API_KEY: 'k', QUICKSTART_BASE_URL: 'http://q.example.com' })).toThrow(
      /QUICKSTART_BASE_URL/,
    );
  });

  it('an https:// address of a plain-http server: the error says so, with the fix', async () => {
    const url = await listen(createServer((_req, res) => json(res, 200)));
    const error = await client()
      .send({ method: 'GET', url: `${url.replace('http:', 'https:')}/v1/pets` })
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(CheckError);
    expect((error as Error).message).toMatch(/^GET \/v1\/pets -> no response \(\S+: the server answered plain HTTP, not TLS: use http:\/\/\?\)/);
  });

  it('allows loopback, https, and http with --allow-insecure-http', () => {
    expect(resolve([], { BASE_URL: 'http://127.0.0.1:8080/v1', API_KEY: 'k' }).baseUrl).toBe('http://127.0.0.1:8080/v1');
    expect(resolve([], { BASE_URL: 'http://localhost:8080/v1', API_KEY: 'k' }).baseUrl).toBe('http://localhost:8080/v1');
    expect(resolve(['--allow-insecure-http'], { BASE_URL: 'http://api.example.com/v1', API_KEY: 'k' }).baseUrl).toBe('http://api.example.com/v1');
    expect(resolve([], { BASE_URL: 'http://api.example.com/v1', API_KEY: 'k', ALLOW_INSECURE_HTTP: 'true' }).baseUrl).toBe('http://api.example.com/v1');
  });
});

describe('connections the server closes', () => {
  // HTTP lets a server close an idle connection at any time (RFC 9112 9.5): a request sent
  // on it never reached the server, so it is sent once more, alone, POST too (client.ts)
  it('a request whose reused connection is closed before any answer is sent again, once, whatever the method', async () => {
    const served = new WeakSet<object>();
    let closed = 0;
    const url = await listen(
      createServer((req, res) => {
        // the second request on a connection: the server had closed it while idle
        if (served.has(req.socket)) {
          closed++;
          return req.socket.destroy();
        }
        served.add(req.socket);
        req.resume();
        res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
      }),
    );
    const http = client(0, { concurrency: 1 });
    for (let i = 0; i < 3; i++) {
      const ex = await http.send({ method: 'POST', url: `${url}/pets`, headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(ex.status).toBe(201);
    }
    expect(closed).toBeGreaterThan(0);
    await http.close();
  });

  it('a connection that keeps failing is given up after the one resend', async () => {
    let attempts = 0;
    const url = await listen(
      createServer((req) => {
        attempts++;
        req.socket.destroy();
      }),
    );
    const http = client(0);
    await expect(http.send({ method: 'POST', url: `${url}/pets`, body: '{}' })).rejects.toThrow(/other side closed|ECONNRESET|socket/i);
    expect(attempts).toBe(2);
    await http.close();
  });
});

describe('a request that gets no answer is observed again before anything is blamed', () => {
  /** A server that counts its requests in flight and answers each as `answer` says (undefined: never). */
  async function counting(answer: (req: IncomingMessage, n: number) => { status: number; afterMs: number } | undefined) {
    const arrivals: Array<{ at: number; url: string; inFlight: number }> = [];
    const started = performance.now();
    let inFlight = 0;
    const server = createServer((req, res) => {
      req.resume();
      arrivals.push({ at: performance.now() - started, url: req.url ?? '', inFlight });
      inFlight++;
      res.on('close', () => inFlight--);
      const a = answer(req, arrivals.length);
      if (a) setTimeout(() => json(res, a.status), a.afterMs);
    });
    const url = await listen(server);
    return { url, arrivals, server };
  }

  it('sends it again alone, once the others are answered, while later requests wait; its answer counts', async () => {
    const { url, arrivals } = await counting((req, n) =>
      req.url === '/slow' && n === 1 ? undefined : { status: 200, afterMs: req.url === '/slow' ? 100 : 300 },
    );
    const http = client(0, { timeoutMs: 500, concurrency: 8 });
    const slow = http.send({ method: 'GET', url: `${url}/slow` });
    const others = [0, 250].map((delay) =>
      new Promise((r) => setTimeout(r, delay)).then(() => Promise.all([1, 2, 3].map(() => http.send({ method: 'GET', url: `${url}/other` })))),
    );
    const later = new Promise((r) => setTimeout(r, 520)).then(() => http.send({ method: 'GET', url: `${url}/later` }));
    const [answer] = await Promise.all([slow, ...others, later]);
    expect(answer).toMatchObject({ status: 200, attempt: 2 });
    expect(http.exchanges[0]).toMatchObject({ failure: 'timeout', superseded: true });
    const resent = arrivals.filter((a) => a.url === '/slow')[1];
    expect(resent.inFlight).toBe(0); // alone: the first batch answered, the second too
    expect(resent.at).toBeGreaterThanOrEqual(550);
    // the request sent meanwhile waited for the resend's answer (100 ms)
    expect(arrivals.find((a) => a.url === '/later')!.at).toBeGreaterThanOrEqual(resent.at + 90);
  });

  it('halves the requests in flight after a timeout, as after a 429', async () => {
    let hold = false;
    const held: ServerResponse[] = [];
    const { url, arrivals } = await recording((_req, res, n) => {
      if (n === 1) return; // the first request gets no answer
      if (hold) held.push(res);
      else json(res, 200);
    });
    // a timeout of 1 s: the burst below has 500 ms to reach the server, and its held requests do not time out meanwhile
    const http = client(0, { timeoutMs: 1000, concurrency: 8 });
    // with another request in flight, so that it is sent again alone (and answered)
    const [first] = await Promise.all([http.send({ method: 'GET', url }), http.send({ method: 'GET', url })]);
    expect(first).toMatchObject({ status: 200, attempt: 2 });
    hold = true;
    const before = arrivals.length;
    const sent = Promise.all(Array.from({ length: 8 }, () => http.send({ method: 'GET', url })));
    await new Promise((r) => setTimeout(r, 500));
    expect(arrivals.length - before).toBe(4); // 8 halved
    hold = false;
    for (const res of held.splice(0)) json(res, 200);
    await sent;
  });

  it('a kind of request the server never answers, while it answers the probe: a violation, and later ones of the kind are judged at once', async () => {
    const { url, arrivals } = await counting((req) => (req.url?.startsWith('/pets/') ? undefined : { status: 200, afterMs: 5 }));
    // a timeout of 500 ms: one timeout ends the later ones far enough (450 ms) before a second would, for a loaded machine
    const http = client(0, { timeoutMs: 500, probeFor: () => ({ method: 'GET', url: `${url}/pets` }) });
    // the kind: method, operation (or path without one), query parameter names
    const getPet = (path: string) => http.send({ method: 'GET', operation: 'getPet', url: `${url}${path}` });
    const [hanging] = await Promise.allSettled([getPet('/pets/7'), http.send({ method: 'GET', url: `${url}/pets` })]);
    const violation = (hanging as PromiseRejectedResult).reason;
    expect(violation).toBeInstanceOf(Violation);
    expect(violation.message).toMatch(
      /^GET \/pets\/7 -> no answer within 0\.5 s, also when sent again alone, while GET \/pets was answered \(200\) in \d+ ms \(if it is only slower than the timeout, a longer --timeout judges it\)$/,
    );
    // the request, another, the resend alone, the probe, the resend once the probe showed the server free
    expect(arrivals.map((a) => a.url)).toEqual(['/pets/7', '/pets', '/pets/7', '/pets', '/pets/7']);

    const started = performance.now();
    const [again, sameKind] = [getPet('/pets/8'), getPet('/pets/9')];
    sameKind.catch(() => undefined);
    await expect(again).rejects.toThrow(
      /^GET \/pets\/8 -> no answer within 0\.5 s, like GET \/pets\/7 before it \(no answer within 0\.5 s, also when sent again alone\), while GET \/pets was answered/,
    );
    await expect(sameKind).rejects.toBeInstanceOf(Violation);
    expect(performance.now() - started).toBeLessThan(950); // one timeout, no resend, no probe
    expect(arrivals.slice(5).map((a) => a.url)).toEqual(['/pets/8', '/pets/9']);
    // another kind (with a query parameter) is observed again as any
    await expect(getPet('/pets/10?c=1')).rejects.toThrow(/^GET \/pets\/10\?c=1 -> no answer within 0\.5 s, also when sent again alone, while/);
  });

  it('a target that stops answering: the probe gets no answer either, the client says so once and sends nothing more', async () => {
    const stops: string[] = [];
    const { url, arrivals, server } = await counting(() => ({ status: 200, afterMs: 0 }));
    const http = client(0, { probeFor: () => ({ method: 'GET', url: `${url}/pets` }), onStop: (_service, reason) => stops.push(reason) });
    expect((await http.send({ method: 'GET', url: `${url}/pets` })).status).toBe(200);
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await expect(http.send({ method: 'GET', url: `${url}/pets/1` })).rejects.toBeInstanceOf(CheckError);
    expect(stops).toHaveLength(1);
    expect(stops[0]).toMatch(/^the target stopped answering after answering 1 request: GET \/pets\/1 and GET \/pets got no answer \(ECONNREFUSED: /);
    const after = http.requestCount;
    await expect(http.send({ method: 'GET', url: `${url}/pets` })).rejects.toThrow(/not sent: the target had stopped answering/);
    expect(http.exchanges.slice(after).map((e) => e.failure)).toEqual(['stopped']);
    expect(arrivals).toHaveLength(1);
  });

  it('a target that never answered anything: could not be judged, no probe (the preflight calls it unreachable)', async () => {
    const sockets: Array<{ destroy(): void }> = [];
    const server = createNetServer((socket) => sockets.push(socket));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const http = client(0, { timeoutMs: 200, probeFor: () => ({ method: 'GET', url: `${url}/probe` }) });
    const error = await http.send({ method: 'GET', url: `${url}/pets` }).catch((e) => e);
    const connections = sockets.length;
    for (const socket of sockets) socket.destroy();
    await new Promise((r) => server.close(r));
    expect(error).toBeInstanceOf(CheckError);
    expect(error).not.toBeInstanceOf(Violation);
    expect(error.message).toBe('GET /pets -> no response (timed out after 200 ms) with no other request in flight');
    expect(connections).toBe(1); // alone already: no resend; nothing answered yet: no probe
  });

  /**
   * A single worker: each request is answered `everyMs` after the one before it (on a
   * fixed schedule, so that a busy machine's late timers do not add up); those the client
   * gave up on are worked off too, or skipped. Records each request's path and whether
   * it came on a new connection.
   */
  async function serial(everyMs: number, workOffAbandoned: boolean) {
    const arrivals: Array<{ url: string; newConnection: boolean }> = [];
    const seen = new WeakSet<object>();
    const queue: Array<{ res: ServerResponse; gone: boolean }> = [];
    let due = 0;
    let working = false;
    const work = (): void => {
      const next = queue.shift();
      working = next !== undefined;
      if (!next) return;
      if (next.gone && !workOffAbandoned) return work();
      due = Math.max(performance.now(), due) + everyMs;
      setTimeout(() => {
        if (!next.gone) json(next.res, 200);
        work();
      }, due - performance.now());
    };
    const url = await listen(
      createServer((req, res) => {
        req.resume();
        arrivals.push({ url: req.url ?? '', newConnection: !seen.has(req.socket) });
        seen.add(req.socket);
        const turn = { res, gone: false };
        res.on('close', () => (turn.gone = !res.writableFinished));
        queue.push(turn);
        if (!working) work();
      }),
    );
    return { url, arrivals };
  }

  it('a timeout with every slot taken lowers the requests in flight to what the server answered meanwhile, not only to half', async () => {
    // one answer each 200 ms: 2 within the 500 ms timeout; the 6 others time out, and are answered alone
    const { url, arrivals } = await serial(200, false);
    const http = client(0, { timeoutMs: 500, concurrency: 8 });
    const first = await Promise.all(Array.from({ length: 8 }, () => http.send({ method: 'GET', url })));
    expect(first.every((ex) => ex.status === 200)).toBe(true);
    const before = arrivals.length;
    const burst = Promise.all(Array.from({ length: 8 }, () => http.send({ method: 'GET', url: `${url}/burst` })));
    await new Promise((r) => setTimeout(r, 100));
    const reached = arrivals.length - before;
    await burst;
    // halving alone would let 4 in; the server showed it serves 2 (a late timer: fewer)
    expect(reached).toBeGreaterThanOrEqual(1);
    expect(reached).toBeLessThanOrEqual(2);
  });

  it('the liveness probe waits for the requests in flight, on a connection of its own, with more time: a server working off abandoned requests has not stopped', async () => {
    const stops: string[] = [];
    // 60 at once, one answer each 50 ms, a 1 s timeout: 40 are abandoned, 2 s of work the
    // server still does; the resend alone times out behind it, the probe (2 s) does not
    const { url, arrivals } = await serial(50, true);
    const http = client(0, {
      timeoutMs: 1000,
      concurrency: 60,
      probeFor: () => ({ method: 'GET', url: `${url}/probe` }),
      onStop: (_service, reason) => stops.push(reason),
    });
    const answers = await Promise.all(Array.from({ length: 60 }, () => http.send({ method: 'GET', url })));
    expect(stops).toEqual([]);
    expect(answers.every((ex) => ex.status === 200)).toBe(true);
    const probes = http.exchanges.filter((ex) => ex.request.url.endsWith('/probe'));
    expect(probes.map((p) => [p.status, p.timeoutMs])).toEqual([[200, 2000]]);
    expect(arrivals.filter((a) => a.url === '/probe')).toEqual([{ url: '/probe', newConnection: true }]);
  });

  it('each service has its own liveness: the quickstart service stopping stops its requests only', async () => {
    const stops: string[] = [];
    const store = await counting(() => ({ status: 200, afterMs: 0 }));
    const quickstart = await counting(() => ({ status: 400, afterMs: 0 }));
    const http = client(0, {
      probeFor: (silent) => ({ service: silent.service, method: 'GET', url: `${silent.service === 'quickstart' ? quickstart.url : store.url}/probe` }),
      onStop: (service, reason) => stops.push(`${service}: ${reason}`),
    });
    const message = () => http.send({ service: 'quickstart', method: 'POST', url: `${quickstart.url}/messages`, body: '{}' });
    expect((await message()).status).toBe(400);
    expect((await http.send({ service: 'store', method: 'GET', url: `${store.url}/pets` })).status).toBe(200);
    quickstart.server.closeAllConnections();
    await new Promise((r) => quickstart.server.close(r));
    await expect(message()).rejects.toBeInstanceOf(CheckError);
    expect(stops).toHaveLength(1);
    expect(stops[0]).toMatch(
      /^quickstart: the quickstart service stopped answering after answering 1 request: POST \/messages and GET \/probe got no answer \(ECONNREFUSED/,
    );
    await expect(message()).rejects.toThrow(/not sent: the quickstart service had stopped answering/);
    expect((await http.send({ service: 'store', method: 'GET', url: `${store.url}/pets` })).status).toBe(200);
  });
});
