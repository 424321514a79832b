// Assertions the checks share.
import { isServerError, type Exchange } from '../http/exchange.js';
import type { CheckContext } from './context.js';
import type { Service } from './request.js';
import type { ApiDescription } from '../api/spec.js';
import { CheckError, Inconclusive, Violation, fail } from '../model/outcome.js';
import { plural } from '../model/words.js';

/** A server error, also when sent again, is the NO-5XX requirement's one finding, not the probe's. */
export function unjudgedOnServerError(ex: Exchange, what: string) {
  if (isServerError(ex)) throw new Inconclusive(`${what}: ${ex.summary}, a server error (the NO-5XX requirement's finding): not judged here`, [ex]);
}

export function expectStatus(ex: Exchange, allowed: number[], what: string) {
  if (allowed.includes(ex.status)) return;
  unjudgedOnServerError(ex, what);
  fail(`${what}: expected ${allowed.join(' or ')}, got ${ex.summary}`, ex);
}

/** A refusal where the description names no status (why: LIST-LIMIT-BELOW-MIN's accepts). */
export const isRefusal = (status: number) => status >= 400 && status < 500 && status !== 401;

export function expectRefusal(ex: Exchange, what: string, also: number[] = []) {
  if (isRefusal(ex.status) || also.includes(ex.status)) return;
  unjudgedOnServerError(ex, what);
  fail(`${what}: expected a 4xx error (but 401: the key is valid)${also.map((s) => ` or ${s}`).join('')}, got ${ex.summary}`, ex);
}

export function expectSchema(spec: ApiDescription, ex: Exchange, schema: string, what: string): any {
  unjudgedOnServerError(ex, what);
  const body = ex.json;
  if (body === undefined) fail(`${what}: the body of ${ex.summary} is not JSON: ${ex.bodyExcerpt}`, ex);
  const errors = schemaErrors(spec, ex, schema);
  if (errors.length) fail(`${what}: the body of ${ex.summary} is not a valid ${schema}: ${errors.slice(0, 3).join('; ')}`, ex);
  return body;
}

/** Worked out once per answer: a list page is judged by most list checks, and may hold 200,000 animals. */
const judged = new WeakMap<ApiDescription, WeakMap<Exchange, Map<string, string[]>>>();

function schemaErrors(spec: ApiDescription, ex: Exchange, schema: string) {
  const byExchange = judged.get(spec) ?? judged.set(spec, new WeakMap()).get(spec)!;
  const bySchema = byExchange.get(ex) ?? byExchange.set(ex, new Map()).get(ex)!;
  const errors = bySchema.get(schema) ?? spec.errors(schema, ex.json);
  bySchema.set(schema, errors);
  return errors;
}

/** Throws one error listing the probes that ended badly, of the gravest kind among them. */
export async function eachProbe<T>(items: T[], probe: (item: T) => Promise<void>) {
  const settled = await Promise.allSettled(items.map(probe));
  const rejected = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => s.reason);
  if (rejected.length === 0) return;
  const crash = rejected.find((e) => !(e instanceof Violation || e instanceof CheckError || e instanceof Inconclusive));
  if (crash || rejected.length === 1) throw crash ?? rejected[0];
  const Kind = [Violation, CheckError, Inconclusive].find((K) => rejected.some((e) => e instanceof K))!;
  const message = `${rejected.length} of ${items.length} probes: ${rejected.map((e) => e.message).join(' | ')}`;
  const evidence = rejected.flatMap((e) => e.evidence);
  throw new Kind(message, evidence);
}

interface NoDataProbe {
  label: string;
  send: () => Promise<Exchange>;
  /** The documented request it stands for, without a key. */
  canonical: () => Promise<Exchange>;
}

/** A list, an object with an id, or something the run sent echoed back. */
export function handsOutData(ex: Exchange, runPrefix: string) {
  if (!ex.succeeded) return false;
  const body = ex.json as Record<string, unknown> | unknown[] | undefined;
  return Array.isArray(body) || (body !== null && typeof body === 'object' && 'id' in body) || ex.text.includes(runPrefix);
}

/** Where a request without a valid credential gets data, the documented one is asked with no key: needing none is `missingKeyCheck`'s failure. */
export async function expectNoData(ctx: CheckContext, probes: NoDataProbe[], missingKeyCheck: string) {
  const answers = await Promise.all(probes.map(async (b) => ({ ...b, ex: await b.send() })));
  const through = answers.filter(({ ex }) => handsOutData(ex, ctx.runPrefix));
  if (through.length === 0) return ctx.note(`${plural(probes.length, 'request')} without a valid credential, none handed out data`);
  // probes that stand for the same documented request share one answer to it
  const asked = new Map<NoDataProbe['canonical'], Promise<Exchange>>();
  const plainOf = (canonical: NoDataProbe['canonical']) => asked.get(canonical) ?? asked.set(canonical, canonical()).get(canonical)!;
  const open = await Promise.all(through.map(async (b) => ({ ...b, plain: await plainOf(b.canonical) })));
  const bypasses = open.filter(({ plain }) => !handsOutData(plain, ctx.runPrefix));
  if (bypasses.length === 0)
    throw new Inconclusive(`${open[0].plain.summary} answers without any key: ${missingKeyCheck} fails; nothing is bypassed`, [open[0].plain]);
  fail(
    `${bypasses.length} of ${probes.length} got data without a valid credential: ${bypasses.map(({ label, ex }) => `${label}: ${ex.summary}`).join(' | ')}`,
    ...bypasses.map(({ ex }) => ex),
  );
}

/** An answer the API's rules on bodies hold (why not HEAD and OPTIONS: ERR-BODY-SHAPE's accepts). */
export const carriesApiBody = (ex: Exchange) => ex.request.method !== 'HEAD' && ex.request.method !== 'OPTIONS';

/** No 5xx among a service's answers, but those STORE-NO-5XX's accepts excuses. */
export function expectNoServerErrors(ctx: CheckContext, service: Service) {
  const label = service === 'store' ? 'animal-store' : 'quickstart';
  const observed = ctx.observed(service);
  const recovered = ctx.recovered(service).length;
  if (recovered) ctx.note(`${recovered} 5xx answer${recovered === 1 ? ' was' : 's were'} recovered by a retry (--retries)`);
  if (observed.length === 0) throw new Inconclusive(`no ${label} response was observed`);
  const spec = service === 'store' ? ctx.spec : ctx.quickstartSpec;
  const unimplemented = (ex: Exchange) => ex.status === 501 && (!ex.request.operation || !spec.operation(ex.request.operation).successShown);
  const errors = observed.filter((ex) => isServerError(ex) || (ex.status === 501 && !unimplemented(ex)));
  const shown = errors.slice(0, 3).map((e) => e.summary);
  if (errors.length) fail(`${errors.length} of ${observed.length} ${label} responses were server errors: ${shown.join(' | ')}`, ...errors);
  ctx.note(`${plural(observed.length, `${label} response`)} judged`);
}
