// How a call becomes an HTTP request: the one place a request is assembled, with no I/O.
import { stringifyJson } from '../model/json.js';
import type { Service, Target } from '../model/types.js';
import type { HttpRequest } from '../http/exchange.js';

/** valid: Bearer <the configured key>; none: no Authorization header. */
export type Auth = 'valid' | 'none' | { header: string };

export interface CallOptions {
  params?: Record<string, string | number | bigint>;
  /** An array repeats the parameter (limit=2&limit=7). */
  query?: Record<string, string | number | Array<string | number>>;
  auth?: Auth;
  json?: unknown;
  raw?: string;
  /** No Content-Length. */
  chunked?: boolean;
  /** application/json unless given; null sends none. */
  contentType?: string | null;
  /** null leaves a header out (no Accept at all). */
  headers?: Record<string, string | null>;
}

export type { Service } from '../model/types.js';

export const quickstartKey = (target: Target) => target.quickstartApiKey ?? target.apiKey;

/** `path` is relative to the service's base address, its parameters filled in. */
export function buildRequest(target: Target, service: Service, method: string, path: string, options: CallOptions = {}, operation?: string): HttpRequest {
  const base = service === 'store' ? target.baseUrl : target.quickstartBaseUrl!;
  const key = service === 'store' ? target.apiKey : quickstartKey(target);
  const pairs = Object.entries(options.query ?? {}).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((one): [string, string] => [k, String(one)]));
  const query = pairs.length > 0 ? new URLSearchParams(pairs).toString() : '';
  // without Accept-Encoding any content coding is acceptable (RFC 9110 12.5.3)
  const given = { accept: 'application/json', 'accept-encoding': 'identity', ...options.headers };
  const headers = Object.fromEntries(Object.entries(given).filter((e): e is [string, string] => e[1] !== null));
  const auth = options.auth ?? 'valid';
  if (auth === 'valid') headers.authorization = `Bearer ${key}`;
  else if (auth !== 'none') headers.authorization = auth.header;
  let body: string | undefined;
  if (options.raw !== undefined || options.json !== undefined) {
    body = options.raw ?? stringifyJson(options.json);
    if (options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
  }
  const url = base + path + (query ? `?${query}` : '');
  return { service, ...(operation && { operation }), method, url, headers, ...(body !== undefined && { body }), ...(options.chunked && { chunked: true }) };
}

export function fillPath(template: string, operationId: string, params: CallOptions['params'] = {}) {
  return template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${operationId} needs path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
