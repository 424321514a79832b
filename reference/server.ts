// The embedded reference server: an in-memory Animal Store that follows the API
// description, and the quickstart message service on its own port.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { crash, sendError } from './errors.js';
import { gateway } from './gateway.js';
import { resolveOptions, type ReferenceOptions } from './options.js';
import { quickstartService } from './quickstart.js';
import { seam } from './seams.js';
import { fillAtStart } from './store/animals.js';
import { handleStore } from './store/handler.js';
import { listen, stop } from './transport.js';
import { urlOf } from './wire.js';

export type { ReferenceOptions } from './options.js';

export type ReferenceServer = Awaited<ReturnType<typeof startReferenceServer>>;

export async function startReferenceServer(opts: ReferenceOptions) {
  const ctx = await resolveOptions(opts);
  const { sw } = ctx;
  fillAtStart(ctx, ctx.opts.prefill ?? 0);

  const { onRequest } = ctx.opts;
  const serve = (service: 'store' | 'quickstart', handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>) =>
    createServer((req, res) => {
      if (onRequest) {
        const started = performance.now();
        // close comes once, whether the answer was sent or the connection dropped first
        res.once('close', () =>
          onRequest({
            service,
            method: req.method ?? '',
            url: req.url ?? '',
            status: res.writableFinished ? res.statusCode : 0,
            ms: performance.now() - started,
          }),
        );
      }
      handler(req, res).catch((err: Error) => {
        if (!res.headersSent) sendError(sw, res, crash(`internal error: ${err.message}`));
        else res.destroy();
      });
    });
  const stopServers = (): Promise<void> => Promise.all([stop(store), stop(quickstart)]).then(() => undefined);
  const gate = gateway(ctx, () => void stopServers());
  const sendMessages = quickstartService(ctx, () => void stop(quickstart));
  const mount = sw.at(QUICKSTART_MOUNT)[0];
  const isQuickstartPath = (path: string) =>
    mount === '' ? path !== '/v1' && !path.startsWith('/v1/') : mount !== undefined && (path === mount || path.startsWith(`${mount}/`));
  const store = serve('store', (req, res) =>
    mount !== undefined && isQuickstartPath(urlOf(req).pathname) ? sendMessages(req, res, mount) : handleStore(ctx, gate, req, res),
  );
  const quickstart = serve('quickstart', (req, res) => sendMessages(req, res));
  const { host = '127.0.0.1', port = 0, quickstartPort: qsPort = 0 } = ctx.opts.listen ?? {};
  const [storePort, quickstartPort] = await Promise.all([listen(store, port, host), listen(quickstart, qsPort, host)]).catch(async (err: Error) => {
    await stopServers(); // the one that did listen must not keep the process alive
    throw err;
  });
  // an address that listens everywhere is reached through the loopback one
  const origin = (p: number) => `http://${['0.0.0.0', '::'].includes(host) ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host}:${p}`;

  return {
    baseUrl: `${origin(storePort)}/v1`,
    quickstartBaseUrl: mount === undefined ? origin(quickstartPort) : `${origin(storePort)}${mount}`,
    petCount: () => ctx.animals.pets.length,
    messageCount: () => ctx.messages.length,
    /** How many requests reached an animal-store operation. */
    requestsFor: (operationId: string) => ctx.received.get(operationId) ?? 0,
    close: stopServers,
  };
}

// Seams

/** The quickstart service on the store's port: at the origin root (outside /v1), or under this path. */
const QUICKSTART_MOUNT = seam<string>('the quickstart address', { 'quickstart-at-store-root': '', 'quickstart-sibling-path': '/v1-quickstart' });
