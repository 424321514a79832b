// Keys in the formats servers use, compared as such servers do: the key-format variants
// prove the suite's invalid keys invalid however a server reads them.
import { createHmac, timingSafeEqual } from 'node:crypto';

const JWT_SECRET = 'reference-server-hs256-secret';
const b64url = (text: string) => Buffer.from(text).toString('base64url');
const sign = (unsigned: string) => createHmac('sha256', JWT_SECRET).update(unsigned).digest();

const JWT_UNSIGNED = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify({ sub: 'conformance', scope: 'animals' }))}`;
export const JWT_KEY = `${JWT_UNSIGNED}.${sign(JWT_UNSIGNED).toString('base64url')}`;

export const BASE64_KEY = 'q83vASNFZ4mrze8BI0VniQ==';

/** Compares the bytes a lenient base64 decoder (Node's) reads. */
export const sameBase64 = (token: string, key: string) => Buffer.from(token, 'base64').equals(Buffer.from(key, 'base64'));

export const UUID_KEY = '3f2b8c1e-9a4d-4e7b-b5c6-0d1e2f3a4b5c';

/** As a JWT library verifies: a header naming HS256, and the signature as decoded (the last character's unused bits dropped). */
export function verifiesAsJwt(token: string): boolean {
  const parts = token.split('.');
  if (parts.length !== 3) return false;
  const [header, payload, signature] = parts;
  try {
    if (JSON.parse(Buffer.from(header, 'base64url').toString('utf8')).alg !== 'HS256') return false;
  } catch {
    return false;
  }
  const expected = sign(`${header}.${payload}`);
  const given = Buffer.from(signature, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Compares as Python's uuid.UUID does. */
export function sameUuid(token: string, key: string): boolean {
  const value = (s: string) => {
    const hex = s
      .replace(/^urn:uuid:/i, '')
      .replace(/^\{(.*)\}$/, '$1')
      .replace(/-/g, '');
    return /^[0-9a-f]{32}$/i.test(hex) ? hex.toLowerCase() : undefined;
  };
  const a = value(token);
  return a !== undefined && a === value(key);
}
