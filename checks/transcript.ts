// Rules for every answer the run receives, whoever sent it; a 5xx is only the NO-5XX rule's finding.
import type { CheckContext } from '../harness/run/context.js';
import { carriesApiBody, fail, integerText, isInteger, isServerError, nextTurn, plural, type Exchange } from '../harness/run/kit.js';

export type Offence = { ex: Exchange; why: string };

export function reportOffences(ctx: CheckContext, offences: Offence[], among: string, what: string) {
  if (offences.length) {
    const shown = offences.slice(0, 3).map((o) => `${o.ex.summary}: ${o.why}`);
    fail(`${offences.length} of ${among} ${what}: ${shown.join(' | ')}`, ...offences.map((o) => o.ex));
  }
  ctx.note(`${among} judged`);
}

/** Judges each answer by `why` it offends, if it does (reportOffences). */
export function judgeEach(ctx: CheckContext, answers: Exchange[], why: (ex: Exchange) => string | false | undefined, among: string, what: string) {
  const offences = answers.flatMap((ex) => {
    const found = why(ex);
    return found ? [{ ex, why: found }] : [];
  });
  reportOffences(ctx, offences, among, what);
}

// a body cut at the cap (or in a record) cannot be judged
const whole = (ex: Exchange) => !ex.truncated && ex.error === undefined;

function shapeProblem(spec: CheckContext['spec'] | CheckContext['quickstartSpec'], ex: Exchange, schema: string): string | undefined {
  if (ex.json === undefined) return `not JSON: ${ex.bodyExcerpt}`;
  const errors = spec.errors(schema, ex.json);
  return errors.length ? `not a valid ${schema}: ${errors.slice(0, 3).join('; ')}` : undefined;
}

/** Another spelling of the request is HTTP-VALID-SPELLINGS's. */
function documentedList(ctx: CheckContext, ex: Exchange) {
  const headers = ex.request.headers ?? {};
  const ownSpelling = headers.accept === 'application/json' && headers['accept-encoding'] === 'identity' && headers['content-type'] === undefined;
  if (!ownSpelling || headers.authorization !== `Bearer ${ctx.apiKey}`) return false;
  const query = new URL(ex.request.url).searchParams;
  const { min, max } = ctx.spec.limit;
  const documented: Record<string, (value: string) => boolean> = {
    limit: (value) => /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max,
    status: (value) => ctx.spec.statuses.includes(value),
  };
  return [...query.keys()].every((name) => query.getAll(name).length === 1 && Object.hasOwn(documented, name) && documented[name](query.get(name)!));
}

/** A 2xx has the operation's shape whatever the request held. */
export function judgeSuccesses(
  ctx: CheckContext,
  operation: string,
  schema: string,
  { status, must }: { status?: number; must?: (ex: Exchange) => boolean } = {},
) {
  const service = operation === 'sendMessage' ? 'quickstart' : 'store';
  const spec = service === 'store' ? ctx.spec : ctx.quickstartSpec;
  // a body that is not what its Content-Encoding says cannot be read: HTTP-VALID-SPELLINGS's
  const answers = ctx.observed(service).filter((ex) => ex.request.operation === operation && !isServerError(ex) && !ex.undecodable && whole(ex));
  const why = (ex: Exchange) =>
    ex.succeeded
      ? ((status !== undefined && ex.status !== status ? `${ex.status}, not ${status}` : undefined) ?? shapeProblem(spec, ex, schema))
      : must?.(ex) && 'a request of the documented form, with the key, did not succeed';
  judgeEach(ctx, answers, why, plural(answers.length, `${operation} answer`), `break the documented success (${status ?? '2xx'} with ${schema})`);
  return answers.length;
}

export const judgeListAnswers = (ctx: CheckContext) => judgeSuccesses(ctx, 'listPets', 'Pets', { status: 200, must: (ex) => documentedList(ctx, ex) });

export function storeErrors(ctx: CheckContext): Exchange[] {
  return ctx.observed('store').filter((ex) => ex.status >= 400 && carriesApiBody(ex) && whole(ex));
}

export function judgeErrorBodies(ctx: CheckContext, errors: Exchange[]) {
  judgeEach(ctx, errors, (ex) => shapeProblem(ctx.spec, ex, 'Error'), plural(errors.length, 'error response'), 'are not an Error body (code, message, status)');
  return errors.length;
}

export function judgeErrorStatuses(ctx: CheckContext, errors: Exchange[]) {
  const judged = errors.filter((ex) => Number.isInteger((ex.json as any)?.status));
  const why = (ex: Exchange) => (ex.json as any).status !== ex.status && `status field is ${(ex.json as any).status}`;
  judgeEach(ctx, judged, why, plural(judged.length, 'error response'), 'carry a status field that differs from the HTTP status');
  return judged.length;
}

export function judgeMediaTypes(ctx: CheckContext) {
  const withBody = ctx.observed('store').filter((ex) => ex.text.length > 0 && carriesApiBody(ex));
  const why = (ex: Exchange) => ex.mediaType !== 'application/json' && `Content-Type ${ex.headers['content-type'] ?? '(none)'}`;
  judgeEach(ctx, withBody, why, plural(withBody.length, 'response'), 'are not application/json');
  return withBody.length;
}

export async function judgeUniqueIds(ctx: CheckContext) {
  const pages = ctx.observed('store').filter((ex) => ex.request.operation === 'listPets' && ex.status === 200 && Array.isArray(ex.json));
  for (const ex of pages) {
    await nextTurn(); // a page a turn: a page may hold 200,000 ids
    const ids = (ex.json as Array<Record<string, any>>).filter((p) => isInteger(p?.id)).map((p) => integerText(p.id));
    const seen = new Set<string>(); // not indexOf: a page of 200,000 ids took minutes
    const twice = [...new Set(ids.filter((id) => seen.has(id) || !seen.add(id)))].map((id) => `id ${id}`);
    if (twice.length) fail(`${ex.summary}: the page lists ${twice.slice(0, 3).join(', ')} more than once`, ex);
  }
  ctx.note(`${pages.length} pages judged`);
  return pages.length;
}
