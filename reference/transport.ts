// The wire under both services: reading a body, writing a JSON answer, the ports.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { seam, type Switches } from './seams.js';
import { escapeNonAscii, toJson, type Headers, type Json } from './wire.js';

export const MAX_BODY_BYTES = 64 * 1024;

export function sendJson(sw: Switches, res: ServerResponse, status: number, body: Json, headers: Headers = {}): void {
  if (body === undefined) return void res.writeHead(status, headers).end(); // 204
  const text = sw.fold(JSON_TEXT, toJson(body));
  const type = sw.first(MEDIA_TYPE, status) ?? 'application/json';
  const encoded = /\bgzip\b/.test(res.req?.headers['accept-encoding'] ?? '') ? sw.first(GZIP, text) : undefined;
  if (encoded) {
    res.writeHead(status, { ...headers, 'content-type': type, 'content-encoding': 'gzip', 'content-length': encoded.length, vary: 'Accept-Encoding' });
    return void res.end(encoded);
  }
  sendText(res, status, headers, type, text);
}

export function sendText(res: ServerResponse, status: number, headers: Headers, type: string, text: string): void {
  res.writeHead(status, { ...headers, 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The whole body, at most MAX_BODY_BYTES of it kept; the rest is drained. */
export function readBody(sw: Switches, req: IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    if (sw.any(BODY_UNREAD, req)) {
      req.resume();
      return req.on('end', () => resolve({ text: '', tooLarge: false }));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge: size > MAX_BODY_BYTES }));
    req.on('error', reject);
  });
}

export function listen(server: Server, port = 0, host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

export function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections(); // keep-alive connections would hold close() open
  });
}

// Seams

const JSON_TEXT = seam<(text: string) => string>('JSON text', { 'escaped-non-ascii': escapeNonAscii });

const MEDIA_TYPE = seam<(status: number) => string | undefined>('the media type of a JSON answer', {
  'wrong-content-type': (status) => (status < 400 ? 'text/plain' : undefined),
  charset: () => 'application/json; charset=utf-8',
});

const GZIP = seam<(text: string) => Buffer>('gzip', { 'gzip-label-uncompressed': (text) => Buffer.from(text), gzip: (text) => gzipSync(text) });

const BODY_UNREAD = seam<(req: IncomingMessage) => boolean>('a body left unread', {
  'chunked-body-ignored': (req) => req.headers['content-length'] === undefined,
});
