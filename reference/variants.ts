// Allowed variants: other readings where the description is silent or leaves a choice.
// A server started with any of them is judged compliant, failing no requirement but the
// SHOULDs its VARIANT_SPECS entry names, on the date it gives.
import { BASE64_KEY, JWT_KEY, UUID_KEY } from './keys.js';

export const VARIANTS = {
  'clamp-limit': 'an out-of-range limit is clamped (0 -> 1, 101 -> 100) instead of 400',
  'truncate-limit': 'a fractional limit is truncated (1.5 -> 1) instead of 400',
  'default-limit-on-invalid': 'a limit that is not an integer (abc, 1.5) gives the default page instead of 400',
  'unknown-status-empty': 'an unknown status filter gives 200 [] instead of 400',
  'unknown-status-ignored': 'an unknown status filter is ignored (unfiltered page) instead of 400',
  'default-status': 'an animal created without status is stored as "available"',
  'extra-fields': 'a Pet also carries createdAt and tags: []',
  'rate-limited': 'every 7th animal-store request is refused with 429 and Retry-After: 0',
  'null-status': 'an animal created without status is returned with "status": null',
  charset: 'responses are application/json; charset=utf-8',
  'newest-first': 'the list is ordered newest first',
  'large-ids': 'ids start at 9007199254740993 (beyond 2^53) and are written as exact JSON integers',
  'invalid-id-404': 'a non-integer petId gives 404 instead of 400',
  'message-202': 'a quickstart message is answered 202',
  'message-200': 'a quickstart message is answered 200',
  'quickstart-sent': 'a quickstart message has status "sent" instead of "queued"',
  'quickstart-plus-zero': 'quickstart createdAt is written with +00:00 instead of Z',
  'created-at-basic': "quickstart createdAt is in ISO 8601's basic form, with a decimal comma and an hour-only zero offset (20261123T124326,821+00)",
  'deprecation-headers': 'getPet answers carry Deprecation: true and Sunset: Thu, 05 Dec 2030 00:00:00 GMT',
  'auth-lenient-whitespace': 'Bearer and the key may be separated by spaces or tabs, and those after the key are trimmed (the key itself is compared exactly)',
  'method-404': 'a documented path with a method it does not have (PATCH /pets) gets a 404 Error, not 405',
  'lookup-before-auth': 'getPet of an animal that does not exist answers 404 before the key is looked at',
  'method-501': 'a method the server does not implement (PATCH) gets a 501 Error (RFC 9110 15.6.2), not 405',
  'www-authenticate': '401 answers carry WWW-Authenticate: Bearer',
  'orders-empty-object': 'GET /store/orders answers 200 {}',
  'error-extra-fields': 'the Error body also carries details',
  'problem-free-codes': 'error codes are upper case (UNAUTHORIZED, INVALID_REQUEST)',
  'param-errors-422': 'a bad limit, status or petId (out of range, not an integer, unknown) gets 422 with an Error body, as FastAPI answers',
  'limit-zero-max': 'a limit below the minimum (0, negative) is read as "no limit" and answered with a page of the maximum',
  'orders-absent': 'GET /store/orders does not exist: 404 from the router, before any key is looked at',
  'getpet-removed': "getPet has been removed: its route answers a framework's HTML 404 (certified after the removal date)",
  'validate-before-auth': 'POST /pets validates the body before the credential: an invalid body without a key gets 400',
  'created-at-no-zone': 'quickstart createdAt is UTC written without a zone designator (2026-11-23T09:00:00.000)',
  'lagging-list': 'the list and its status filter show an animal 1.5 s after it was created (a search index behind the store); getPet reads the store at once',
  'trailing-slash-redirect': 'the collection lives at /v1/pets/: GET and POST /v1/pets answer 307 to it (query kept, text/plain body) before authentication',
  'name-limit-255': 'a name over 255 characters is refused with a 400 Error',
  'id-rejected': 'a NewPet carrying an id is refused with a 400 Error (the id is assigned by the service)',
  'known-categories-only': 'a categoryId outside 1 to 1,000 is refused with a 400 Error (the server knows only those categories)',
  'escaped-non-ascii': 'responses write every character outside ASCII as a \\u escape (the same text once parsed)',
  'orders-501': 'GET /store/orders answers 501 Not Implemented to every caller, before any key is looked at',
  'orders-403': 'GET /store/orders answers 403 to every caller (no key has access to orders)',
  'orders-400-before-auth': 'GET /store/orders requires a storeId parameter nobody documented, checked before the key: 400 to every caller without it',
  'access-token-query': 'the key is also taken from the access_token query parameter (RFC 6750 2.3)',
  'jwt-key': 'the key is an HS256 JWT, verified as a JWT library does: the signature as decoded (the unused bits of its last character dropped)',
  'uuid-key': 'the key is a UUID, compared as a UUID (any case, hyphens optional)',
  'lagging-reads': 'getPet and the list read from a replica: an animal shows 1.5 s after it was created',
  gzip: 'answers are gzip-compressed when the client accepts gzip (Content-Encoding: gzip, Vary: Accept-Encoding)',
  'base64-key': 'the key is 16 random bytes in padded base64, compared as the bytes a lenient decoder reads',
  'status-default-on-read': 'an animal created without status is stored as "available", but the 201 echoes the request (no status): reads show the default',
  'signed-photo-url': 'a Pet also carries a photoUrl with a signature that differs on every read',
  'options-framework-default': 'OPTIONS on any path is answered by the framework before any middleware: 200 with Allow and the methods as text (Express)',
  'repeated-params-joined': 'a repeated query parameter is read as one value, its values joined with commas (Spring, ASP.NET): limit=2&limit=7 is "2,7"',
  'head-as-get': 'HEAD on a GET route is answered as GET without the body, behind the same key check (401 without a key)',
  'cors-preflight': 'OPTIONS on any path answers 204 with Access-Control-Allow-* headers and no body, before the key (a preflight carries no credential)',
  'canonical-redirect': 'a documented path spelled otherwise (trailing or doubled slash, other case) answers 308 to it (query kept) before the key is read',
  'case-insensitive-routes': 'paths match in any letter case (/v1/PETS is /v1/pets), behind the key check of the documented path',
  'matrix-params-stripped': 'a path parameter after ; is dropped before routing, as servlet containers do (/v1/pets;x=1 is /v1/pets, key check and all)',
  'update-delete-implemented':
    'PUT, PATCH and DELETE /pets/{petId} exist behind the key: DELETE removes the animal (204), PUT replaces it with a NewPet and PATCH applies the fields of a JSON object (200 with the Pet); 404 for an unknown id, 400 for a missing or invalid body',
  'load-shedding': 'one animal-store request in 20, whatever its method, is answered 503 with Retry-After: 0 (a server shedding load)',
  'quickstart-at-store-root': "the quickstart service is served at the store's origin root (POST /messages beside /v1)",
  'quickstart-sibling-path': "the quickstart service is served under the sibling path /v1-quickstart on the store's port, its own errors as plain text",
  'long-names': 'the store holds 120 animals with 12,000-character names from the start: a page of 100 is 1.2 MB',
  'names-trimmed': 'names are stored trimmed of leading and trailing whitespace',
  'nfc-normalised': 'names are stored normalised to NFC (e + U+0301 as é)',
  'nfd-normalised': 'names are stored normalised to NFD (é as e + U+0301)',
  'messages-usage-get': 'GET /messages, with a key or without, answers 200 with a usage text (text/plain) and no message',
  'head-empty-200': 'HEAD on any path, with a key or without, answers 200 with Content-Length: 0 and no media type (a gateway answers it itself)',
  moderation: 'an animal created pending is made available by a moderation job 1 s later ("Transitions: not shown")',
  'busy-store': 'another client imports 12 animals just as the run asks for its fourth list page: pages asked before hold fewer than those after',
} as const;

interface VariantSpec {
  /** The key of a variant about the key's format. */
  apiKey?: string;
  /** SHOULD requirements the variant fails. */
  shouldFail?: readonly string[];
  /** The date the run takes as today: the variant is allowed from then on. */
  now?: string;
}

export const VARIANT_SPECS: Partial<Record<keyof typeof VARIANTS, VariantSpec>> = {
  'orders-absent': { shouldFail: ['ORDERS-EXISTS'] },
  'getpet-removed': { now: '2031-01-01T00:00:00Z' },
  'validate-before-auth': { shouldFail: ['AUTH-BEFORE-VALIDATION'] },
  'lookup-before-auth': { shouldFail: ['AUTH-BEFORE-LOOKUP'] },
  'name-limit-255': { shouldFail: ['CREATE-VALID-ACCEPTED'] },
  'created-at-no-zone': { shouldFail: ['QS-CREATED-AT-ZONE'] },
  'orders-501': { shouldFail: ['ORDERS-EXISTS'] },
  'access-token-query': { shouldFail: ['AUTH-NO-QUERY-TOKEN'] },
  'jwt-key': { apiKey: JWT_KEY },
  'uuid-key': { apiKey: UUID_KEY },
  'base64-key': { apiKey: BASE64_KEY },
  'names-trimmed': { shouldFail: ['CREATE-STORED-AS-SENT'] },
  'head-empty-200': { shouldFail: ['AUTH-HEAD-REFUSED'] },
  'nfc-normalised': { shouldFail: ['CREATE-STORED-AS-SENT'] },
  'nfd-normalised': { shouldFail: ['CREATE-STORED-AS-SENT'] },
};

export type VariantName = keyof typeof VARIANTS;

export const VARIANT_NAMES = Object.keys(VARIANTS) as VariantName[];
