// GET /pets: a bare JSON array of Pets, `limit` of them at most, filtered by `status`.
import { badParameter, crash } from '../errors.js';
import type { Context } from '../options.js';
import { seam } from '../seams.js';
import { INT64_MAX, INTEGER, isProblem, problem, type Answer, type Fields, type Json, type Problem } from '../wire.js';
import type { Pet } from './animals.js';

export function listPets(ctx: Context, url: URL): Answer {
  const { sw, statuses, animals } = ctx;
  for (const other of sw.at(OTHER_CLIENTS)) other(ctx);
  const query = sw.fold(QUERY, url.searchParams);
  const limit = pageSize(ctx, query.get('limit'), query.has('status'));
  if (isProblem(limit)) return limit;
  let items = animals.pets.filter((p) => animals.readable(p, 'list'));
  const status = query.get('status');
  if (status !== null && !statuses.includes(status)) {
    const answer = sw.first(UNKNOWN_STATUS, items, status) ?? badParameter(sw, `status must be one of ${statuses.join(', ')}`);
    if (isProblem(answer)) return answer;
    items = answer;
  } else if (status !== null) {
    const statusOf = (p: Pet) => sw.first(STATUS_FILTERED, p, statuses) ?? p.fields.status;
    const [matching, others] = [items.filter((p) => statusOf(p) === status), items.filter((p) => statusOf(p) !== status)];
    items = sw.fold(FILTERED, matching, others, items);
  }
  items = sw.fold(ORDER, items);
  const count = sw.first(PAGE_COUNT, limit, { items, status, query }) ?? limit;
  items = sw.fold(LISTED, items, status, statuses);
  const cap = sw.first(PAGE_CAP, status !== null);
  const size = Math.max(0, cap === undefined ? count : Math.min(count, cap));
  const page = items.slice(0, size).map((pet) => sw.fold(LIST_ITEM, animals.json(pet), statuses));
  return [200, sw.fold(LIST_BODY, sw.fold(PAGE, page))];
}

function pageSize({ sw, limits }: Context, raw: string | null, filtered: boolean): number | Problem {
  const { min, max } = limits;
  const fallback = sw.at(PAGE_DEFAULT)[0] ?? limits.default;
  if (raw === null) return fallback;
  const outOfBounds = () => badParameter(sw, `limit must be an integer from ${min} to ${max}`);
  const n = INTEGER.test(raw) ? Number(raw) : (sw.first(NOT_AN_INTEGER, raw, fallback) ?? outOfBounds());
  if (isProblem(n)) return n;
  return sw.first(PAGE_SIZE, n, { raw, filtered, min, max, fallback }) ?? (n < min || n > max ? outOfBounds() : n);
}

// Seams

const listsAsked = new WeakMap<Context, number>();

const OTHER_CLIENTS = seam<(ctx: Context) => void>('other clients', {
  'busy-store': (ctx) => {
    const asked = (listsAsked.get(ctx) ?? 0) + 1;
    listsAsked.set(ctx, asked);
    if (asked !== 4) return;
    for (let i = 0; i < 12; i++) ctx.animals.add({ name: `imported-${i}`, categoryId: 1n, ...(i % 4 < 3 && { status: ctx.statuses[i % 3] }) });
  },
});

const QUERY = seam<(query: URLSearchParams) => URLSearchParams>('the query', {
  'repeated-params-joined': (q) => new URLSearchParams([...new Set(q.keys())].map((k): [string, string] => [k, q.getAll(k).join(',')])),
});

const PAGE_DEFAULT = seam<number>('the default page size', { 'wrong-default': 30, 'default-page-10': 10 });

const NOT_AN_INTEGER = seam<(raw: string, fallback: number) => number | Problem | undefined>('a limit that is no integer', {
  'limit-not-integer-500': (raw) => crash(`cannot compute a page of ${raw}`),
  'limit-exponent-unclamped': (raw) => (/^\d+e\d+$/i.test(raw) ? Number(raw) : undefined),
  'truncate-limit': (raw) => (/^-?\d+\.\d+$/.test(raw) ? Math.trunc(Number(raw)) : undefined),
  'default-limit-on-invalid': (_raw, fallback) => fallback,
});

type Asked = { raw: string; filtered: boolean; min: number; max: number; fallback: number };

const PAGE_SIZE = seam<(n: number, q: Asked) => number | Problem | undefined>('the page size', {
  'limit-zero-500': (n) => (n === 0 ? crash('division by zero') : undefined),
  // the bounds are checked on integers only: a number read from an exponent passes as it is
  'limit-exponent-unclamped': (n, q) => (/e/i.test(q.raw) ? n : undefined),
  'limit-negative-500': (n) => (n < 0 ? crash('negative page size') : undefined),
  'limit-beyond-int64-500': (_n, q) => (INTEGER.test(q.raw) && BigInt(q.raw) > INT64_MAX ? crash(`cannot parse ${q.raw} into a long`) : undefined),
  'filtered-no-maximum': (n, q) => (n > q.max && q.filtered ? n : undefined),
  'filtered-min-ignored': (n, q) => (n === q.min && q.filtered ? q.fallback : undefined),
  'limit-above-max-500': (n, q) => (n > q.max ? crash('page too large') : undefined),
  'no-maximum': (n, q) => (n > q.max ? n : undefined),
  'limit-zero-max': (n, q) => (n < q.min ? q.max : undefined),
  'limit-zero-unbounded': (n, q) => (n < q.min ? Infinity : undefined),
  'clamp-limit': (n, q) => (n < q.min || n > q.max ? Math.min(Math.max(n, q.min), q.max) : undefined),
  'limit-rounded-up': (n, q) => (n >= q.min && n <= q.max && n > 1 && n % 10 !== 0 ? Math.ceil(n / 10) * 10 : undefined),
});

const UNKNOWN_STATUS = seam<(items: Pet[], status: string) => Pet[] | Problem | undefined>('an unknown status filter', {
  'unknown-status-500': (_items, status) => crash(`no such status: ${status}`),
  'unknown-status-401': () => problem(401, 'unauthorized', 'Invalid API key or Authorization header'),
  'unknown-status-empty': () => [],
  'unknown-status-ignored': (items) => items,
});

const STATUS_FILTERED = seam<(p: Pet, statuses: string[]) => Json>('the status filtered on', {
  // the list's queries read a missing status as the first one (COALESCE)
  'defaults-disagree': (p, statuses) => p.fields.status ?? statuses[0],
});

const FILTERED = seam<(matching: Pet[], others: Pet[], all: Pet[]) => Pet[]>('a filtered list', {
  'status-filter-ignored': (_matching, _others, all) => all,
  'status-filter-incomplete': (matching) => matching.slice(0, -1),
  'status-filter-mixed': (matching, others) => (others.length ? [others[0], ...matching] : matching),
});

const ORDER = seam<(items: Pet[]) => Pet[]>('the order of the list', { 'newest-first': (items) => [...items].reverse() });

const PAGE_COUNT = seam<(limit: number, q: { items: Pet[]; status: string | null; query: URLSearchParams }) => number | undefined>('the count of a page', {
  'limit-ignored': (_limit, q) => q.items.length,
  'default-limit-unfiltered-only': (_limit, q) => (q.status !== null && !q.query.has('limit') ? q.items.length : undefined),
  'limit-off-by-one': (limit) => limit + 1,
  'page-short': (limit) => limit - 1,
});

const LISTED = seam<(items: Pet[], status: string | null, statuses: string[]) => Pet[]>('the animals listed', {
  'unfiltered-inner-join': (items, status) => (status === null ? items.filter((p) => p.fields.status !== undefined) : items),
  'unfiltered-hides-last-status': (items, status, statuses) => (status === null ? items.filter((p) => p.fields.status !== statuses.at(-1)) : items),
  'first-status-filter-empty': (items, status, statuses) => (status === statuses[0] ? [] : items),
});

const PAGE_CAP = seam<(filtered: boolean) => number | undefined>('the cap of a page', {
  'max-page-50': () => 50,
  'filtered-page-50': (filtered) => (filtered ? 50 : undefined),
});

/** A default the list's query fills in (COALESCE). */
const firstStatusIfNone = (pet: Fields, statuses: string[]) => (pet.status === undefined ? { ...pet, status: statuses[0] } : pet);

const LIST_ITEM = seam<(pet: Fields, statuses: string[]) => Fields>('an animal in a list', {
  'list-names-ascii': (pet) => (typeof pet.name === 'string' ? { ...pet, name: pet.name.replace(/[^\u0000-\u007F]/gu, '?') } : pet),
  'list-default-status': firstStatusIfNone,
  'defaults-disagree': firstStatusIfNone,
});

const PAGE = seam<(page: Json[]) => Json[]>('a page', { 'list-duplicates': (page) => (page.length > 1 ? [...page.slice(0, -1), page[0]] : page) });

const LIST_BODY = seam<(body: Json) => Json>('the list body', { 'list-envelope': (body) => ({ items: body }) });
