// The HTTP client in a real network: retries of idempotent requests, proxies from
// the environment, and no plain-http key to a remote host.
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../harness/http.js';
import { Redactor } from '../harness/redact.js';
import { ConfigError, parseCommandLine, resolveConfig } from '../harness/config.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => { s.closeAllConnections(); s.close(r); })));
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

function client(retries = 0): HttpClient {
  return new HttpClient({
    timeoutMs: 2000, maxBodyBytes: 1024, concurrency: 4, retries,
    signal: new AbortController().signal, userAgent: 'test', redactor: new Redactor([]),
  });
}

describe('retries', () => {
  it('retries an idempotent request after 503 and records every attempt; never a POST', async () => {
    let calls = 0;
    const url = await listen(createServer((req, res) => {
      calls++;
      res.writeHead(calls === 1 || req.method === 'POST' ? 503 : 200, { 'retry-after': '0', 'content-type': 'application/json' }).end('[]');
    }));
    const http = client(2);
    const ex = await http.send({ method: 'GET', url });
    expect(ex).toMatchObject({ status: 200, attempt: 2 });
    expect(ex.record().attempt).toBe(2);
    expect(http.requestCount).toBe(2);
    expect(http.retryCount).toBe(1);
    const post = await http.send({ method: 'POST', url, body: '{}' });
    expect(post).toMatchObject({ status: 503, attempt: 1 });
  });

  it('makes no retry by default', async () => {
    const url = await listen(createServer((_req, res) => { res.writeHead(503).end(); }));
    const http = client();
    expect((await http.send({ method: 'GET', url })).status).toBe(503);
    expect(http.requestCount).toBe(1);
  });
});

describe('proxies', () => {
  it('sends through HTTP_PROXY when it is set', async () => {
    const target = await listen(createServer((_req, res) => { res.writeHead(200).end('direct'); }));
    const seen: string[] = [];
    // a tunnelling proxy, as undici speaks to proxies with CONNECT
    const proxyServer = createServer();
    proxyServer.on('connect', (req, socket, head) => {
      seen.push(req.url ?? '');
      const [host, port] = (req.url ?? '').split(':');
      const upstream = connect(Number(port), host, () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(socket).pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    const proxy = await listen(proxyServer);
    const saved = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = proxy;
    try {
      const ex = await client().send({ method: 'GET', url: `${target}/v1/pets` });
      expect(ex.text).toBe('direct');
      expect(seen).toEqual([target.replace('http://', '')]);
    } finally {
      if (saved === undefined) delete process.env.HTTP_PROXY; else process.env.HTTP_PROXY = saved;
    }
  });
});

describe('a proxy that never answers', () => {
  it('cannot hold a request past its timeout', async () => {
    const proxyServer = createServer();
    const held: Array<{ destroy(): void }> = [];
    proxyServer.on('connect', (_req, socket) => { held.push(socket); }); // never answers
    const proxy = await listen(proxyServer);
    const saved = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = proxy;
    try {
      const started = Date.now();
      await expect(client().send({ method: 'GET', url: 'http://127.0.0.1:9/v1/pets' })).rejects.toThrow(/timed out after 2000 ms/);
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      for (const socket of held) socket.destroy(); // a tunnel socket is not closed by server.close
      if (saved === undefined) delete process.env.HTTP_PROXY; else process.env.HTTP_PROXY = saved;
    }
  });
});

describe('plain http', () => {
  const resolve = (argv: string[], env: Record<string, string>) => resolveConfig(parseCommandLine(argv), env, '/nonexistent');

  it('refuses to send the key over http to a host other than loopback', () => {
    expect(() => resolve([], { BASE_URL: 'http://api.example.com/v1', API_KEY: 'k' })).toThrow(ConfigError);
    expect(() => resolve([], { BASE_URL: 'http://api.example.com/v1', API_KEY: 'k' })).toThrow(/refusing to send the API key over plain http/);
    expect(() => resolve([], { BASE_URL: 'https://api.example.com/v1', API_KEY: 'k', QUICKSTART_BASE_URL: 'http://q.example.com' })).toThrow(/QUICKSTART_BASE_URL/);
  });

  it('allows loopback, https, and http with --allow-insecure-http', () => {
    expect(resolve([], { BASE_URL: 'http://127.0.0.1:8080/v1', API_KEY: 'k' }).baseUrl).toBe('http://127.0.0.1:8080/v1');
    expect(resolve([], { BASE_URL: 'http://localhost:8080/v1', API_KEY: 'k' }).baseUrl).toBe('http://localhost:8080/v1');
    expect(resolve(['--allow-insecure-http'], { BASE_URL: 'http://api.example.com/v1', API_KEY: 'k' }).baseUrl).toBe('http://api.example.com/v1');
    expect(resolve([], { BASE_URL: 'http://api.example.com/v1', API_KEY: 'k', ALLOW_INSECURE_HTTP: 'true' }).baseUrl).toBe('http://api.example.com/v1');
  });
});
