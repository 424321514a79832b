// Servers that misbehave on purpose, each on 127.0.0.1 (an ephemeral port) under
// /v1, for test/hostile.test.ts: the CLI must end on time, with an honest exit
// code and both reports, whatever the target does. Every server tracks its
// sockets and timers, so close() leaves nothing running.
import { createServer as createHttpServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';

export interface HostileServer {
  /** http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  close(): Promise<void>;
}

export interface RedirectServer extends HostileServer {
  /** The other origin every request is redirected to. */
  elsewhere: { origin: string; requests: Array<{ method: string; url: string; headers: IncomingHttpHeaders }> };
}

/** Listens on 127.0.0.1:0; close() destroys every open socket and runs the cleanups. */
async function listen(server: Server, cleanups: Array<() => void> = []): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined); // the client going away mid-write is expected
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    port,
    close: async () => {
      for (const cleanup of cleanups) cleanup();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

type Handler = (req: IncomingMessage, res: ServerResponse, cleanups: Array<() => void>) => void;

async function httpServer(handler: Handler): Promise<HostileServer & { port: number }> {
  const cleanups: Array<() => void> = [];
  const server = createHttpServer((req, res) => handler(req, res, cleanups));
  const { port, close } = await listen(server, cleanups);
  return { port, baseUrl: `http://127.0.0.1:${port}/v1`, close };
}

/** 1. Accepts connections and never writes a byte. */
export async function neverAnswers(): Promise<HostileServer> {
  const { port, close } = await listen(createNetServer(() => undefined));
  return { baseUrl: `http://127.0.0.1:${port}/v1`, close };
}

/** 2. 200, application/json, a body that is not JSON, to everything. */
export function invalidJson(): Promise<HostileServer> {
  return httpServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"oops": ');
  });
}

/**
 * 3. 200 and a body that never ends: a 64 KiB chunk every few milliseconds (about
 * 16 MB/s a connection, so the client's cap is reached fast without this process
 * spending its time on the flood), until the client goes away.
 */
export function endlessBody(options: { sparePreflight?: boolean } = {}): Promise<HostileServer> {
  const chunk = Buffer.alloc(64 * 1024, '[');
  const endless: Handler = (req, res, cleanups) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => {
      if (!res.writableNeedDrain) res.write(chunk);
    }, 4);
    cleanups.push(() => clearInterval(timer));
    res.on('close', () => clearInterval(timer));
  };
  return httpServer(options.sparePreflight ? sparePreflight(endless) : endless);
}

/** 4. 302 to another origin for everything; the other origin records what reaches it. */
export async function redirectsElsewhere(): Promise<RedirectServer> {
  const requests: RedirectServer['elsewhere']['requests'] = [];
  const other = await httpServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  const origin = `http://127.0.0.1:${other.port}`;
  const redirector = await httpServer((req, res) => {
    req.resume();
    res.writeHead(302, { location: `${origin}${req.url ?? '/'}`, 'content-type': 'text/plain' }).end('Found');
  });
  return {
    baseUrl: redirector.baseUrl,
    elsewhere: { origin, requests },
    close: async () => {
      await Promise.all([redirector.close(), other.close()]);
    },
  };
}

/** 5. Resets the connection (TCP RST) on every request. */
export function resetsConnections(): Promise<HostileServer> {
  return httpServer((req) => {
    req.socket.resetAndDestroy();
  });
}

/** 6. Status line and headers at once, then one byte of body a second, forever. */
export function dripsBytes(): Promise<HostileServer> {
  return httpServer((req, res, cleanups) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
    const timer = setInterval(() => res.write('['), 1000);
    cleanups.push(() => clearInterval(timer));
    res.on('close', () => clearInterval(timer));
  });
}

/** 6b. Accepts the connection, then sends the status line and headers a byte every 200 ms, never finishing them. */
export async function dripsStatusLine(): Promise<HostileServer> {
  const cleanups: Array<() => void> = [];
  const head = Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n'.padEnd(100_000, 'x'));
  const server = createNetServer((socket) => {
    let sent = 0;
    socket.on('data', () => undefined); // the request is read and ignored
    const timer = setInterval(() => {
      if (sent < head.length) socket.write(head.subarray(sent, ++sent));
    }, 200);
    cleanups.push(() => clearInterval(timer));
    socket.on('close', () => clearInterval(timer));
  });
  const { port, close } = await listen(server, cleanups);
  return { baseUrl: `http://127.0.0.1:${port}/v1`, close };
}

/** 7. 500 with an Error body to everything. */
export function internalError(): Promise<HostileServer> {
  return httpServer((req, res) => {
    req.resume();
    res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'internal', message: 'something broke', status: 500 }));
  });
}

/**
 * Answers the first request (the run's preflight list) with an empty page, so the
 * run goes ahead, and hands every later one to the hostile handler.
 */
function sparePreflight(hostile: Handler): Handler {
  let answered = false;
  return (req, res, cleanups) => {
    if (answered) return hostile(req, res, cleanups);
    answered = true;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  };
}

/** Answers the preflight, then 429 with Retry-After: 1 to everything, as a rate limit that never lifts. */
export function rateLimitsAfterPreflight(): Promise<HostileServer> {
  return httpServer(
    sparePreflight((req, res) => {
      req.resume();
      res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' })
        .end(JSON.stringify({ code: 'rate_limited', message: 'Too many requests', status: 429 }));
    }),
  );
}

/** Answers the preflight, then never again: only the run's deadline ends the run. */
export function hangsAfterPreflight(): Promise<HostileServer> {
  return httpServer(
    sparePreflight((req) => {
      req.resume();
    }),
  ); // left open until the client gives up or close()
}

/** A firewall (or a gateway in front of another service) that answers 403 with an HTML page to everything. */
export function forbidsEverything(): Promise<HostileServer> {
  return httpServer((req, res) => {
    req.resume();
    res.writeHead(403, { 'content-type': 'text/html; charset=utf-8' }).end('<html><body><h1>403 Forbidden</h1><p>Request blocked.</p></body></html>');
  });
}

/**
 * 9. A list that floods: listPets answers `count` animals (200,000: 11 MiB), each breaking
 * Pet four ways (id, name, categoryId, status); a create is answered 201 as sent, with an
 * id, so the run goes on to every page; anything else gets a 404 Error body. The body is
 * made once, so this process spends its time sending it, not building it.
 */
export function errorFlood(count = 200_000): Promise<HostileServer> {
  const flood = Buffer.from(`[${Array.from({ length: count }, (_, i) => `{"id":"${i}","name":${i},"categoryId":"c","status":"x"}`).join(',')}]`);
  let id = 0;
  return httpServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'GET' && path === '/v1/pets') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': flood.length }).end(flood);
        return;
      }
      if (req.method === 'POST' && path === '/v1/pets') {
        let sent: unknown;
        try {
          sent = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          sent = undefined;
        }
        if (sent && typeof sent === 'object' && !Array.isArray(sent)) {
          res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ ...sent, id: ++id }));
          return;
        }
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'not_found', message: 'no such thing', status: 404 }));
    });
  });
}

/** 8. Nothing listens: a port that was free a moment ago. */
export async function closedPort(): Promise<HostileServer> {
  const { port, close } = await listen(createNetServer());
  await close();
  return { baseUrl: `http://127.0.0.1:${port}/v1`, close: async () => undefined };
}

/** A web front end at the address: 200 and the same HTML page to every method and path, with or without a key. */
export function servesWebSite(): Promise<HostileServer> {
  return httpServer((req, res) => {
    req.resume();
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><html><head><title>Acme Pets: find your new friend</title></head><body><div id="app"></div></body></html>');
  });
}
