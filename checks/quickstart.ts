// The quickstart message service: no success status is documented, so any 2xx passes.
import type { CallOptions, CheckContext } from '../harness/run/context.js';
import {
  bodySpellingsOf,
  check,
  eachProbe,
  expectNoData,
  expectNoServerErrors,
  expectSchema,
  expectStatus,
  fail,
  formatDuration,
  Inconclusive,
  pathSpellings,
  showJson,
  unjudgedOnServerError,
  type Check,
  type CredentialKind,
  type Exchange,
} from '../harness/run/kit.js';
import { judgeSuccesses } from './transcript.js';

function expect2xx(ex: Exchange, what: string) {
  unjudgedOnServerError(ex, what);
  if (!ex.succeeded) fail(`${what}: expected a 2xx status, got ${ex.summary}`, ex);
}

async function sentMessage(ctx: CheckContext) {
  const { sent, exchange } = await ctx.quickstart.message();
  ctx.cite(exchange);
  expect2xx(exchange, 'a valid message');
  return { sent, exchange, body: exchange.json as Record<string, any> | undefined };
}

/** An ISO 8601 calendar date and time, extended or basic (which pass: QS-CREATED-AT-UTC's accepts). */
const ISO_DATE_TIME =
  /^(?:(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})([.,]\d+)?)?|(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(?:(\d{2})([.,]\d+)?)?)(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

const ZONE = 15;

/** The instant a UTC timestamp names (a zone-less one read as UTC). */
export function utcInstant(value: unknown): number | undefined {
  const m = typeof value === 'string' ? ISO_DATE_TIME.exec(value) : null;
  if (!m) return undefined;
  const zone = m[ZONE];
  if (zone && !/^(z|[+-]00(:?00)?)$/i.test(zone)) return undefined;
  const [y, mo, d, h, mi, s, fraction] = m[1] ? m.slice(1, 8) : m.slice(8, 15);
  const ms = Math.round(Number(`0.${(fraction ?? '.0').slice(1)}`) * 1000);
  const instant = Date.UTC(+y, +mo - 1, +d, +h, +mi, +(s ?? 0), ms);
  // a real date and time: no month 13, no 25 o'clock
  const real = new Date(instant).toISOString().slice(0, 16) === `${y}-${mo}-${d}T${h}:${mi}`;
  return real && +(s ?? 0) < 60 ? instant : undefined;
}

const validMessage = (ctx: CheckContext) => ({ message: `${ctx.runPrefix} probe` });

/** None in UTC is QS-CREATED-AT-UTC's finding. */
async function createdAt(ctx: CheckContext) {
  const { exchange, body } = await sentMessage(ctx);
  const instant = utcInstant(body?.createdAt);
  if (instant === undefined) throw new Inconclusive('createdAt is not a UTC timestamp (see QS-CREATED-AT-UTC)', [exchange]);
  return { exchange, createdAt: body!.createdAt as string, instant };
}

async function expectRejected(ctx: CheckContext, status: number, probes: Array<{ label: string; options: CallOptions }>) {
  await eachProbe(probes, async ({ label, options }) => {
    const ex = await ctx.sendMessage(options);
    expectStatus(ex, [status], `a message with ${label}`);
  });
}

/** Each with a valid message (why: QS-AUTH-MALFORMED's accepts). */
const credentials = (ctx: CheckContext, ...kinds: CredentialKind[]) =>
  ctx.credentials('quickstart', ...kinds).map(({ label, auth }) => ({ label, options: { auth, json: validMessage(ctx) } }));

export const QUICKSTART_CHECKS: Check[] = [
  check('QS-OK', async (ctx) => {
    const { exchange } = await sentMessage(ctx);
    const body = expectSchema(ctx.quickstartSpec, exchange, 'Message', 'a valid message');
    if (body.status === 'queued') ctx.note('the message was only queued (status "queued")');
    else ctx.note(`message status: ${showJson(body.status)}`);
    // a message holding a long run of digits (an order or a phone number) is as valid
    expect2xx(await ctx.sendMessage({ json: { message: `${ctx.runPrefix} order 12345678901234567890` } }), 'a valid message holding a run of 20 digits');
    judgeSuccesses(ctx, 'sendMessage', 'Message');
  }),

  check('QS-CREATED-AT-UTC', async (ctx) => {
    const { exchange, body } = await sentMessage(ctx);
    if (utcInstant(body?.createdAt) === undefined) fail(`createdAt is ${showJson(body?.createdAt)}, not an ISO 8601 timestamp in UTC`, exchange);
  }),

  check('QS-CREATED-AT-ZONE', async (ctx) => {
    const { exchange, createdAt: value } = await createdAt(ctx);
    if (!ISO_DATE_TIME.exec(value)?.[ZONE]) fail(`createdAt ${value} has no zone designator: ISO 8601 reads it as local time`, exchange);
  }),

  check('QS-CREATED-AT-CLOCK', async (ctx) => {
    const { exchange, createdAt: value, instant } = await createdAt(ctx);
    const { sentAt, answeredAt } = await ctx.quickstart.message();
    const tolerance = ctx.clockToleranceMs;
    const offset = instant < sentAt ? instant - sentAt : instant > answeredAt ? instant - answeredAt : 0;
    const shown = `${offset >= 0 ? '+' : '-'}${formatDuration(Math.abs(offset))}`;
    if (Math.abs(offset) > tolerance) {
      fail(
        `createdAt ${value} is ${shown} away from the suite's clock around the request (${new Date(sentAt).toISOString()}), more than the tolerance of ${formatDuration(tolerance)} (CLOCK_TOLERANCE): not the time of creation in UTC`,
        exchange,
      );
    }
    ctx.note(`createdAt is ${shown} from the suite's clock around the request (tolerance ${formatDuration(tolerance)})`);
  }),

  check('QS-ECHO', async (ctx) => {
    const { sent, exchange, body } = await sentMessage(ctx);
    if (body?.message !== sent.message) fail(`message came back as ${showJson(body?.message)}, sent ${showJson(sent.message)}`, exchange);
  }),

  // each probe carries a valid message, which a server that takes the header for a key queues
  check('QS-AUTH-MISSING', (ctx) => expectRejected(ctx, 401, credentials(ctx, ...ctx.sample<CredentialKind>(['missing', 'empty'])))),

  check('QS-AUTH-INVALID-KEY', (ctx) => {
    const kinds: CredentialKind[] = ['random', 'changed', 'case-changed', 'second-word', 'extended', 'shortened', 'prefixed', 'unset-variable'];
    return expectRejected(ctx, 401, credentials(ctx, ...ctx.sample(kinds)));
  }),

  // without a key; health's writes carry {}, nothing a server could queue
  check('QS-NO-BYPASS', (ctx) => {
    const json = ctx.profile === 'certify' ? validMessage(ctx) : {};
    const path = ctx.quickstartSpec.operation('sendMessage').path;
    const canonical = () => ctx.sendMessage({ auth: 'none', json });
    const send = (method: string, to: string, label = `${method} ${to}`) => ({
      label,
      send: () => ctx.request(method, to, { auth: 'none', ...(['POST', 'PUT', 'PATCH'].includes(method) && { json }) }, 'quickstart'),
      canonical,
    });
    const spellings = pathSpellings(path).slice(0, 2);
    const probes = [
      ...spellings.map((s) => send('POST', s.path, `POST ${s.path} (${s.label})`)),
      ...['GET', 'PUT', 'PATCH', 'DELETE'].map((m) => send(m, path)),
    ];
    return expectNoData(ctx, probes, 'QS-AUTH-MISSING');
  }),

  check('QS-VALID-SPELLINGS', (ctx) =>
    eachProbe(bodySpellingsOf(ctx.quickstartSpec.operation('sendMessage').mediaType!), async ({ label, options }) => {
      const ex = await ctx.sendMessage({ json: validMessage(ctx), ...options });
      // a 411 passes, as in HTTP-VALID-SPELLINGS
      if (options.chunked && ex.status === 411) return ctx.note(`${label}: ${ex.summary}, a length required`);
      if (!ex.succeeded) fail(`a valid message with ${label}: expected a 2xx status, got ${ex.summary}`, ex);
    }),
  ),

  check('QS-AUTH-MALFORMED', (ctx) => expectRejected(ctx, 401, credentials(ctx, 'no-scheme', 'other-scheme', 'scheme-only', 'glued', 'scheme-twice'))),

  // an empty body is no JSON either: a body parser may hand the code nothing at all
  check('QS-INVALID-JSON', (ctx) =>
    expectRejected(ctx, 400, [
      { label: 'invalid JSON', options: { raw: JSON.stringify(validMessage(ctx)).slice(0, -1) } },
      { label: 'an empty body', options: { raw: '' } },
    ]),
  ),

  // the preflight sent {} with the key
  check('QS-MISSING-MESSAGE', async (ctx) => {
    const ex = await ctx.quickstart.messagePreflight();
    ctx.cite(ex);
    expectStatus(ex, [400], 'a message with no message field');
    const sent = validMessage(ctx);
    const notObject = [
      { label: 'a JSON string for a body', options: { json: sent.message } },
      { label: 'a JSON array for a body', options: { json: [sent] } },
    ];
    await expectRejected(ctx, 400, ctx.sample(notObject, 'notObject'));
  }),

  check('QS-MISSING-CONTENT-TYPE', (ctx) =>
    expectRejected(ctx, 400, [{ label: 'a valid JSON body but no Content-Type header', options: { json: validMessage(ctx), contentType: null } }]),
  ),

  check('QS-NON-STRING-MESSAGE', (ctx) => expectRejected(ctx, 400, [{ label: 'message as a number', options: { json: { message: 42 } } }])),

  check('QS-NO-5XX', async (ctx) => expectNoServerErrors(ctx, 'quickstart')),
];
