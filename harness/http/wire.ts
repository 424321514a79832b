// One attempt on the wire, with a timeout over the whole exchange, the body cap, and every request under way, so that the deadline or a stop ends them.
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { Agent, EnvHttpProxyAgent, send, type InFlight } from './undici.js';
import { serviceOf, type Exchange } from './exchange.js';
import type { Service } from '../model/types.js';
import { formatSize } from '../model/units.js';

/** undici's timers are set to the request's timeout. */
const UNDICI_TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

const PROXY_VARIABLES = ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy'];

export const nameOf = (service: Service) => (service === 'store' ? 'the target' : 'the quickstart service');

interface WireOptions {
  timeoutMs: number;
  maxBodyBytes: number;
  signal: AbortSignal;
  stopped: (service: Service) => boolean;
}

export class Wire {
  readonly dispatcher: Dispatcher;
  private readonly inFlight = new Map<InFlight, Service>();

  constructor(private readonly options: WireOptions) {
    // No cap on connections to an origin: a request abandoned while its connection was made stays in undici, and every later one waited behind it.
    this.dispatcher = dispatcherFor(options.timeoutMs);
  }

  private halted(service: Service): boolean {
    return this.options.signal.aborted || this.options.stopped(service);
  }

  abortAll(): void {
    for (const request of this.inFlight.keys()) request.abort(new Error('the run was stopped (its deadline, or a signal)'));
  }

  abort(service: Service, reason: string): void {
    for (const [request, of] of this.inFlight) if (of === service) request.abort(new Error(reason));
  }

  /** Resolves with the body (whole, or cut at the cap), else with nothing. */
  async exchange(ex: Exchange, dispatcher: Dispatcher): Promise<Buffer | undefined> {
    const { maxBodyBytes } = this.options;
    const { timeoutMs } = ex;
    const service = serviceOf(ex.request);
    if (this.halted(service)) {
      const stopped = !this.options.signal.aborted;
      ex.failure = stopped ? 'stopped' : 'deadline';
      ex.error = stopped ? `not sent: ${nameOf(service)} had stopped answering` : 'not sent: the run deadline has passed';
      return undefined;
    }
    // Not AbortSignal.timeout(): Node may collect the signal, timer and all, when nothing listens to it directly, and undici's bodyTimeout
    // restarts with every chunk.
    let timedOut = false;
    const chunks: Buffer[] = [];
    let size = 0;
    const request = send(
      dispatcher,
      ex.request.url,
      {
        method: ex.request.method,
        headers: ex.request.headers,
        // a stream is sent chunked; undici refuses the header itself
        body: ex.request.chunked && ex.request.body !== undefined ? Readable.from([Buffer.from(ex.request.body)]) : ex.request.body,
      },
      {
        onHeaders: (status, headers) => {
          ex.status = status;
          for (const [k, v] of Object.entries(headers)) {
            if (v !== undefined) ex.headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
          }
        },
        onData: (chunk) => {
          size += chunk.length;
          if (size > maxBodyBytes) {
            chunks.push(chunk.subarray(0, chunk.length - (size - maxBodyBytes)));
            ex.truncated = true;
            return false;
          }
          chunks.push(chunk);
          return true;
        },
      },
    );
    const timer = setTimeout(() => {
      timedOut = true;
      request.abort(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    this.inFlight.set(request, service);
    try {
      await request.done;
      if (ex.truncated) {
        ex.failure = 'body-cap';
        ex.error = `response body larger than ${formatSize(maxBodyBytes)} (cut off: --max-body)`;
      }
      return Buffer.concat(chunks);
    } catch (err) {
      const timeout = timedOut || UNDICI_TIMEOUTS.has((err as { code?: string })?.code ?? '');
      ex.failure = timeout ? 'timeout' : this.options.signal.aborted ? 'deadline' : this.options.stopped(service) ? 'stopped' : 'connection';
      ex.error = {
        timeout: `timed out after ${timeoutMs} ms`,
        stopped: `aborted: ${nameOf(service)} had stopped answering`,
        deadline: 'aborted: the run deadline has passed',
        connection: describeNetworkError(err, ex.request.url),
      }[ex.failure];
      return undefined;
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(request);
    }
  }

  close(): Promise<void> {
    return this.dispatcher.destroy().catch(() => undefined);
  }
}

/** HTTP(S)_PROXY and NO_PROXY are honoured as for every other tool. */
export function dispatcherFor(timeoutMs: number): Dispatcher {
  const timeouts = { connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs };
  return PROXY_VARIABLES.some((v) => process.env[v]) ? new EnvHttpProxyAgent(timeouts) : new Agent(timeouts);
}

const PLAIN_HTTP = /wrong version number|packet length too long|http request/i;

function describeNetworkError(err: unknown, url: string): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.code ?? e?.cause?.code;
  const message = (e?.cause?.message ?? e?.message ?? String(err)).trim();
  // OpenSSL's words for a TLS handshake answered with plain HTTP: likely an https:// address of an http server
  if (url.startsWith('https:') && PLAIN_HTTP.test(message)) return `${code ?? 'TLS'}: the server answered plain HTTP, not TLS: use http://?`;
  return code ? `${code}: ${message}` : message;
}
