// undici's dispatch() with a handler of our own: request() costs a stream, an iterator and an async resource per request, and an
// AbortSignal its controller and listeners.
import type { Readable } from 'node:stream';
import { Agent, EnvHttpProxyAgent, errors, type Dispatcher } from 'undici';

export { Agent, EnvHttpProxyAgent };

interface AnswerSink {
  /** Names lower-cased, repeated ones in an array. */
  onHeaders(status: number, headers: Record<string, string | string[] | undefined>): void;
  /** false: no more is wanted (the request is aborted, and done resolves). */
  onData(chunk: Buffer): boolean;
}

interface Sent {
  method: string;
  headers?: Record<string, string>;
  body?: string | Readable;
}

export interface InFlight {
  /** Rejects with undici's error when no answer could be had. */
  done: Promise<void>;
  /** Whatever phase undici is in: a proxy that never answers CONNECT was seen to hang past undici's own timeouts. */
  abort(reason: Error): void;
}

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
    settle(err); // refused before sending
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
