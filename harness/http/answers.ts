// Where a redirect leads, and the body as text, decoded and parsed.
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Exchange, HttpRequest } from './exchange.js';
import { inOwnTurn } from '../model/turns.js';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 3;
/** 10 ms or more to decode or parse: read in a turn of its own (turns.ts). */
const LARGE_BODY = 1_000_000;

export function redirectTarget(ex: Exchange, hops: number): HttpRequest | undefined {
  const location = ex.headers.location;
  if (!REDIRECTS.has(ex.status) || !location || hops >= MAX_REDIRECTS) return undefined;
  let url: URL;
  try {
    url = new URL(location, ex.request.url);
  } catch {
    return undefined;
  }
  // every request carries the key: it must never travel to another origin
  if (url.origin !== new URL(ex.request.url).origin) return undefined;
  // 301-303 turn other methods into GET, which would change what was asked: not followed
  if (ex.status <= 303 && ex.request.method !== 'GET' && ex.request.method !== 'HEAD') return undefined;
  return { ...ex.request, url: url.href };
}

export class BodyReader {
  private toRead = 0;

  constructor(
    private readonly maxBodyBytes: number,
    private readonly cut: (ex: Exchange) => unknown,
  ) {}

  /**
   * A body of megabytes is read in a turn of its own, so checks that judge many pages at once find them parsed; when such bodies come
   * faster than they are parsed, the requests in flight are halved, as for a rate limit.
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
 * Decoded only in a coding the request accepted, at most maxBytes of it (a small compressed body could fill the memory); a body that is not
 * what its Content-Encoding says is kept as it came, and said.
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
