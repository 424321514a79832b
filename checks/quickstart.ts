// The quickstart message service at its own base address. The success status is
// not documented, so any 2xx passes. The rejection probes run in every profile;
// a valid message is sent only in certify (it would queue one).
import type { Auth, CallOptions, CheckContext } from '../harness/run/context.js';
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
} from '../harness/run/kit.js';
import { judgeSuccesses } from './transcript.js';

/** The one valid message of the run, answered 2xx with a Message body. */
async function sentMessage(ctx: CheckContext) {
  const { sent, exchange } = await ctx.quickstart.message();
  ctx.cite(exchange);
  unjudgedOnServerError(exchange, 'a valid message');
  if (!exchange.succeeded) fail(`a valid message: expected a 2xx status, got ${exchange.summary}`, exchange);
  return { sent, exchange, body: exchange.json as Record<string, any> | undefined };
}

/**
 * An ISO 8601 date-time (a calendar date and a time of day), extended
 * (2026-11-23T12:43:26Z) or basic (20261123T124326Z), to the minute or the second, a
 * fraction after a point or a comma, with an optional zone. Which forms pass and why:
 * QS-CREATED-AT-UTC's accepts.
 */
const ISO_DATE_TIME = new RegExp(
  '^(?:(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}):(\\d{2})(?::(\\d{2})([.,]\\d+)?)?' +
    '|(\\d{4})(\\d{2})(\\d{2})T(\\d{2})(\\d{2})(?:(\\d{2})([.,]\\d+)?)?)' +
    '(Z|[+-]\\d{2}(?::?\\d{2})?)?$',
  'i',
);

/** A zone designator that says UTC: Z, or a zero offset. */
const UTC_ZONE = /^(z|[+-]00(:?00)?)$/i;

/** The group of ISO_DATE_TIME that holds the zone designator. */
const ZONE = 15;

/** The zone designator of an ISO 8601 date-time; undefined when it has none. */
const zoneOf = (value: string): string | undefined => ISO_DATE_TIME.exec(value)?.[ZONE];

/** The instant a UTC timestamp names (a zone-less one read as UTC), or undefined. */
export function utcInstant(value: unknown): number | undefined {
  const m = typeof value === 'string' ? ISO_DATE_TIME.exec(value) : null;
  if (!m) return undefined;
  const zone = m[ZONE];
  if (zone && !UTC_ZONE.test(zone)) return undefined;
  const [y, mo, d, h, mi, s, fraction] = m[1] ? m.slice(1, 8) : m.slice(8, 15);
  const ms = Math.round(Number(`0.${(fraction ?? '.0').slice(1)}`) * 1000);
  const instant = Date.UTC(+y, +mo - 1, +d, +h, +mi, +(s ?? 0), ms);
  // the fields must name a real date and time (no month 13, no 25 o'clock)
  const back = new Date(instant);
  const real =
    back.getUTCFullYear() === +y && back.getUTCMonth() === +mo - 1 && back.getUTCDate() === +d && back.getUTCHours() === +h && back.getUTCMinutes() === +mi;
  return real && +(s ?? 0) < 60 ? instant : undefined;
}

const validMessage = (ctx: CheckContext) => ({ message: `${ctx.runPrefix} probe` });

async function expectRejected(ctx: CheckContext, status: number, probes: Array<{ label: string; options: CallOptions }>) {
  await eachProbe(probes, async ({ label, options }) => {
    const ex = await ctx.sendMessage(options);
    expectStatus(ex, [status], `a message with ${label}`);
  });
}

/** Authentication probes carry a valid body (why: QS-AUTH-MALFORMED's accepts). */
const withAuth = (ctx: CheckContext, label: string, auth: Auth) => ({ label, options: { auth, json: validMessage(ctx) } });

/** The quickstart key's credential classes of these kinds (credentials.ts), as probes carrying a valid message. */
const credentials = (ctx: CheckContext, ...kinds: CredentialKind[]) => ctx.credentials('quickstart', ...kinds).map((c) => withAuth(ctx, c.label, c.auth));

export const QUICKSTART_CHECKS: Check[] = [
  check('QS-OK', async (ctx) => {
    const { exchange } = await sentMessage(ctx);
    const body = expectSchema(ctx.quickstartSpec, exchange, 'Message', 'a valid message');
    if (body.status === 'queued') ctx.note('the message was only queued (status "queued")');
    else ctx.note(`message status: ${showJson(body.status)}`);
    // a message holding a long run of digits (an order or a phone number) is as valid
    const digits = await ctx.sendMessage({ json: { message: `${ctx.runPrefix} order 12345678901234567890` } });
    unjudgedOnServerError(digits, 'a valid message holding a run of 20 digits');
    if (!digits.succeeded) fail(`a valid message holding a run of 20 digits: expected a 2xx status, got ${digits.summary}`, digits);
    judgeSuccesses(ctx, 'sendMessage', 'Message');
  }),

  check('QS-CREATED-AT-UTC', async (ctx) => {
    const { exchange, body } = await sentMessage(ctx);
    const createdAt = body?.createdAt;
    if (utcInstant(createdAt) === undefined) fail(`createdAt is ${showJson(createdAt)}, not an ISO 8601 timestamp in UTC`, exchange);
  }),

  // why a SHOULD: the catalogue
  check('QS-CREATED-AT-ZONE', async (ctx) => {
    const { exchange, body } = await sentMessage(ctx);
    const createdAt = body?.createdAt;
    if (utcInstant(createdAt) === undefined) throw new Inconclusive('createdAt is not a UTC timestamp (see QS-CREATED-AT-UTC)', [exchange]);
    if (!zoneOf(createdAt)) fail(`createdAt ${createdAt} has no zone designator: ISO 8601 reads it as local time`, exchange);
  }),

  /**
   * createdAt, read as UTC, between the suite's clock just before sending and once the
   * answer was in, give or take CLOCK_TOLERANCE (why: the catalogue).
   */
  check('QS-CREATED-AT-CLOCK', async (ctx) => {
    const { exchange, body } = await sentMessage(ctx);
    const { sentAt, answeredAt } = await ctx.quickstart.message();
    const createdAt = body?.createdAt;
    const instant = utcInstant(createdAt);
    if (instant === undefined) throw new Inconclusive(`createdAt is not a UTC timestamp (see QS-CREATED-AT-UTC)`, [exchange]);
    const tolerance = ctx.clockToleranceMs;
    const offset = instant < sentAt ? instant - sentAt : instant > answeredAt ? instant - answeredAt : 0;
    const shown = `${offset >= 0 ? '+' : '-'}${formatDuration(Math.abs(offset))}`;
    if (Math.abs(offset) > tolerance) {
      fail(
        `createdAt ${createdAt} is ${shown} away from the suite's clock around the request (${new Date(sentAt).toISOString()}), more than the tolerance of ${formatDuration(tolerance)} (CLOCK_TOLERANCE): not the time of creation in UTC`,
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

  // Without a key, no spelling of the route nor another method on it gets a 2xx: in
  // certify the POSTs carry a valid message (a server that forgets the key there queues
  // it), in health {} (nothing a server could queue)
  check('QS-NO-BYPASS', (ctx) => {
    const json = ctx.profile === 'certify' ? validMessage(ctx) : {};
    const path = ctx.quickstartSpec.operation('sendMessage').path;
    const canonical = () => ctx.sendMessage({ auth: 'none', json });
    // every method HTTP defines but POST, a body where one may be read
    const methods = ['GET', 'PUT', 'PATCH', 'DELETE'].map((method) => ({
      label: `${method} ${path}`,
      send: () => ctx.quickstartRequest(method, path, { auth: 'none', ...(method === 'PUT' || method === 'PATCH' ? { json } : {}) }),
      canonical,
    }));
    return expectNoData(
      ctx,
      [
        ...pathSpellings(path)
          .slice(0, 2)
          .map((s) => ({ label: `POST ${s.path} (${s.label})`, send: () => ctx.quickstartRequest('POST', s.path, { auth: 'none', json }), canonical })),
        ...methods,
      ],
      'QS-AUTH-MISSING',
    );
  }),

  // the content type with a charset or in another case, and a chunked body (why: the catalogue)
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

  // the quickstart preflight sent this very probe: {} with the key; and JSON that is no
  // object (a server may take a bare string for the message, or an array's first item)
  check('QS-MISSING-MESSAGE', async (ctx) => {
    const ex = await ctx.quickstart.messagePreflight();
    ctx.cite(ex);
    expectStatus(ex, [400], 'a message with no message field');
    const sent = validMessage(ctx);
    await expectRejected(
      ctx,
      400,
      ctx.sample(
        [
          { label: 'a JSON string for a body', options: { json: sent.message } },
          { label: 'a JSON array for a body', options: { json: [sent] } },
        ],
        'notObject',
      ),
    );
  }),

  check('QS-MISSING-CONTENT-TYPE', (ctx) =>
    expectRejected(ctx, 400, [{ label: 'a valid JSON body but no Content-Type header', options: { json: validMessage(ctx), contentType: null } }]),
  ),

  check('QS-NON-STRING-MESSAGE', (ctx) => expectRejected(ctx, 400, [{ label: 'message as a number', options: { json: { message: 42 } } }])),

  check('QS-NO-5XX', async (ctx) => expectNoServerErrors(ctx, 'quickstart')),
];
