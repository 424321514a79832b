// Deliberate violations, each an entry at the seams of the steps it changes. `expect` names
// exactly the requirements that fail in the certify profile against a server that starts
// empty (the run creates 101 animals): a fault fails wherever the run looks (a 500 also
// STORE-NO-5XX, a value stored otherwise CREATE-VIEWS-AGREE, a getPet that misses an
// animal CREATE-ROUND-TRIP). Faults that accept an invalid body store it normalised to a
// valid Pet (1.5 -> 1), lest it land in a list page and fail the list checks too.
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

const LIMITS = ['LIST-LIMIT-DEFAULT', 'LIST-LIMIT-MIN', 'LIST-LIMIT-MAX', 'LIST-LIMIT-ANY'] as const;
/** The list checks that validate every page they read. */
const INVALID_PAGE = ['LIST-OK', ...LIMITS, 'LIST-STATUS-FILTER', 'LIST-STATUS-COMPLETE', 'LIST-UNFILTERED-COMPLETE'] as const;

const fault = (breaks: string, expect: readonly string[], more: Omit<FaultSpec, 'breaks' | 'expect'> = {}): FaultSpec => ({ breaks, expect, ...more });

export const FAULTS = {
  // authentication
  'no-auth-on-list': fault('GET /pets answers without a key', ['AUTH-MISSING-HEADER']),
  'key-elsewhere-accepted': fault('the key is also taken from the query (api_key) or an X-API-Key header', ['AUTH-NO-BYPASS']),
  'trailing-slash-unauthenticated': fault('GET /pets/ serves the list without a key (a route added beside /pets)', ['AUTH-NO-BYPASS']),
  // a key sent in the query (api_key, access_token) is a query too
  'no-auth-with-query': fault('GET /pets with a status filter or a limit answers without a key (another code path)', [
    'AUTH-MISSING-HEADER',
    'AUTH-NO-BYPASS',
    'AUTH-NO-QUERY-TOKEN',
  ]),
  'key-query-param': fault('the key is also taken from the query parameter key (?key=)', ['AUTH-NO-BYPASS']),
  'slash-post-unauthenticated': fault('POST /pets/ (a trailing slash) creates the animal without any credential (a route added beside /pets)', [
    'AUTH-NO-BYPASS',
  ]),
  'refused-write-stored': fault('a createPet refused with 401 (no key, a wrong key) stores the animal all the same (the write runs before the answer)', [
    'CREATE-WRITES-ACCOUNTED',
  ]),
  'invalid-write-stored': fault('a createPet refused with 400 (an invalid value) stores the animal all the same', ['CREATE-WRITES-ACCOUNTED']),
  'orders-unauthenticated': fault('GET /store/orders answers whatever the credential', [
    'AUTH-MISSING-HEADER',
    'AUTH-INVALID-KEY',
    'AUTH-WRONG-SCHEME',
    'AUTH-NO-SCHEME',
  ]),
  'invalid-key-accepted': fault('any bearer token is accepted as a key', ['AUTH-INVALID-KEY']),
  'key-form-only': fault("a bearer token of the key's length and prefix is accepted (the form is checked, not the key)", ['AUTH-INVALID-KEY']),
  'key-prefix-accepted': fault('a bearer token that starts with the key is accepted (startsWith)', ['AUTH-INVALID-KEY']),
  'key-truncation-accepted': fault("a bearer token that is the key cut short is accepted (strncmp over the token's length)", ['AUTH-INVALID-KEY']),
  'key-case-insensitive': fault('the key is compared ignoring case', ['AUTH-INVALID-KEY']),
  'key-substring-accepted': fault('a bearer token containing the key is accepted (includes, an unanchored pattern)', ['AUTH-INVALID-KEY']),
  'key-trimmed-split': fault('only the first word of the bearer token is compared (Bearer <key> <more> passes)', ['AUTH-INVALID-KEY']),
  'any-scheme-accepted': fault('the key is accepted under any scheme (Basic, Token)', ['AUTH-WRONG-SCHEME']),
  'raw-key-accepted': fault('the raw key, with no scheme, is accepted', ['AUTH-NO-SCHEME']),
  // stripping no prefix leaves the raw key, which passes too
  'bearer-stripped-repeatedly': fault('every "Bearer " prefix is stripped, so Bearer Bearer <key> is accepted', ['AUTH-INVALID-KEY', 'AUTH-NO-SCHEME']),
  'glued-bearer-accepted': fault('the key glued to Bearer (BearerKEY) is accepted: the prefix is stripped without its space', ['AUTH-NO-SCHEME']),
  'mixed-case-route-unauthenticated': fault(
    '/v1/Pets, /v1/PETS reach the collection without a key: the key check is mounted on the exact path, the router matches any case',
    ['AUTH-NO-BYPASS'],
  ),
  'head-unauthenticated': fault('HEAD on a GET route is answered as GET without a key: the key check looks at GET and POST only', ['AUTH-EVERY-METHOD']),
  'options-unauthenticated': fault('OPTIONS /pets falls through to the list handler without a key: 200 with the page', ['AUTH-EVERY-METHOD']),
  'delete-unauthenticated': fault('DELETE /pets/{petId} deletes without any credential: 204 for any integer id (the row count is not read)', [
    'AUTH-EVERY-METHOD',
  ]),
  'empty-bearer-accepted': fault('"Bearer" with no token (the scheme alone) is accepted', ['AUTH-INVALID-KEY']),
  'scheme-case-sensitive': fault('only the exact prefix "Bearer " is accepted: bearer <key> gets 401 (RFC 9110: the scheme is case-insensitive)', [
    'AUTH-SCHEME-CASE',
  ]),
  'auth-403': fault('a credential that is present but wrong gets 403 instead of 401', ['AUTH-INVALID-KEY', 'AUTH-WRONG-SCHEME', 'AUTH-NO-SCHEME']),
  // errors and media
  'plain-text-errors': fault('error bodies are plain text (text/plain)', ['ERR-BODY-SHAPE', 'MEDIA-JSON']),
  'error-without-code': fault('the Error body has no code', ['ERR-BODY-SHAPE']),
  'error-status-as-string': fault('the Error status field is a string ("401")', ['ERR-BODY-SHAPE']),
  'error-status-mismatch': fault('the Error status field is always 400, whatever the HTTP status', ['ERR-STATUS-MATCHES']),
  'framework-404-html': fault("an unknown path gets the web framework's HTML 404 page, not an Error body", ['ERR-BODY-SHAPE', 'MEDIA-JSON']),
  'method-not-allowed-plain': fault("a documented path with a method it does not have gets the framework's text/plain 405, not an Error body", [
    'ERR-BODY-SHAPE',
    'MEDIA-JSON',
  ]),
  'wrong-content-type': fault('successful responses are served as text/plain', ['MEDIA-JSON']),
  'content-type-exact': fault('POST /pets refuses a Content-Type not exactly application/json with 400 (a charset, Application/JSON)', [
    'HTTP-VALID-SPELLINGS',
  ]),
  'accept-exact': fault('an Accept other than exactly application/json (*/*, none) gets 406 once the key has passed', ['HTTP-VALID-SPELLINGS']),
  'defaults-disagree': fault(
    'an animal stored without a status shows as "available" in the list and its filter (a COALESCE) but as "pending" in getPet (another default)',
    ['CREATE-VIEWS-AGREE'],
  ),
  'gzip-label-uncompressed': fault('when the client accepts gzip, every answer is labelled Content-Encoding: gzip but sent uncompressed', [
    'HTTP-VALID-SPELLINGS',
  ]),
  'get-body-parsed': fault('a JSON body parser runs for every method: a GET with Content-Type: application/json and no body gets 400', [
    'HTTP-VALID-SPELLINGS',
  ]),
  'accept-list-unparsed': fault('an Accept list is split on commas without trimming: text/plain, application/json gets 406 (*/* and none are served)', [
    'HTTP-VALID-SPELLINGS',
  ]),
  'chunked-body-ignored': fault('a body sent chunked (no Content-Length) is read as empty: a valid NewPet or message sent so gets 400', [
    'HTTP-VALID-SPELLINGS',
    'QS-VALID-SPELLINGS',
  ]),
  'zero-category-refused': fault('categoryId 0 is refused as missing (a truth test), while other categoryIds the run does not configure are taken', [
    'CREATE-VALID-ACCEPTED',
  ]),
  'trailing-slash-envelope': fault('GET /pets/ with the key is a legacy route that answers the page wrapped as {"data": [...]}', ['HTTP-PATH-SPELLINGS']),
  // list
  'list-envelope': fault('the list is wrapped in an envelope {items: [...]}', [...INVALID_PAGE, 'LIST-PAGE-FULL']),
  'limit-ignored': fault('limit is ignored: every animal is returned', LIMITS),
  'limit-off-by-one': fault('a page holds limit+1 animals', LIMITS),
  'page-short': fault('a page holds limit-1 animals though more exist', ['LIST-PAGE-FULL', 'LIST-LIMIT-ANY', 'LIST-STATUS-COMPLETE']),
  'wrong-default': fault('the default page size is 30 instead of 20', ['LIST-LIMIT-DEFAULT']),
  'default-page-10': fault('the default page size is 10 instead of 20', ['LIST-PAGE-FULL', 'LIST-STATUS-COMPLETE']),
  'max-page-50': fault('a page holds at most 50 animals, whatever the limit (the cap is 50, not 100)', ['LIST-PAGE-FULL', 'LIST-STATUS-COMPLETE']),
  'unfiltered-hides-last-status': fault('without the status filter, animals of the last status (sold) are left out', [
    'LIST-PAGE-FULL',
    'LIST-UNFILTERED-COMPLETE',
  ]),
  'first-status-filter-empty': fault('the filter on the first status (available) always answers []', ['LIST-STATUS-COMPLETE']),
  'default-limit-unfiltered-only': fault('with the status filter and no limit, every matching animal is returned', ['LIST-LIMIT-DEFAULT']),
  'no-maximum': fault('limit above the maximum is honoured (limit=101 returns 101 animals)', ['LIST-LIMIT-ABOVE-MAX'], { prefill: 101 }),
  'limit-above-max-500': fault('limit above the maximum gives 500', ['STORE-NO-5XX']),
  'limit-zero-500': fault('limit=0 gives 500', ['STORE-NO-5XX']),
  'limit-zero-unbounded': fault('limit=0 is read as "no limit": every animal, more than the maximum', ['LIST-LIMIT-BELOW-MIN']),
  'param-errors-html': fault("a bad query or path value gets the framework's HTML 400 page, not an Error body", ['ERR-BODY-SHAPE', 'MEDIA-JSON']),
  'limit-not-integer-500': fault('a limit that is not an integer (abc, 1.5) gives 500', ['STORE-NO-5XX']),
  'limit-exponent-unclamped': fault('a limit in exponent form (1e3) is read as a number not held to the maximum: every animal', ['LIST-LIMIT-NOT-INTEGER']),
  'limit-negative-500': fault('a negative limit gives 500', ['STORE-NO-5XX']),
  'limit-beyond-int64-500': fault('a limit no int64 can hold (2^63) gives 500 (parsed into a long)', ['STORE-NO-5XX']),
  'filtered-no-maximum': fault(
    'with the status filter, a limit above the maximum is honoured (the bound is on the unfiltered query only)',
    ['LIST-LIMIT-ABOVE-MAX'],
    { prefill: 303 },
  ),
  'filtered-min-ignored': fault('with the status filter, limit=1 gives the default page', ['LIST-LIMIT-MIN']),
  // mayAlso: the early unfiltered page lacks its last animal too, asked before the store holds a full page
  'list-duplicates': fault('a page lists its first animal twice (in place of the last)', ['LIST-IDS-UNIQUE', 'LIST-STATUS-COMPLETE'], {
    mayAlso: ['LIST-UNFILTERED-COMPLETE'],
  }),
  'limit-rounded-up': fault('a limit from 2 to 99 not a multiple of 10 is rounded up to the next one (2 -> 10, 99 -> 100)', ['LIST-LIMIT-ANY']),
  'unfiltered-inner-join': fault(
    'the unfiltered list leaves out animals stored without a status (an inner join on a status table); filtered lists and getPet are right',
    ['LIST-UNFILTERED-COMPLETE', 'LIST-PAGE-FULL'],
  ),
  'list-default-status': fault(
    'list pages show status "available" for an animal stored without one (the 201 body and getPet show none; the filter reads the stored value)',
    ['LIST-STATUS-COMPLETE'],
  ),
  'status-filter-ignored': fault('the status filter is ignored', ['LIST-STATUS-FILTER']),
  'status-filter-mixed': fault('a filtered page also holds an animal of another status', ['LIST-STATUS-FILTER']),
  'status-filter-incomplete': fault('a filtered page lacks the most recent matching animal', ['LIST-STATUS-COMPLETE']),
  'unknown-status-500': fault('an unknown status value gives 500', ['STORE-NO-5XX']),
  'unknown-status-401': fault('an unknown status value gets 401, as if the key were wrong', ['LIST-STATUS-UNKNOWN']),
  // create
  'created-200': fault('POST /pets answers 200 instead of 201', ['CREATE-OK']),
  // GET-OK and LIST-PAGE-FULL find no integer id: inconclusive
  'string-ids': fault('ids are JSON strings', ['CREATE-OK', ...INVALID_PAGE]),
  'ids-beyond-int64': fault('ids start at 2^64 (18446744073709551616), outside the int64 range', ['CREATE-OK', 'GET-OK', ...INVALID_PAGE, 'LIST-PAGE-FULL']),
  'duplicate-ids': fault('every animal gets the same id', ['CREATE-ID-UNIQUE', 'GET-OK', 'CREATE-ROUND-TRIP', 'LIST-IDS-UNIQUE']),
  'name-uppercased': fault('name is stored and returned upper-cased', ['CREATE-ECHO', 'GET-OK', 'CREATE-ROUND-TRIP', 'CREATE-VIEWS-AGREE']),
  'status-dropped': fault('a supplied status is not stored', ['CREATE-ECHO', 'GET-OK', 'CREATE-VIEWS-AGREE']),
  'status-changed': fault('a supplied status is stored as the next status of the enumeration', ['CREATE-ECHO']),
  'not-persisted': fault('created animals are not stored (getPet 404, not listed)', [
    'GET-OK',
    'LIST-PAGE-FULL',
    'LIST-STATUS-COMPLETE',
    'CREATE-ROUND-TRIP',
    'LIST-UNFILTERED-COMPLETE',
  ]),
  'invalid-body-422': fault('a body that fails validation gets 422 instead of 400', [
    'CREATE-MISSING-REQUIRED',
    'CREATE-WRONG-TYPE',
    'CREATE-STATUS-ENUM',
    'CREATE-NON-INTEGER',
    'CREATE-NOT-OBJECT',
    'CREATE-OUT-OF-RANGE',
  ]),
  'coerce-numeric-strings': fault('a numeric string categoryId ("7") is coerced and accepted', ['CREATE-NON-INTEGER']),
  'accept-fractional-integer': fault('a fractional categoryId (1.5) is truncated and accepted', ['CREATE-NON-INTEGER']),
  'accept-wrong-type-name': fault('a name that is not a string is accepted (stored as its JSON text)', ['CREATE-WRONG-TYPE']),
  'accept-unknown-status': fault('a status string outside the enumeration is accepted (and dropped)', ['CREATE-STATUS-ENUM']),
  'accept-missing-name': fault('a body without name is accepted (name "")', ['CREATE-MISSING-REQUIRED']),
  'accept-missing-category': fault('a body without categoryId is accepted (categoryId 0)', ['CREATE-MISSING-REQUIRED']),
  'accept-array-body': fault('an array holding one NewPet is accepted as that NewPet', ['CREATE-NOT-OBJECT']),
  'empty-body-500': fault('an empty body gives 500', ['STORE-NO-5XX']),
  'empty-body-defaults': fault('an empty body is taken for an animal of default values (201, name "", categoryId 0)', ['CREATE-EMPTY-BODY']),
  'malformed-json-500': fault('malformed JSON gives 500', ['STORE-NO-5XX']),
  'malformed-json-closed': fault('malformed JSON is read by a lenient parser that closes what is left open (201)', ['CREATE-MALFORMED-JSON']),
  // valid values (edge values, generated examples, an id sent)
  'non-ascii-replaced': fault('characters outside ASCII in a name are stored as ?', ['CREATE-ROUND-TRIP', 'CREATE-VIEWS-AGREE']),
  'name-truncated-255': fault('names are silently shortened to 255 characters', ['CREATE-ROUND-TRIP', 'CREATE-VIEWS-AGREE']),
  'item-method-html': fault("a method /pets/{petId} does not have (PATCH) gets the framework's HTML 405 page", ['ERR-BODY-SHAPE', 'MEDIA-JSON']),
  'filtered-page-50': fault('a page with a status filter holds at most 50 animals (a search index with its own cap)', ['LIST-STATUS-COMPLETE']),
  'int64-range-unchecked': fault('a categoryId outside int64 (2^63) is accepted (and clamped)', ['CREATE-OUT-OF-RANGE']),
  'int64-via-double': fault('categoryId passes through a double: 2^53 + 1 comes back as 2^53', ['CREATE-ROUND-TRIP', 'CREATE-VIEWS-AGREE', 'CREATE-OK']),
  'names-html-escaped': fault('names are HTML-escaped on input (< stored as &#60;)', ['CREATE-ROUND-TRIP', 'CREATE-VIEWS-AGREE']),
  // the run's edge-valued animals are on the list only newest first
  'list-names-ascii': fault(
    'the list writes characters outside ASCII in names as ? (the 201 body and getPet are right)',
    ['CREATE-ROUND-TRIP', 'CREATE-VIEWS-AGREE'],
    { variants: ['newest-first'] },
  ),
  'emoji-refused-422': fault('a name with astral-plane characters (emoji) is refused with 422', ['CREATE-ROUND-TRIP']),
  'long-name-500': fault('a name over 1,000 characters gives 500', ['STORE-NO-5XX']),
  'private-use-stripped': fault(
    'private-use and unassigned code points are stripped from names (the edge value of every plane and the examples of seed 7 have them)',
    ['CREATE-ROUND-TRIP', 'CREATE-VIEWS-AGREE'],
    { seed: 7 },
  ),
  // NFKC composes decomposed marks as NFC does: only a SHOULD
  'nfkc-normalised': fault('names are normalised to NFKC (the ligature U+FB01 stored as "fi", fullwidth letters as ASCII)', [
    'CREATE-ROUND-TRIP',
    'CREATE-VIEWS-AGREE',
    'CREATE-STORED-AS-SENT',
  ]),
  'names-cut-at-nul': fault('names are stored cut at their first U+0000 (a C string)', ['CREATE-ROUND-TRIP', 'CREATE-VIEWS-AGREE']),
  'digit-runs-refused': fault('a home-made JSON reader refuses any body holding a run of 16 digits (a name, a message, an int64)', [
    'CREATE-VALID-ACCEPTED',
    'QS-OK',
  ]),
  'flaky-503': fault('one animal-store request in 40, whatever it is, is answered 503 without Retry-After', ['STORE-NO-5XX']),
  'c1-controls-stripped': fault('U+007F and the C1 controls U+0080-U+009F are stripped from names', ['CREATE-ROUND-TRIP', 'CREATE-VIEWS-AGREE']),
  'duplicate-body-deduplicated': fault("a NewPet matching a stored animal's name, categoryId and status gets that animal, not a new one", ['CREATE-ID-UNIQUE']),
  'id-honoured': fault("an id sent in the body becomes the animal's id", ['CREATE-ID-ASSIGNED']),
  'id-honoured-double': fault("an id sent in the body, read as a double, becomes the animal's id (rounded)", ['CREATE-ID-ASSIGNED']),
  // get
  'get-wrong-animal': fault('getPet answers with the animal whose id is one higher', ['GET-OK', 'CREATE-ROUND-TRIP', 'GET-EDGE-IDS']),
  'get-gone-410': fault('getPet is already removed: 410 for every well-formed id', ['GET-OK', 'GET-NOT-FOUND', 'CREATE-ROUND-TRIP']),
  'get-always-404': fault('getPet is already removed: 404 for every well-formed id', ['GET-OK', 'CREATE-ROUND-TRIP']),
  'get-invalid-id-500': fault('a non-integer petId gives 500', ['STORE-NO-5XX']),
  'get-negative-id-500': fault('a negative petId gives 500', ['STORE-NO-5XX']),
  'get-beyond-int64-500': fault('a petId no int64 can hold gives 500', ['STORE-NO-5XX']),
  'get-invalid-id-200': fault('a non-integer petId gives 200 (with null)', ['GET-INVALID-ID', 'HTTP-PATH-SPELLINGS', 'GET-OK']),
  'get-id-parseint': fault('petId is read with parseInt: 7abc and 7.5 fetch animal 7', ['GET-INVALID-ID']),
  'id-underscore-parsed': fault("petId is read as Python's int() reads it: 1_0 fetches animal 10", ['GET-INVALID-ID']),
  'get-nonexistent-200': fault('an unknown id gives 200 with the most recent animal', ['GET-NOT-FOUND', 'GET-EDGE-IDS', 'GET-INVALID-ID']),
  // orders, performance
  'orders-missing': fault('GET /store/orders does not exist (404)', ['ORDERS-EXISTS']),
  'slow-responses': fault('every animal-store answer takes 40 ms', ['PERF-LATENCY-P95'], { maxLatencyMs: 25 }),
  // quickstart
  'qs-local-offset': fault('createdAt carries a +02:00 offset instead of UTC', ['QS-CREATED-AT-UTC']),
  'qs-clock-ahead': fault('createdAt ends in Z but is three hours ahead (local time written as UTC)', ['QS-CREATED-AT-CLOCK']),
  'qs-local-no-zone': fault('createdAt is local time (UTC+2) without a zone designator', ['QS-CREATED-AT-CLOCK', 'QS-CREATED-AT-ZONE']),
  'qs-epoch-created-at': fault('createdAt is an epoch number', ['QS-OK', 'QS-CREATED-AT-UTC']),
  'qs-no-echo': fault('the response message is not the message sent', ['QS-ECHO']),
  'qs-missing-id': fault('the response has no id', ['QS-OK']),
  'qs-no-auth': fault('a message without an Authorization header is accepted', ['QS-AUTH-MISSING']),
  'qs-invalid-key-accepted': fault('any bearer token is accepted as a key', ['QS-AUTH-INVALID-KEY']),
  'qs-key-case-insensitive': fault('the key is compared ignoring case', ['QS-AUTH-INVALID-KEY']),
  'qs-key-trimmed-split': fault('only the first word of the bearer token is compared', ['QS-AUTH-INVALID-KEY']),
  'qs-raw-key-accepted': fault('the raw key, with no scheme, is accepted', ['QS-AUTH-MALFORMED']),
  'qs-any-scheme-accepted': fault('the key is accepted under any scheme (Token, Basic)', ['QS-AUTH-MALFORMED']),
  'qs-bare-bearer-accepted': fault('"Bearer" with nothing after it is accepted', ['QS-AUTH-MALFORMED']),
  'qs-glued-bearer-accepted': fault('the key glued to Bearer (BearerKEY) is accepted: the prefix is stripped without its space', ['QS-AUTH-MALFORMED']),
  'qs-bearer-stripped-repeatedly': fault('every "Bearer " prefix is stripped: Bearer Bearer KEY is accepted', ['QS-AUTH-MALFORMED']),
  'qs-trailing-slash-unauthenticated': fault('POST /messages/ queues the message without any credential (a route added beside /messages)', ['QS-NO-BYPASS']),
  'qs-content-type-exact': fault('a Content-Type not exactly application/json (a charset parameter) is refused with 400', ['QS-VALID-SPELLINGS']),
  'qs-invalid-json-accepted': fault('invalid JSON is accepted (201, the text as the message)', ['QS-INVALID-JSON']),
  'qs-invalid-json-500': fault('invalid JSON gives 500', ['QS-NO-5XX']),
  'qs-missing-message-accepted': fault('a body without message is accepted (message "")', ['QS-MISSING-MESSAGE']),
  'qs-string-body-as-message': fault('a JSON string for the whole body is taken for the message (queued)', ['QS-MISSING-MESSAGE']),
  'qs-empty-body-500': fault('an empty body gives 500 (the body parser hands the code nothing)', ['QS-NO-5XX']),
  'qs-missing-content-type-accepted': fault('a body without Content-Type is accepted', ['QS-MISSING-CONTENT-TYPE']),
  'qs-put-unauthenticated': fault('PUT /messages queues the message without any credential', ['QS-NO-BYPASS']),
  'qs-non-string-echoed': fault('a message that is not a string ({"message": 5}) is queued and echoed as sent', ['QS-NON-STRING-MESSAGE', 'QS-OK']),
  'qs-non-string-message-accepted': fault('a message that is not a string is accepted (as its JSON text)', ['QS-NON-STRING-MESSAGE']),
};

export type FaultName = keyof typeof FAULTS;

export const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];

export const faultSpec = (name: FaultName): FaultSpec => FAULTS[name];
