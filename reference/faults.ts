// Deliberate violations the reference server can be started with. Each breaks one
// documented behaviour through entries at the seams (seams.ts) of the steps it changes;
// `expect` names exactly the requirements that fail in the certify profile against a
// server that starts empty (the run then creates 101 animals). A fault fails wherever the
// run looks: a 500 also fails STORE-NO-5XX, a value stored otherwise CREATE-VIEWS-AGREE,
// a getPet that misses an animal CREATE-ROUND-TRIP (it fetches each).
// Faults that accept an invalid body store it normalised to a valid Pet (1.5 -> 1, ...):
// else it could land in a list page and fail the list checks too, depending on timing.
import type { VariantName } from './variants.js';

interface FaultSpec {
  breaks: string;
  expect: readonly string[];
  /** Animals the store must hold from the start (the run's own may arrive after the probe). */
  prefill?: number;
  /** The --max-latency-ms the fault needs to show. */
  maxLatencyMs?: number;
  /** The --seed whose generated animals show it. */
  seed?: number;
  /** Allowed variants it needs to show. */
  variants?: readonly VariantName[];
  /** Requirements that fail in some runs only (timing): kept to a minimum. */
  mayAlso?: readonly string[];
  /** Requirements the run cannot judge against it (outcome error). */
  errors?: readonly string[];
}

/** The list checks that validate every page they read. */
const INVALID_PAGE = [
  'LIST-OK',
  'LIST-LIMIT-DEFAULT',
  'LIST-LIMIT-MIN',
  'LIST-LIMIT-MAX',
  'LIST-LIMIT-ANY',
  'LIST-STATUS-FILTER',
  'LIST-STATUS-COMPLETE',
  'LIST-UNFILTERED-COMPLETE',
] as const;
const LIMITS = ['LIST-LIMIT-DEFAULT', 'LIST-LIMIT-MIN', 'LIST-LIMIT-MAX', 'LIST-LIMIT-ANY'] as const;

export const FAULTS = {
  // authentication
  'no-auth-on-list': { breaks: 'GET /pets answers without a key', expect: ['AUTH-MISSING-HEADER'] },
  'key-elsewhere-accepted': { breaks: 'the key is also taken from the query (api_key) or an X-API-Key header', expect: ['AUTH-NO-BYPASS'] },
  'trailing-slash-unauthenticated': { breaks: 'GET /pets/ serves the list without a key (a route added beside /pets)', expect: ['AUTH-NO-BYPASS'] },
  // a key sent in the query (api_key, access_token) is a query too
  'no-auth-with-query': {
    breaks: 'GET /pets with a status filter or a limit answers without a key (another code path)',
    expect: ['AUTH-MISSING-HEADER', 'AUTH-NO-BYPASS', 'AUTH-NO-QUERY-TOKEN'],
  },
  'key-query-param': { breaks: 'the key is also taken from the query parameter key (?key=)', expect: ['AUTH-NO-BYPASS'] },
  'slash-post-unauthenticated': {
    breaks: 'POST /pets/ (a trailing slash) creates the animal without looking at any credential (a route added beside /pets)',
    expect: ['AUTH-NO-BYPASS'],
  },
  'refused-write-stored': {
    breaks: 'a createPet refused with 401 (no key, a wrong key) stores the animal all the same (the write runs before the answer)',
    expect: ['CREATE-WRITES-ACCOUNTED'],
  },
  'invalid-write-stored': { breaks: 'a createPet refused with 400 (an invalid value) stores the animal all the same', expect: ['CREATE-WRITES-ACCOUNTED'] },
  'orders-unauthenticated': {
    breaks: 'GET /store/orders answers whatever the credential',
    expect: ['AUTH-MISSING-HEADER', 'AUTH-INVALID-KEY', 'AUTH-WRONG-SCHEME', 'AUTH-NO-SCHEME'],
  },
  'invalid-key-accepted': { breaks: 'any bearer token is accepted as a key', expect: ['AUTH-INVALID-KEY'] },
  'key-form-only': { breaks: "a bearer token of the key's length and prefix is accepted (the form is checked, not the key)", expect: ['AUTH-INVALID-KEY'] },
  'key-prefix-accepted': { breaks: 'a bearer token that starts with the key is accepted (startsWith)', expect: ['AUTH-INVALID-KEY'] },
  'key-truncation-accepted': { breaks: "a bearer token that is the key cut short is accepted (strncmp over the token's length)", expect: ['AUTH-INVALID-KEY'] },
  'key-case-insensitive': { breaks: 'the key is compared ignoring case', expect: ['AUTH-INVALID-KEY'] },
  'key-substring-accepted': { breaks: 'a bearer token containing the key is accepted (includes, an unanchored pattern)', expect: ['AUTH-INVALID-KEY'] },
  'key-trimmed-split': { breaks: 'only the first word of the bearer token is compared (Bearer <key> <more> passes)', expect: ['AUTH-INVALID-KEY'] },
  'any-scheme-accepted': { breaks: 'the key is accepted under any scheme (Basic, Token)', expect: ['AUTH-WRONG-SCHEME'] },
  'raw-key-accepted': { breaks: 'the raw key, with no scheme, is accepted', expect: ['AUTH-NO-SCHEME'] },
  // stripping no prefix leaves the raw key, which passes too
  'bearer-stripped-repeatedly': {
    breaks: 'every "Bearer " prefix is stripped, so Bearer Bearer <key> is accepted',
    expect: ['AUTH-INVALID-KEY', 'AUTH-NO-SCHEME'],
  },
  'glued-bearer-accepted': { breaks: 'the key glued to Bearer (BearerKEY) is accepted: the prefix is stripped without its space', expect: ['AUTH-NO-SCHEME'] },
  'mixed-case-route-unauthenticated': {
    breaks:
      '/v1/pets in another letter case (/v1/Pets, /v1/PETS) reaches the collection without a key: the key check is mounted on the exact path, the router matches any case',
    expect: ['AUTH-NO-BYPASS'],
  },
  'head-unauthenticated': {
    breaks: 'HEAD on a GET route (/pets, /pets/{petId}, /store/orders) is answered as GET without a key: the key check looks at GET and POST only',
    expect: ['AUTH-EVERY-METHOD'],
  },
  'options-unauthenticated': { breaks: 'OPTIONS /pets falls through to the list handler without a key: 200 with the page', expect: ['AUTH-EVERY-METHOD'] },
  'delete-unauthenticated': {
    breaks: 'DELETE /pets/{petId} exists and deletes without looking at any credential: 204 for any integer id (the row count is not read)',
    expect: ['AUTH-EVERY-METHOD'],
  },
  'empty-bearer-accepted': { breaks: '"Bearer" with no token (the scheme alone) is accepted', expect: ['AUTH-INVALID-KEY'] },
  'scheme-case-sensitive': {
    breaks: 'only the exact prefix "Bearer " is accepted: bearer <key> gets 401 (RFC 9110: the scheme is case-insensitive)',
    expect: ['AUTH-SCHEME-CASE'],
  },
  'auth-403': { breaks: 'a credential that is present but wrong gets 403 instead of 401', expect: ['AUTH-INVALID-KEY', 'AUTH-WRONG-SCHEME', 'AUTH-NO-SCHEME'] },
  // errors and media
  'plain-text-errors': { breaks: 'error bodies are plain text (text/plain)', expect: ['ERR-BODY-SHAPE', 'MEDIA-JSON'] },
  'error-without-code': { breaks: 'the Error body has no code', expect: ['ERR-BODY-SHAPE'] },
  'error-status-as-string': { breaks: 'the Error status field is a string ("401")', expect: ['ERR-BODY-SHAPE'] },
  'error-status-mismatch': { breaks: 'the Error status field is always 400, whatever the HTTP status', expect: ['ERR-STATUS-MATCHES'] },
  'framework-404-html': { breaks: "an unknown path gets the web framework's HTML 404 page, not an Error body", expect: ['ERR-BODY-SHAPE', 'MEDIA-JSON'] },
  'method-not-allowed-plain': {
    breaks: "a documented path with a method it does not have gets the web framework's text/plain 405, not an Error body",
    expect: ['ERR-BODY-SHAPE', 'MEDIA-JSON'],
  },
  'wrong-content-type': { breaks: 'successful responses are served as text/plain', expect: ['MEDIA-JSON'] },
  'content-type-exact': {
    breaks: 'POST /pets refuses with 400 a Content-Type that is not exactly application/json (application/json; charset=utf-8, Application/JSON)',
    expect: ['HTTP-VALID-SPELLINGS'],
  },
  'accept-exact': { breaks: 'an Accept other than exactly application/json (*/*, none) gets 406 once the key has passed', expect: ['HTTP-VALID-SPELLINGS'] },
  'defaults-disagree': {
    breaks:
      'an animal stored without a status shows as "available" in the list and its filter (a COALESCE in their queries) but as "pending" in getPet (its serialiser fills in another default)',
    expect: ['CREATE-VIEWS-AGREE'],
  },
  'gzip-label-uncompressed': {
    breaks: 'when the client accepts gzip, every answer is labelled Content-Encoding: gzip, but the body is sent uncompressed',
    expect: ['HTTP-VALID-SPELLINGS'],
  },
  'get-body-parsed': {
    breaks: 'a JSON body parser runs for every method: a GET with Content-Type: application/json and no body gets 400',
    expect: ['HTTP-VALID-SPELLINGS'],
  },
  'accept-list-unparsed': {
    breaks: 'an Accept list is split on commas without trimming, so text/plain, application/json gets 406 (*/* and none are served)',
    expect: ['HTTP-VALID-SPELLINGS'],
  },
  'chunked-body-ignored': {
    breaks: 'a request body sent chunked (no Content-Length) is read as empty: a valid NewPet or message sent so gets 400',
    expect: ['HTTP-VALID-SPELLINGS', 'QS-VALID-SPELLINGS'],
  },
  'zero-category-refused': {
    breaks: 'categoryId 0 is refused as missing (a truth test), while other categoryIds the run does not configure are taken',
    expect: ['CREATE-VALID-ACCEPTED'],
  },
  'trailing-slash-envelope': {
    breaks: 'GET /pets/ with the key is a legacy route that answers 200 with the page wrapped as {"data": [...]}',
    expect: ['HTTP-PATH-SPELLINGS'],
  },
  // list
  'list-envelope': { breaks: 'the list is wrapped in an envelope {items: [...]}', expect: [...INVALID_PAGE, 'LIST-PAGE-FULL'] },
  'limit-ignored': { breaks: 'limit is ignored: every animal is returned', expect: LIMITS },
  'limit-off-by-one': { breaks: 'a page holds limit+1 animals', expect: LIMITS },
  'page-short': { breaks: 'a page holds limit-1 animals though more exist', expect: ['LIST-PAGE-FULL', 'LIST-LIMIT-ANY', 'LIST-STATUS-COMPLETE'] },
  'wrong-default': { breaks: 'the default page size is 30 instead of 20', expect: ['LIST-LIMIT-DEFAULT'] },
  'default-page-10': { breaks: 'the default page size is 10 instead of 20', expect: ['LIST-PAGE-FULL', 'LIST-STATUS-COMPLETE'] },
  'max-page-50': { breaks: 'a page holds at most 50 animals, whatever the limit (the cap is 50, not 100)', expect: ['LIST-PAGE-FULL', 'LIST-STATUS-COMPLETE'] },
  'unfiltered-hides-last-status': {
    breaks: 'without the status filter, animals of the last status (sold) are left out',
    expect: ['LIST-PAGE-FULL', 'LIST-UNFILTERED-COMPLETE'],
  },
  'first-status-filter-empty': { breaks: 'the filter on the first status (available) always answers []', expect: ['LIST-STATUS-COMPLETE'] },
  'default-limit-unfiltered-only': { breaks: 'with the status filter and no limit, every matching animal is returned', expect: ['LIST-LIMIT-DEFAULT'] },
  'no-maximum': { breaks: 'limit above the maximum is honoured (limit=101 returns 101 animals)', expect: ['LIST-LIMIT-ABOVE-MAX'], prefill: 101 },
  'limit-above-max-500': { breaks: 'limit above the maximum gives 500', expect: ['STORE-NO-5XX'] },
  'limit-zero-500': { breaks: 'limit=0 gives 500', expect: ['STORE-NO-5XX'] },
  'limit-zero-unbounded': { breaks: 'limit=0 is read as "no limit": every animal, more than the maximum', expect: ['LIST-LIMIT-BELOW-MIN'] },
  'param-errors-html': { breaks: "a bad query or path value gets the framework's HTML 400 page, not an Error body", expect: ['ERR-BODY-SHAPE', 'MEDIA-JSON'] },
  'limit-not-integer-500': { breaks: 'a limit that is not an integer (abc, 1.5) gives 500', expect: ['STORE-NO-5XX'] },
  'limit-exponent-unclamped': {
    breaks: 'a limit in exponent form (1e3) is read as a number, and the maximum is not applied to it: every animal',
    expect: ['LIST-LIMIT-NOT-INTEGER'],
  },
  'limit-negative-500': { breaks: 'a negative limit gives 500', expect: ['STORE-NO-5XX'] },
  'limit-beyond-int64-500': { breaks: 'a limit no int64 can hold (2^63) gives 500 (parsed into a long)', expect: ['STORE-NO-5XX'] },
  'filtered-no-maximum': {
    breaks: 'with the status filter, a limit above the maximum is honoured (the bound is enforced on the unfiltered query only)',
    expect: ['LIST-LIMIT-ABOVE-MAX'],
    prefill: 303,
  },
  'filtered-min-ignored': { breaks: 'with the status filter, limit=1 gives the default page', expect: ['LIST-LIMIT-MIN'] },
  // mayAlso: the early unfiltered page lacks its last animal too, asked before the store holds a full page
  'list-duplicates': {
    breaks: 'a page lists its first animal twice (in place of the last)',
    expect: ['LIST-IDS-UNIQUE', 'LIST-STATUS-COMPLETE'],
    mayAlso: ['LIST-UNFILTERED-COMPLETE'],
  },
  'limit-rounded-up': { breaks: 'a limit from 2 to 99 not a multiple of 10 is rounded up to the next one (2 -> 10, 99 -> 100)', expect: ['LIST-LIMIT-ANY'] },
  'unfiltered-inner-join': {
    breaks: 'the unfiltered list leaves out animals stored without a status (an inner join on a status table); filtered lists and getPet are right',
    expect: ['LIST-UNFILTERED-COMPLETE', 'LIST-PAGE-FULL'],
  },
  'list-default-status': {
    breaks: 'list pages show status "available" for an animal stored without one (the 201 body and getPet show none; the filter reads the stored value)',
    expect: ['LIST-STATUS-COMPLETE'],
  },
  'status-filter-ignored': { breaks: 'the status filter is ignored', expect: ['LIST-STATUS-FILTER'] },
  'status-filter-mixed': { breaks: 'a filtered page also holds an animal of another status', expect: ['LIST-STATUS-FILTER'] },
  'status-filter-incomplete': { breaks: 'a filtered page lacks the most recent matching animal', expect: ['LIST-STATUS-COMPLETE'] },
  'unknown-status-500': { breaks: 'an unknown status value gives 500', expect: ['STORE-NO-5XX'] },
  'unknown-status-401': { breaks: 'an unknown status value gets 401, as if the key were wrong', expect: ['LIST-STATUS-UNKNOWN'] },
  // create
  'created-200': { breaks: 'POST /pets answers 200 instead of 201', expect: ['CREATE-OK'] },
  // GET-OK and LIST-PAGE-FULL find no integer id: inconclusive
  'string-ids': { breaks: 'ids are JSON strings', expect: ['CREATE-OK', ...INVALID_PAGE] },
  'ids-beyond-int64': {
    breaks: 'ids start at 2^64 (18446744073709551616), outside the int64 range',
    expect: ['CREATE-OK', 'GET-OK', ...INVALID_PAGE, 'LIST-PAGE-FULL'],
  },
  'duplicate-ids': { breaks: 'every animal gets the same id', expect: ['CREATE-ID-UNIQUE', 'GET-OK', 'CREATE-ROUND-TRIP', 'LIST-IDS-UNIQUE'] },
  'name-uppercased': { breaks: 'name is stored and returned upper-cased', expect: ['CREATE-ECHO', 'GET-OK', 'CREATE-ROUND-TRIP', 'CREATE-VIEWS-AGREE'] },
  'status-dropped': { breaks: 'a supplied status is not stored', expect: ['CREATE-ECHO', 'GET-OK', 'CREATE-VIEWS-AGREE'] },
  'status-changed': { breaks: 'a supplied status is stored as the next status of the enumeration', expect: ['CREATE-ECHO'] },
  'not-persisted': {
    breaks: 'created animals are not stored (getPet 404, not listed)',
    expect: ['GET-OK', 'LIST-PAGE-FULL', 'LIST-STATUS-COMPLETE', 'CREATE-ROUND-TRIP', 'LIST-UNFILTERED-COMPLETE'],
  },
  'invalid-body-422': {
    breaks: 'a body that fails validation gets 422 instead of 400',
    expect: ['CREATE-MISSING-REQUIRED', 'CREATE-WRONG-TYPE', 'CREATE-STATUS-ENUM', 'CREATE-NON-INTEGER', 'CREATE-NOT-OBJECT', 'CREATE-OUT-OF-RANGE'],
  },
  'coerce-numeric-strings': { breaks: 'a numeric string categoryId ("7") is coerced and accepted', expect: ['CREATE-NON-INTEGER'] },
  'accept-fractional-integer': { breaks: 'a fractional categoryId (1.5) is truncated and accepted', expect: ['CREATE-NON-INTEGER'] },
  'accept-wrong-type-name': { breaks: 'a name that is not a string is accepted (stored as its JSON text)', expect: ['CREATE-WRONG-TYPE'] },
  'accept-unknown-status': { breaks: 'a status string outside the enumeration is accepted (and dropped)', expect: ['CREATE-STATUS-ENUM'] },
  'accept-missing-name': { breaks: 'a body without name is accepted (name "")', expect: ['CREATE-MISSING-REQUIRED'] },
  'accept-missing-category': { breaks: 'a body without categoryId is accepted (categoryId 0)', expect: ['CREATE-MISSING-REQUIRED'] },
  'accept-array-body': { breaks: 'an array holding one NewPet is accepted as that NewPet', expect: ['CREATE-NOT-OBJECT'] },
  'empty-body-500': { breaks: 'an empty body gives 500', expect: ['STORE-NO-5XX'] },
  'empty-body-defaults': { breaks: 'an empty body is taken for an animal of default values (201, name "", categoryId 0)', expect: ['CREATE-EMPTY-BODY'] },
  'malformed-json-500': { breaks: 'malformed JSON gives 500', expect: ['STORE-NO-5XX'] },
  'malformed-json-closed': { breaks: 'malformed JSON is read by a lenient parser that closes what is left open (201)', expect: ['CREATE-MALFORMED-JSON'] },
  // valid values (edge values, generated examples, an id sent)
  'non-ascii-replaced': { breaks: 'characters outside ASCII in a name are stored as ?', expect: ['CREATE-ROUND-TRIP', 'CREATE-VIEWS-AGREE'] },
  'name-truncated-255': { breaks: 'names are silently shortened to 255 characters', expect: ['CREATE-ROUND-TRIP', 'CREATE-VIEWS-AGREE'] },
  'item-method-html': { breaks: "a method /pets/{petId} does not have (PATCH) gets the framework's HTML 405 page", expect: ['ERR-BODY-SHAPE', 'MEDIA-JSON'] },
  'filtered-page-50': { breaks: 'a page with a status filter holds at most 50 animals (a search index with its own cap)', expect: ['LIST-STATUS-COMPLETE'] },
  'int64-range-unchecked': { breaks: 'a categoryId outside int64 (2^63) is accepted (and clamped)', expect: ['CREATE-OUT-OF-RANGE'] },
  'int64-via-double': {
    breaks: 'categoryId passes through a double: 2^53 + 1 comes back as 2^53',
    expect: ['CREATE-ROUND-TRIP', 'CREATE-VIEWS-AGREE', 'CREATE-OK'],
  },
  'names-html-escaped': { breaks: 'names are HTML-escaped on input (< stored as &#60;)', expect: ['CREATE-ROUND-TRIP', 'CREATE-VIEWS-AGREE'] },
  // the run's edge-valued animals are on the list only newest first
  'list-names-ascii': {
    breaks: 'the list writes characters outside ASCII in names as ? (the 201 body and getPet are right)',
    expect: ['CREATE-ROUND-TRIP', 'CREATE-VIEWS-AGREE'],
    variants: ['newest-first'],
  },
  'emoji-refused-422': { breaks: 'a name with astral-plane characters (emoji) is refused with 422', expect: ['CREATE-ROUND-TRIP'] },
  'long-name-500': { breaks: 'a name over 1,000 characters gives 500', expect: ['STORE-NO-5XX'] },
  'private-use-stripped': {
    breaks:
      'private-use and unassigned code points are stripped from names (the edge value of every plane has them, and so do the generated examples of seed 7)',
    expect: ['CREATE-ROUND-TRIP', 'CREATE-VIEWS-AGREE'],
    seed: 7,
  },
  // NFKC composes decomposed marks as NFC does: only a SHOULD
  'nfkc-normalised': {
    breaks: 'names are normalised to NFKC (the ligature U+FB01 stored as "fi", fullwidth letters as ASCII)',
    expect: ['CREATE-ROUND-TRIP', 'CREATE-VIEWS-AGREE', 'CREATE-STORED-AS-SENT'],
  },
  'names-cut-at-nul': { breaks: 'names are stored cut at their first U+0000 (a C string)', expect: ['CREATE-ROUND-TRIP', 'CREATE-VIEWS-AGREE'] },
  'digit-runs-refused': {
    breaks: 'a home-made JSON reader refuses as invalid JSON any body holding a run of 16 digits (a name, a message, an int64)',
    expect: ['CREATE-VALID-ACCEPTED', 'QS-OK'],
  },
  'flaky-503': { breaks: 'one animal-store request in 40, whatever it is, is answered 503 without Retry-After', expect: ['STORE-NO-5XX'] },
  'c1-controls-stripped': { breaks: 'U+007F and the C1 controls U+0080-U+009F are stripped from names', expect: ['CREATE-ROUND-TRIP', 'CREATE-VIEWS-AGREE'] },
  'duplicate-body-deduplicated': {
    breaks: "a NewPet whose name, categoryId and status equal a stored animal's gets that animal (201, its id) instead of a new one",
    expect: ['CREATE-ID-UNIQUE'],
  },
  'id-honoured': { breaks: "an id sent in the body becomes the animal's id", expect: ['CREATE-ID-ASSIGNED'] },
  'id-honoured-double': { breaks: "an id sent in the body, read as a double, becomes the animal's id (rounded)", expect: ['CREATE-ID-ASSIGNED'] },
  // get
  'get-wrong-animal': { breaks: 'getPet answers with the animal whose id is one higher', expect: ['GET-OK', 'CREATE-ROUND-TRIP', 'GET-EDGE-IDS'] },
  'get-gone-410': { breaks: 'getPet is already removed: 410 for every well-formed id', expect: ['GET-OK', 'GET-NOT-FOUND', 'CREATE-ROUND-TRIP'] },
  'get-always-404': { breaks: 'getPet is already removed: 404 for every well-formed id', expect: ['GET-OK', 'CREATE-ROUND-TRIP'] },
  'get-invalid-id-500': { breaks: 'a non-integer petId gives 500', expect: ['STORE-NO-5XX'] },
  'get-negative-id-500': { breaks: 'a negative petId gives 500', expect: ['STORE-NO-5XX'] },
  'get-beyond-int64-500': { breaks: 'a petId no int64 can hold gives 500', expect: ['STORE-NO-5XX'] },
  'get-invalid-id-200': { breaks: 'a non-integer petId gives 200 (with null)', expect: ['GET-INVALID-ID', 'HTTP-PATH-SPELLINGS', 'GET-OK'] },
  'get-id-parseint': { breaks: 'petId is read with parseInt: 7abc and 7.5 fetch animal 7', expect: ['GET-INVALID-ID'] },
  'id-underscore-parsed': { breaks: "petId is read as Python's int() reads it: 1_0 fetches animal 10", expect: ['GET-INVALID-ID'] },
  'get-nonexistent-200': { breaks: 'an unknown id gives 200 with the most recent animal', expect: ['GET-NOT-FOUND', 'GET-EDGE-IDS', 'GET-INVALID-ID'] },
  // orders
  'orders-missing': { breaks: 'GET /store/orders does not exist (404)', expect: ['ORDERS-EXISTS'] },
  // performance
  'slow-responses': { breaks: 'every animal-store answer takes 40 ms', expect: ['PERF-LATENCY-P95'], maxLatencyMs: 25 },
  // quickstart
  'qs-local-offset': { breaks: 'createdAt carries a +02:00 offset instead of UTC', expect: ['QS-CREATED-AT-UTC'] },
  'qs-clock-ahead': { breaks: 'createdAt ends in Z but is three hours ahead (local time written as UTC)', expect: ['QS-CREATED-AT-CLOCK'] },
  'qs-local-no-zone': { breaks: 'createdAt is local time (UTC+2) without a zone designator', expect: ['QS-CREATED-AT-CLOCK', 'QS-CREATED-AT-ZONE'] },
  'qs-epoch-created-at': { breaks: 'createdAt is an epoch number', expect: ['QS-OK', 'QS-CREATED-AT-UTC'] },
  'qs-no-echo': { breaks: 'the response message is not the message sent', expect: ['QS-ECHO'] },
  'qs-missing-id': { breaks: 'the response has no id', expect: ['QS-OK'] },
  'qs-no-auth': { breaks: 'a message without an Authorization header is accepted', expect: ['QS-AUTH-MISSING'] },
  'qs-invalid-key-accepted': { breaks: 'any bearer token is accepted as a key', expect: ['QS-AUTH-INVALID-KEY'] },
  'qs-key-case-insensitive': { breaks: 'the key is compared ignoring case', expect: ['QS-AUTH-INVALID-KEY'] },
  'qs-key-trimmed-split': { breaks: 'the bearer token is split on whitespace and only its first word is compared', expect: ['QS-AUTH-INVALID-KEY'] },
  'qs-raw-key-accepted': { breaks: 'the raw key, with no scheme, is accepted', expect: ['QS-AUTH-MALFORMED'] },
  'qs-any-scheme-accepted': { breaks: 'the key is accepted under any scheme (Token, Basic)', expect: ['QS-AUTH-MALFORMED'] },
  'qs-bare-bearer-accepted': { breaks: '"Bearer" with nothing after it is accepted', expect: ['QS-AUTH-MALFORMED'] },
  'qs-glued-bearer-accepted': {
    breaks: 'the key glued to Bearer (BearerKEY) is accepted: the prefix is stripped without its space',
    expect: ['QS-AUTH-MALFORMED'],
  },
  'qs-bearer-stripped-repeatedly': { breaks: 'every "Bearer " prefix is stripped: Bearer Bearer KEY is accepted', expect: ['QS-AUTH-MALFORMED'] },
  'qs-trailing-slash-unauthenticated': {
    breaks: 'POST /messages/ (a trailing slash) queues the message without looking at any credential (a route added beside /messages)',
    expect: ['QS-NO-BYPASS'],
  },
  'qs-content-type-exact': {
    breaks: 'a Content-Type that is not exactly application/json (a charset parameter) is refused with 400',
    expect: ['QS-VALID-SPELLINGS'],
  },
  'qs-invalid-json-accepted': { breaks: 'invalid JSON is accepted (201, the text as the message)', expect: ['QS-INVALID-JSON'] },
  'qs-invalid-json-500': { breaks: 'invalid JSON gives 500', expect: ['QS-NO-5XX'] },
  'qs-missing-message-accepted': { breaks: 'a body without message is accepted (message "")', expect: ['QS-MISSING-MESSAGE'] },
  'qs-string-body-as-message': { breaks: 'a JSON string for the whole body is taken for the message (queued)', expect: ['QS-MISSING-MESSAGE'] },
  'qs-empty-body-500': { breaks: 'an empty body gives 500 (the body parser hands the code nothing)', expect: ['QS-NO-5XX'] },
  'qs-missing-content-type-accepted': { breaks: 'a body without Content-Type is accepted', expect: ['QS-MISSING-CONTENT-TYPE'] },
  'qs-put-unauthenticated': { breaks: 'PUT /messages queues the message without looking at any credential', expect: ['QS-NO-BYPASS'] },
  'qs-non-string-echoed': {
    breaks: 'a message that is not a string ({"message": 5}) is queued and echoed as it was sent',
    expect: ['QS-NON-STRING-MESSAGE', 'QS-OK'],
  },
  'qs-non-string-message-accepted': { breaks: 'a message that is not a string is accepted (as its JSON text)', expect: ['QS-NON-STRING-MESSAGE'] },
} as const satisfies Record<string, FaultSpec>;

export type FaultName = keyof typeof FAULTS;

export const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];

/** One fault's entry, typed so that its optional fields can be read. */
export function faultSpec(name: FaultName): FaultSpec {
  return FAULTS[name];
}
