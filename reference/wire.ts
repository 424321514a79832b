import type { IncomingMessage } from 'node:http';
import { parse as parseLossless, parseNumberAndBigInt } from 'lossless-json';

export type Json = unknown;
export type Fields = Record<string, Json>;
export type Headers = Record<string, string>;

export const INTEGER = /^-?\d+$/;
export const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
export const clampInt64 = (n: bigint) => (n < INT64_MIN ? INT64_MIN : n > INT64_MAX ? INT64_MAX : n);

export interface Problem {
  status: number;
  code: string;
  message: string;
  /** A web framework's HTML error page (the API code never ran). */
  frameworkPage?: boolean;
  /** A web framework's plain-text error. */
  plainText?: boolean;
  headers?: Headers;
}

export const problem = (status: number, code: string, message: string, headers?: Headers): Problem => ({ status, code, message, headers });

export type Answer = [status: number, body: Json] | Problem;

export const isProblem = (value: unknown): value is Problem =>
  typeof value === 'object' && value !== null && 'code' in value && 'status' in value && 'message' in value;

export const urlOf = (req: IncomingMessage) => new URL(req.url ?? '/', 'http://localhost');

export const mediaType = (req: IncomingMessage) => (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();

export const isObject = (value: Json): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);

/** JSON.parse decides what is valid JSON; lossless-json reads it again so that integers beyond 2^53 keep every digit, as bigints. */
export function parseJson(text: string): Json {
  const standard = JSON.parse(text);
  try {
    return parseLossless(text, null, parseNumberAndBigInt);
  } catch {
    return standard; // lossless-json refuses duplicate keys, which JSON allows
  }
}

/** Ajv knows no bigint: validate a copy in which they are numbers. */
export function forValidation(value: Json): Json {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(forValidation);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, forValidation(v)]));
  return value;
}

export function toJson(value: Json): string {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (isObject(value)) {
    // a loop, not entries/filter/map: every answer of the server is written here
    let text = '';
    for (const key of Object.keys(value)) {
      if (value[key] === undefined) continue;
      text += `${text ? ',' : ''}${JSON.stringify(key)}:${toJson(value[key])}`;
    }
    return `{${text}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const escapeNonAscii = (text: string) => text.replace(/[\u0080-\uFFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
