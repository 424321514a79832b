// Rules that hold for every answer of one service the run receives (ctx.observed),
// whoever sent it; a check adds only what its own probe is for. A server error is the
// NO-5XX requirement's one finding and is judged by no other rule here.
import type { CheckContext } from '../harness/run/context.js';
import { carriesApiBody, fail, integerText, isInteger, isServerError, nextTurn, plural, type Exchange } from '../harness/run/kit.js';

export interface Offence {
  ex: Exchange;
  why: string;
}

/** Fails with the offences found, quoting the first few; otherwise notes what was judged. */
export function reportOffences(ctx: CheckContext, offences: Offence[], among: string, what: string): void {
  if (offences.length) {
    const shown = offences
      .slice(0, 3)
      .map((o) => `${o.ex.summary}: ${o.why}`)
      .join(' | ');
    fail(`${offences.length} of ${among} ${what}: ${shown}`, ...offences.map((o) => o.ex));
  }
  ctx.note(`${among} judged`);
}

/** A body cut at the cap (or in a record) cannot be judged. */
const whole = (ex: Exchange) => !ex.truncated && ex.error === undefined;

/** Why the body is not JSON valid against the schema, if it is not. */
function shapeProblem(spec: CheckContext['spec'] | CheckContext['quickstartSpec'], ex: Exchange, schema: string): string | undefined {
  if (ex.json === undefined) return `not JSON: ${ex.bodyExcerpt}`;
  const errors = spec.errors(schema, ex.json);
  return errors.length ? `not a valid ${schema}: ${errors.slice(0, 3).join('; ')}` : undefined;
}

/** A listPets request of the documented form: the valid key, the suite's own spelling (others are HTTP-VALID-SPELLINGS's), each parameter at most once with a documented value. */
function documentedList(ctx: CheckContext, ex: Exchange): boolean {
  const headers = ex.request.headers ?? {};
  const ownSpelling = headers.accept === 'application/json' && headers['accept-encoding'] === 'identity' && headers['content-type'] === undefined;
  if (!ownSpelling || headers.authorization !== `Bearer ${ctx.apiKey}`) return false;
  const query = new URL(ex.request.url).searchParams;
  const { min, max } = ctx.spec.limit;
  for (const name of new Set(query.keys())) {
    const values = query.getAll(name);
    if (values.length > 1) return false;
    const [value] = values;
    if (name === 'limit' && !(/^\d+$/.test(value) && Number(value) >= min && Number(value) <= max)) return false;
    if (name === 'status' && !ctx.spec.statuses.includes(value)) return false;
    if (name !== 'limit' && name !== 'status') return false;
  }
  return true;
}

/**
 * Every answer of one operation, judged on its documented success: a 2xx body has its
 * shape whatever the request held; `status`: the one success status the description
 * names; `must`: requests that must succeed.
 */
export function judgeSuccesses(
  ctx: CheckContext,
  operation: string,
  schema: string,
  { status, must }: { status?: number; must?: (ex: Exchange) => boolean } = {},
): number {
  const service = operation === 'sendMessage' ? 'quickstart' : 'store';
  const spec = service === 'store' ? ctx.spec : ctx.quickstartSpec;
  // a body that is not what its Content-Encoding says cannot be read: HTTP-VALID-SPELLINGS's
  const answers = ctx.observed(service).filter((ex) => ex.request.operation === operation && !isServerError(ex) && !ex.undecodable && whole(ex));
  const offences: Offence[] = [];
  for (const ex of answers) {
    if (ex.succeeded) {
      const problem = (status !== undefined && ex.status !== status ? `${ex.status}, not ${status}` : undefined) ?? shapeProblem(spec, ex, schema);
      if (problem) offences.push({ ex, why: problem });
    } else if (must?.(ex)) {
      offences.push({ ex, why: 'a request of the documented form, with the key, did not succeed' });
    }
  }
  reportOffences(ctx, offences, plural(answers.length, `${operation} answer`), `break the documented success (${status ?? '2xx'} with ${schema})`);
  return answers.length;
}

export const judgeListAnswers = (ctx: CheckContext) => judgeSuccesses(ctx, 'listPets', 'Pets', { status: 200, must: (ex) => documentedList(ctx, ex) });

/** Every error response of the animal store that carries an API body. */
export function storeErrors(ctx: CheckContext): Exchange[] {
  return ctx.observed('store').filter((ex) => ex.status >= 400 && carriesApiBody(ex) && whole(ex));
}

export function judgeErrorBodies(ctx: CheckContext, errors: Exchange[]): number {
  const offences = errors.flatMap((ex) => {
    const why = shapeProblem(ctx.spec, ex, 'Error');
    return why ? [{ ex, why }] : [];
  });
  reportOffences(ctx, offences, plural(errors.length, 'error response'), 'are not an Error body (code, message, status)');
  return errors.length;
}

/** Every error body's integer status field is the HTTP status; returns how many carried one. */
export function judgeErrorStatuses(ctx: CheckContext, errors: Exchange[]): number {
  const judged = errors.filter((ex) => Number.isInteger((ex.json as any)?.status));
  const offences = judged.filter((ex) => (ex.json as any).status !== ex.status).map((ex) => ({ ex, why: `status field is ${(ex.json as any).status}` }));
  reportOffences(ctx, offences, plural(judged.length, 'error response'), 'carry a status field that differs from the HTTP status');
  return judged.length;
}

export function judgeMediaTypes(ctx: CheckContext): number {
  const withBody = ctx.observed('store').filter((ex) => ex.text.length > 0 && carriesApiBody(ex));
  const offences = withBody
    .filter((ex) => ex.mediaType !== 'application/json')
    .map((ex) => ({ ex, why: `Content-Type ${ex.headers['content-type'] ?? '(none)'}` }));
  reportOffences(ctx, offences, plural(withBody.length, 'response'), 'are not application/json');
  return withBody.length;
}

/** No list page lists an id twice (ids that are not integers are LIST-OK's); returns how many pages were judged. */
export async function judgeUniqueIds(ctx: CheckContext): Promise<number> {
  const pages = ctx.observed('store').filter((ex) => ex.request.operation === 'listPets' && ex.status === 200 && Array.isArray(ex.json));
  for (const ex of pages) {
    await nextTurn(); // a page a turn: a page may hold 200,000 ids
    const ids = (ex.json as Array<Record<string, any>>).filter((p) => isInteger(p?.id)).map((p) => integerText(p.id));
    const seen = new Set<string>(); // not indexOf: a page of 200,000 ids took minutes
    const twice = ids.filter((id) => seen.has(id) || !seen.add(id));
    if (twice.length)
      fail(
        `${ex.summary}: the page lists ${[...new Set(twice)]
          .slice(0, 3)
          .map((id) => `id ${id}`)
          .join(', ')} more than once`,
        ex,
      );
  }
  ctx.note(`${pages.length} pages judged`);
  return pages.length;
}
