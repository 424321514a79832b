// One request through undici's dispatch() with a handler of our own: the body's chunks
// are taken as they come, where request() would hand each body over as a stream read
// through an async iterator (a stream, an iterator and an async resource per request).
// A request is aborted through undici's own controller, not an AbortSignal, which spares
// every request an AbortController and its listeners.
import type { Readable } from 'node:stream';
import { Agent, EnvHttpProxyAgent, errors, type Dispatcher } from 'undici';

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

/** Sends one request through the dispatcher and hands its answer to the sink. */
export function send(dispatcher: Dispatcher, url: string, request: Sent, sink: AnswerSink): InFlight {
  let settled = false;
  let controller: Dispatcher.DispatchController | undefined;
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
  const handler: Dispatcher.DispatchHandler = {
    onRequestStart(c) {
      controller = c;
      if (abortReason) c.abort(abortReason); // aborted while it waited for a connection
    },
    onResponseStart(_c, statusCode, headers) {
      // an interim answer (100 Continue, 103): the final one follows
      if (!settled && statusCode >= 200) sink.onHeaders(statusCode, headers);
    },
    onResponseData(c, chunk) {
      if (settled || sink.onData(chunk)) return;
      settle();
      // as request()'s body stream, destroyed before its end, aborts the request
      c.pause();
      queueMicrotask(() => c.abort(new errors.RequestAbortedError()));
    },
    onResponseEnd() {
      settle();
    },
    onResponseError(_c, err) {
      settle(err);
    },
  };
  try {
    const parsed = new URL(url);
    dispatcher.dispatch(
      {
        origin: parsed.origin,
        path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname,
        method: request.method as Dispatcher.HttpMethod,
        headers: request.headers,
        body: request.body,
      },
      handler,
    );
  } catch (err) {
    settle(err); // a URL or request undici refuses before sending: no answer, as from undici
  }
  return {
    done,
    abort: (reason) => {
      if (settled) return;
      abortReason = reason;
      controller?.abort(reason);
      settle(reason);
    },
  };
}
