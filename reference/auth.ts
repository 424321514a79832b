// Authentication: "Authorization: Bearer <API_KEY>"; "A missing or invalid key yields 401
// with an Error body". The quickstart service reads its key the same way.
import type { IncomingMessage } from 'node:http';
import { sameBase64, sameUuid, verifiesAsJwt } from './keys.js';
import { seam, type Switches } from './seams.js';
import { problem, urlOf, type Problem } from './wire.js';

type Kind = 'ok' | 'missing' | 'wrong-key' | 'wrong-scheme' | 'raw-key' | 'bare-bearer' | 'invalid';

/** RFC 9110: the scheme is case-insensitive and is separated from the token by one or more spaces. */
function credential(sw: Switches, header: string | undefined, key: string): Kind {
  if (header === undefined || header === '') return 'missing';
  const m = (sw.at(GRAMMAR)[0] ?? /^(\S+) +(\S+)$/).exec(header);
  const isKey = (token: string) => sw.first(KEY_FORMAT, token, key) ?? token === key;
  if (!m) return isKey(header) ? 'raw-key' : header.toLowerCase() === 'bearer' ? 'bare-bearer' : 'invalid';
  const [, scheme, token] = m;
  if (scheme.toLowerCase() !== 'bearer') return isKey(token) ? 'wrong-scheme' : 'invalid';
  return isKey(token) ? 'ok' : 'wrong-key';
}

type Presented = ReturnType<typeof present>;

function present(sw: Switches, req: IncomingMessage, key: string, operation: string) {
  const header = req.headers.authorization ?? '';
  return {
    kind: credential(sw, header, key),
    req,
    header,
    /** All that follows "Bearer" and whitespace, if the header starts so. */
    afterBearer: /^bearer\s+(.*)$/i.exec(header)?.[1],
    key,
    operation,
    // parsed only for the deviations that read it: every request passes here
    get query() {
      return urlOf(req).searchParams;
    },
  };
}

/** undefined when the request may proceed. */
export function storeAuth(sw: Switches, req: IncomingMessage, key: string, operation: string): Problem | undefined {
  const p = present(sw, req, key, operation);
  if (p.kind === 'ok' && !sw.any(KEY_REFUSED, p)) return undefined;
  if (sw.any(LETS_IN, p)) return undefined;
  const message = p.kind === 'missing' ? 'Missing API key: send Authorization: Bearer <API_KEY>' : 'Invalid API key or Authorization header';
  return sw.first(REFUSAL, p) ?? problem(401, 'unauthorized', message);
}

export function quickstartAuth(sw: Switches, req: IncomingMessage, key: string): Problem | undefined {
  const p = present(sw, req, key, 'sendMessage');
  if (p.kind === 'ok' || sw.any(QS_LETS_IN, p)) return undefined;
  return problem(401, 'unauthorized', 'The key is absent or invalid, or the header is not of the form Bearer <API_KEY>');
}

// Seams

const GRAMMAR = seam<RegExp>('the Authorization grammar', { 'auth-lenient-whitespace': /^(\S+)[ \t]+(.*?)[ \t]*$/ });

const KEY_FORMAT = seam<(token: string, key: string) => boolean>('the key format', {
  'jwt-key': (token) => verifiesAsJwt(token),
  'uuid-key': sameUuid,
  'base64-key': sameBase64,
});

/** A token that merely resembles the key, each a bug of real servers. */
const nearMiss = (accepts: (token: string, key: string) => boolean) => (p: Presented) =>
  p.kind !== 'missing' && p.afterBearer !== undefined && accepts(p.afterBearer, p.key);
const caseInsensitive = nearMiss((token, key) => token.toLowerCase() === key.toLowerCase());
const firstWordOnly = nearMiss((token, key) => token.trim().split(/\s+/)[0] === key);
const sameKind = (kind: Kind) => (p: Presented) => p.kind === kind;
const keyless = sameKind('missing');
/** A server that checks only a key's form looks at its length and its prefix. */
const sameForm = (token: string, key: string) => token.length === key.length && token.slice(0, 8) === key.slice(0, 8);
const bearerStripped = (p: Presented) => p.header.replace(/^(Bearer )+/, '') === p.key;
const gluedBearer = (p: Presented) => p.header.replace(/^Bearer/, '') === p.key;

const KEY_REFUSED = seam<(p: Presented) => boolean>('the valid key refused', { 'scheme-case-sensitive': (p) => !p.header.startsWith('Bearer ') });

const LETS_IN = seam<(p: Presented) => boolean>('the store lets in without the key', {
  'orders-unauthenticated': (p) => p.operation === 'listOrders',
  'no-auth-on-list': (p) => keyless(p) && p.operation === 'listPets',
  'no-auth-with-query': (p) => keyless(p) && p.operation === 'listPets' && (p.req.url ?? '').includes('?'),
  'access-token-query': (p) => keyless(p) && p.query.get('access_token') === p.key,
  'key-elsewhere-accepted': (p) => keyless(p) && (p.req.headers['x-api-key'] === p.key || p.query.get('api_key') === p.key),
  'key-query-param': (p) => keyless(p) && p.query.get('key') === p.key,
  'invalid-key-accepted': sameKind('wrong-key'),
  'key-form-only': (p) => p.kind === 'wrong-key' && sameForm(p.header.split(/ +/)[1] ?? '', p.key),
  'key-prefix-accepted': nearMiss((token, key) => token.startsWith(key)),
  'key-truncation-accepted': nearMiss((token, key) => token !== '' && key.startsWith(token)),
  'key-case-insensitive': caseInsensitive,
  'key-substring-accepted': nearMiss((token, key) => token.includes(key)),
  'key-trimmed-split': firstWordOnly,
  'any-scheme-accepted': sameKind('wrong-scheme'),
  'raw-key-accepted': sameKind('raw-key'),
  'empty-bearer-accepted': sameKind('bare-bearer'),
  'bearer-stripped-repeatedly': bearerStripped,
  'glued-bearer-accepted': gluedBearer,
});

const REFUSAL = seam<(p: Presented) => Problem | undefined>('the refusal of a credential', {
  'auth-403': (p) => (keyless(p) ? undefined : problem(403, 'forbidden', 'The credential is not allowed')),
});

const QS_LETS_IN = seam<(p: Presented) => boolean>('the quickstart service lets in without the key', {
  'qs-no-auth': keyless,
  'qs-invalid-key-accepted': sameKind('wrong-key'),
  'qs-key-case-insensitive': caseInsensitive,
  'qs-key-trimmed-split': firstWordOnly,
  'qs-raw-key-accepted': sameKind('raw-key'),
  'qs-any-scheme-accepted': sameKind('wrong-scheme'),
  'qs-bare-bearer-accepted': sameKind('bare-bearer'),
  'qs-glued-bearer-accepted': gluedBearer,
  'qs-bearer-stripped-repeatedly': bearerStripped,
});
