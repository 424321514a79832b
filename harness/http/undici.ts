// The parts of undici the client uses, loaded without the rest of the package: an
// Agent, the proxy agent HTTP(S)_PROXY asks for, and dispatch() with a handler of our
// own. undici's index loads every API it has (fetch, WebSocket, EventSource, caches,
// mocks, SQLite): about 1 MB of code, 30-40 ms of every run's CPU (listing the hash
// algorithms for subresource integrity alone took 28 ms). And its request() hands each
// body over as a stream, read here through an async iterator: a stream, an iterator and
// an async resource per request, and the body-mixin modules (fetch's, WebIDL's) loaded
// for them. The handler below takes the chunks as they come, as request()'s does.
import type { Readable } from 'node:stream';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import connect from 'undici/lib/api/api-connect.js';
import Agent from 'undici/lib/dispatcher/agent.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import util from 'undici/lib/core/util.js';
import type { Dispatcher as DispatcherType } from 'undici';

// as undici's index does for its APIs: connect(), which the proxy agent tunnels with, on every dispatcher
Object.assign(Dispatcher.prototype, { connect });

export { Agent, EnvHttpProxyAgent };

/** What becomes of the answer to one request, as it arrives. */
export interface AnswerSink {
  /** The status line and the headers (as undici's request() gives them: names lower-cased, repeated ones in an array). */
  onHeaders(status: number, headers: Record<string, string | string[] | undefined>): void;
  /** A piece of the body; false: no more is wanted (the request is aborted, and send() resolves). */
  onData(chunk: Buffer): boolean;
}

export interface Sent {
  method: string;
  headers?: Record<string, string>;
  body?: string | Readable;
}

/** One request under way. */
export interface InFlight {
  /** Settles when the answer is complete (or the sink wanted no more); rejects with undici's error when none could be had. */
  done: Promise<void>;
  /**
   * Ends it at once, whatever phase undici is in (a proxy that never answers CONNECT was
   * seen to hang past undici's own timeouts): done rejects with the reason.
   */
  abort(reason: Error): void;
}

/**
 * Sends one request through the dispatcher and hands its answer to the sink, as undici's
 * request() does with the abort of its signal and the body's stream. No AbortSignal: the
 * client aborts a request through abort() (its timer, the deadline), which spares every
 * request an AbortController and its event listeners.
 */
export function send(dispatcher: DispatcherType, url: string, request: Sent, sink: AnswerSink): InFlight {
  let settled = false;
  let abortRequest: ((reason?: unknown) => void) | undefined;
  let abortReason: Error | undefined;
  let finish!: (err?: unknown) => void;
  const done = new Promise<void>((resolve, reject) => {
    finish = (err) => (err === undefined ? resolve() : reject(err));
  });
  const settle = (err?: unknown) => {
    if (settled) return;
    settled = true;
    finish(err);
  };
  const handler = {
    onConnect(abort: (reason?: unknown) => void) {
      abortRequest = abort;
      if (abortReason) abort(abortReason); // aborted while it waited for a connection
    },
    onHeaders(statusCode: number, rawHeaders: Buffer[]) {
      if (settled) return false;
      if (statusCode < 200) return true; // an interim answer (100 Continue, 103): the final one follows
      sink.onHeaders(statusCode, util.parseHeaders(rawHeaders));
      return true;
    },
    onData(chunk: Buffer) {
      if (settled) return false;
      if (sink.onData(chunk)) return true;
      settle();
      // as request()'s body stream, destroyed before its end, aborts the request
      queueMicrotask(() => abortRequest?.());
      return false;
    },
    onComplete() {
      settle();
    },
    onError(err: Error) {
      settle(err);
    },
  };
  try {
    const parsed = new URL(url);
    dispatcher.dispatch(
      {
        origin: parsed.origin,
        path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname,
        method: request.method as DispatcherType.HttpMethod,
        headers: request.headers,
        body: request.body,
      },
      handler as unknown as DispatcherType.DispatchHandler,
    );
  } catch (err) {
    settle(err); // a URL or request undici refuses before sending: no answer, as from undici
  }
  return {
    done,
    abort: (reason) => {
      if (settled) return;
      abortReason = reason;
      abortRequest?.(reason);
      settle(reason);
    },
  };
}
