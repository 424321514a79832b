// What the client makes of an answer: where a redirect leads (same origin only: the
// key must never travel to another one), and the body as text, decoded from its
// content coding and parsed, a body of megabytes in turns of its own (turns.ts).
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Exchange, HttpRequest } from './exchange.js';
import { inOwnTurn } from '../model/turns.js';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 3;
/** A body this long (bytes, or characters once text: 10 ms or more to decode or to parse) is read in turns of its own (turns.ts). */
const LARGE_BODY = 1_000_000;

/** The request a redirect leads to when it is followed: same origin, at most 3 hops, 301-303 only for GET and HEAD. */
export function redirectTarget(ex: Exchange, hops: number): HttpRequest | undefined {
  const location = ex.headers.location;
  if (!REDIRECTS.has(ex.status) || !location || hops >= MAX_REDIRECTS) return undefined;
  let url: URL;
  try {
    url = new URL(location, ex.request.url);
  } catch {
    return undefined;
  }
  // every request carries the key: it must never travel to another scheme, host or port
  if (url.origin !== new URL(ex.request.url).origin) return undefined;
  // 301-303 turn other methods into GET, which would change what was asked: not followed
  if (ex.status <= 303 && ex.request.method !== 'GET' && ex.request.method !== 'HEAD') return undefined;
  return { ...ex.request, url: url.href }; // 307, 308: the same method and body
}

export class BodyReader {
  /** Bodies of megabytes being read. */
  private toRead = 0;

  constructor(
    private readonly maxBodyBytes: number,
    /** Halves the requests in flight (Pool.cut). */
    private readonly cut: (ex: Exchange) => unknown,
  ) {}

  /**
   * The body as text, and parsed, as each answer comes, a body of megabytes in turns of
   * the event loop of its own (turns.ts): checks and observers that judge many pages at
   * once (the latter after the deadline too) then find them parsed. When such bodies come
   * faster than they are parsed, the requests in flight are halved, as for a rate limit:
   * else dozens waited to be parsed, seconds of work after the deadline.
   */
  async read(ex: Exchange, body: Buffer): Promise<void> {
    const text = () => (ex.truncated ? body.toString('utf8') : decoded(ex, body, this.maxBodyBytes));
    const large = body.length >= LARGE_BODY;
    if (large && this.toRead > 0) this.cut(ex);
    if (large) this.toRead++;
    try {
      ex.text = large ? await inOwnTurn(text) : text();
      if (ex.text.length < LARGE_BODY) ex.parse();
      else await inOwnTurn(() => ex.parse());
    } finally {
      if (large) this.toRead--;
    }
  }
}

const DECODERS: Record<string, (body: Buffer, options: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * A body as text, decoded from the content coding the request accepted (a probe that
 * sends Accept-Encoding: gzip) and the answer names; at most maxBytes of it, so that a
 * small compressed body cannot fill the memory. A body that is not what its
 * Content-Encoding says is kept as it came, and said (Exchange.undecodable).
 */
function decoded(ex: Exchange, body: Buffer, maxBytes: number): string {
  const coding = (ex.headers['content-encoding'] ?? '').trim().toLowerCase();
  const accepted = (ex.request.headers?.['accept-encoding'] ?? '').toLowerCase();
  const decode = DECODERS[coding];
  if (!decode || !accepted.split(',').some((c) => c.split(';')[0].trim() === coding)) return body.toString('utf8');
  try {
    return decode(body, { maxOutputLength: maxBytes }).toString('utf8');
  } catch (err) {
    ex.undecodable = `the body is not ${coding} data, as its Content-Encoding says (${(err as Error).message})`;
    return body.toString('utf8');
  }
}
