// The quickstart message service at its own base address. The success status is
// not documented, so any 2xx passes. The rejection probes run in every profile;
// a valid message is sent only in certify (it would queue one).
import { check } from '../harness/registry.js';
import type { Auth, CheckContext, CallOptions } from '../harness/context.js';
import { eachProbe, expectSchema, expectStatus } from '../harness/expect.js';
import { Inconclusive, fail } from '../harness/outcome.js';
import { showJson } from '../harness/json.js';

const is2xx = (status: number) => status >= 200 && status < 300;

/** The one valid message of the run, answered 2xx with a Message body. */
async function sentMessage(ctx: CheckContext) {
  const { sent, exchange } = await ctx.fixtures.message();
  ctx.cite(exchange);
  if (!is2xx(exchange.status)) fail(`a valid message: expected a 2xx status, got ${exchange.summary}`, exchange);
  return { sent, exchange, body: exchange.json as Record<string, any> | undefined };
}

check('QS-OK', async (ctx) => {
  const { exchange } = await sentMessage(ctx);
  const body = expectSchema(ctx.quickstartSpec, exchange, 'Message', 'a valid message');
  if (body.status === 'queued') ctx.note('the message was only queued (status "queued")');
  else ctx.note(`message status: ${showJson(body.status)}`);
});

// ISO 8601 date-time in UTC: Z or a zero offset, fractional seconds allowed
const UTC_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]00:?00)$/i;

check('QS-CREATED-AT-UTC', async (ctx) => {
  const { exchange, body } = await sentMessage(ctx);
  const createdAt = body?.createdAt;
  if (typeof createdAt !== 'string' || !UTC_TIMESTAMP.test(createdAt) || Number.isNaN(Date.parse(createdAt))) {
    fail(`createdAt is ${showJson(createdAt)}, not an ISO 8601 timestamp in UTC`, exchange);
  }
});

check('QS-ECHO', async (ctx) => {
  const { sent, exchange, body } = await sentMessage(ctx);
  if (body?.message !== sent.message) fail(`message came back as ${showJson(body?.message)}, sent ${showJson(sent.message)}`, exchange);
});

const validMessage = (ctx: CheckContext) => ({ message: `${ctx.runPrefix} probe` });

async function expectRejected(ctx: CheckContext, status: number, probes: Array<{ label: string; options: CallOptions }>) {
  await eachProbe(probes, async ({ label, options }) => {
    const ex = await ctx.sendMessage(options);
    expectStatus(ex, [status], `a message with ${label}`);
  });
}

/** Authentication probes carry a valid body: 400 and 401 have no stated precedence. */
const withAuth = (ctx: CheckContext, label: string, auth: Auth) => ({ label, options: { auth, json: validMessage(ctx) } });

check('QS-AUTH-MISSING', (ctx) => expectRejected(ctx, 401, [withAuth(ctx, 'no Authorization header', 'none')]));

check('QS-AUTH-INVALID-KEY', (ctx) =>
  expectRejected(ctx, 401, [withAuth(ctx, 'an invalid bearer key (the key with its last character changed)', { header: `Bearer ${ctx.invalidQuickstartKey}` })]));

check('QS-AUTH-MALFORMED', (ctx) => expectRejected(ctx, 401, [
  withAuth(ctx, 'the raw key as the header', { header: ctx.quickstartApiKey }),
  withAuth(ctx, 'Token <key>', { header: `Token ${ctx.quickstartApiKey}` }),
  withAuth(ctx, 'Basic <key>', { header: `Basic ${ctx.quickstartApiKey}` }),
  withAuth(ctx, 'Bearer with nothing after it', { header: 'Bearer' }),
]));

check('QS-INVALID-JSON', (ctx) =>
  expectRejected(ctx, 400, [{ label: 'invalid JSON', options: { raw: JSON.stringify(validMessage(ctx)).slice(0, -1) } }]));

// the quickstart preflight sent this very probe: {} with the key
check('QS-MISSING-MESSAGE', async (ctx) => {
  const ex = await ctx.fixtures.messagePreflight();
  ctx.cite(ex);
  expectStatus(ex, [400], 'a message with no message field');
});

check('QS-MISSING-CONTENT-TYPE', (ctx) =>
  expectRejected(ctx, 400, [{ label: 'a valid JSON body but no Content-Type header', options: { json: validMessage(ctx), contentType: null } }]));

check('QS-NON-STRING-MESSAGE', (ctx) =>
  expectRejected(ctx, 400, [{ label: 'message as a number', options: { json: { message: 42 } } }]));

check('QS-NO-5XX', async (ctx) => {
  const observed = ctx.session.answered('quickstart');
  if (observed.length === 0) throw new Inconclusive('no quickstart response was observed');
  const errors = observed.filter((ex) => ex.status >= 500);
  if (errors.length) fail(`${errors.length} of ${observed.length} quickstart responses were server errors: ${errors.slice(0, 3).map((e) => e.summary).join(' | ')}`, ...errors);
  ctx.note(`${observed.length} quickstart responses judged`);
}, { observer: true });
