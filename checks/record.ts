// The checks of a record of traffic (`judge <file.har>`): what no entry speaks to is skipped, never passed.
import type { CheckContext } from '../harness/run/context.js';
import {
  check,
  expectNoServerErrors,
  handsOutData,
  integerText,
  isInteger,
  pageItems,
  plural,
  sentNewPet,
  Skip,
  type Check,
  type Exchange,
} from '../harness/run/kit.js';
import { credentialOf, NO_ENTRY } from '../harness/run/record.js';
import { echoProblem } from './create.js';
import { judgeViews, judgeWrites } from './model.js';
import { utcInstant } from './quickstart.js';
import {
  judgeEach,
  judgeErrorBodies,
  judgeErrorStatuses,
  judgeListAnswers,
  judgeMediaTypes,
  judgeSuccesses,
  judgeUniqueIds,
  reportOffences,
  storeErrors,
} from './transcript.js';

function judged(count: number) {
  if (count === 0) throw new Skip(NO_ENTRY);
}

const successes = (ctx: CheckContext, operation: string) =>
  ctx
    .observed(operation === 'sendMessage' ? 'quickstart' : 'store')
    .filter((ex) => ex.request.operation === operation && ex.succeeded && ex.json !== undefined);

function credentialRule(ctx: CheckContext, kind: 'none' | 'other', what: string) {
  const secured = ctx.observed('store').filter((ex) => ex.request.operation && ctx.spec.operation(ex.request.operation).secured);
  if (!secured.some((ex) => ex.request.headers?.authorization !== undefined)) {
    throw new Skip('not tested: no entry of the record carries an Authorization header (a sanitised export strips them)');
  }
  if (kind === 'other' && !ctx.apiKey) throw new Skip('not tested: API_KEY is not set, so which bearer token is valid is not known');
  const asked = secured.filter((ex) => credentialOf(ex.request, ctx.apiKey) === kind);
  judged(asked.length);
  judgeEach(ctx, asked, (ex) => handsOutData(ex, ctx.runPrefix) && 'got data', `${plural(asked.length, 'request')} ${what}`, 'got data');
}

/** For a bad value, whatever the server made of it, at most the maximum. */
function limitOf(ctx: CheckContext, ex: Exchange): { id: string; most: number } {
  const { min, max, default: fallback } = ctx.spec.limit;
  const values = new URL(ex.request.url).searchParams.getAll('limit');
  if (values.length === 0) return { id: 'LIST-LIMIT-DEFAULT', most: fallback };
  const [value] = values;
  if (values.length > 1) return { id: 'LIST-LIMIT-ANY', most: max };
  if (!/^-?\d+$/.test(value)) return { id: 'LIST-LIMIT-NOT-INTEGER', most: max };
  const limit = BigInt(value);
  if (limit < BigInt(min)) return { id: 'LIST-LIMIT-BELOW-MIN', most: max };
  if (limit > BigInt(max)) return { id: 'LIST-LIMIT-ABOVE-MAX', most: max };
  return { id: Number(limit) === min ? 'LIST-LIMIT-MIN' : Number(limit) === max ? 'LIST-LIMIT-MAX' : 'LIST-LIMIT-ANY', most: Number(limit) };
}

function pageLengths(ctx: CheckContext, id: string) {
  const pages = successes(ctx, 'listPets').filter((ex) => pageItems(ex) && limitOf(ctx, ex).id === id);
  judged(pages.length);
  const why = (ex: Exchange) => pageItems(ex)!.length > limitOf(ctx, ex).most && `${pageItems(ex)!.length} animals, more than ${limitOf(ctx, ex).most}`;
  judgeEach(ctx, pages, why, plural(pages.length, 'page'), 'hold more animals than they may');
}

const LIMIT_RULES = ['DEFAULT', 'MIN', 'MAX', 'ANY', 'BELOW-MIN', 'ABOVE-MAX', 'NOT-INTEGER'].map((rule) => `LIST-LIMIT-${rule}`);

const segmentId = (url: string) => {
  const segment = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  return /^-?\d+$/.test(segment) ? BigInt(segment) : undefined;
};

export const RECORD_CHECKS: Check[] = [
  check('AUTH-MISSING-HEADER', async (ctx) => credentialRule(ctx, 'none', 'without a key')),
  check('AUTH-INVALID-KEY', async (ctx) => credentialRule(ctx, 'other', 'with another bearer token')),
  check('ERR-BODY-SHAPE', async (ctx) => judged(judgeErrorBodies(ctx, storeErrors(ctx)))),
  check('ERR-STATUS-MATCHES', async (ctx) => judged(judgeErrorStatuses(ctx, storeErrors(ctx)))),
  check('STORE-NO-5XX', async (ctx) => expectNoServerErrors(ctx, 'store')),
  check('MEDIA-JSON', async (ctx) => judged(judgeMediaTypes(ctx))),
  check('LIST-OK', async (ctx) => judged(judgeListAnswers(ctx))),
  ...LIMIT_RULES.map((id) => check(id, async (ctx) => pageLengths(ctx, id))),

  check('LIST-STATUS-FILTER', async (ctx) => {
    const statusOf = (ex: Exchange) => new URL(ex.request.url).searchParams.getAll('status');
    const pages = successes(ctx, 'listPets').filter((ex) => pageItems(ex) && statusOf(ex).length === 1 && ctx.spec.statuses.includes(statusOf(ex)[0]));
    judged(pages.length);
    const why = (ex: Exchange) => {
      // an item that is no object is LIST-OK's to fail
      const other = pageItems(ex)!.find((p) => p !== null && typeof p === 'object' && p.status !== statusOf(ex)[0]);
      return other && `animal ${isInteger(other?.id) ? integerText(other.id) : '?'} has status ${other?.status ?? 'none'}`;
    };
    judgeEach(ctx, pages, why, plural(pages.length, 'filtered page'), 'hold an animal of another status');
  }),
  check('LIST-IDS-UNIQUE', async (ctx) => judged(await judgeUniqueIds(ctx))),

  check('CREATE-OK', async (ctx) => judged(judgeSuccesses(ctx, 'createPet', 'Pet', { status: 201 }))),
  check('CREATE-ECHO', async (ctx) => {
    const made = ctx.seeding.runAnimals().filter((a) => sentNewPet(a, ctx.spec));
    judged(made.length);
    const offences = made.flatMap((a) => {
      const why = echoProblem(ctx, sentNewPet(a, ctx.spec)!, a.pet);
      return why ? [{ ex: a.created, why }] : [];
    });
    reportOffences(ctx, offences, plural(made.length, 'animal created from a valid NewPet', 'animals created from a valid NewPet'), 'do not echo it');
  }),
  check('CREATE-VIEWS-AGREE', async (ctx) => {
    const { disagree, views, animals } = await judgeViews(ctx);
    judged(animals);
    reportOffences(ctx, disagree, `${plural(views, 'view')} of the record's ${plural(animals, 'animal')}`, 'disagree with how they were made');
  }),
  // only names the record marks as its own (this tool's exchanges.har names its data)
  check('CREATE-WRITES-ACCOUNTED', async (ctx) => {
    const { offences, names } = await judgeWrites(ctx);
    judged(names);
    reportOffences(ctx, offences, `the animals shown with the ${names} names the record's writes carried`, 'were added by no write the store accepted');
  }),

  check('GET-OK', async (ctx) => {
    judged(judgeSuccesses(ctx, 'getPet', 'Pet'));
    const answers = successes(ctx, 'getPet');
    const why = (ex: Exchange) => {
      const [asked, id] = [segmentId(ex.request.url), (ex.json as any)?.id];
      return asked !== undefined && isInteger(id) && BigInt(id) !== asked && `answered with animal ${integerText(id)}`;
    };
    judgeEach(ctx, answers, why, `${plural(answers.length, 'getPet answer')} against the id asked`, 'answer another animal');
  }),

  check('QS-OK', async (ctx) => judged(judgeSuccesses(ctx, 'sendMessage', 'Message'))),
  check('QS-CREATED-AT-UTC', async (ctx) => {
    const messages = successes(ctx, 'sendMessage').filter((ex) => typeof ex.json === 'object' && ex.json !== null);
    judged(messages.length);
    const why = ({ json }: Exchange) =>
      utcInstant((json as any).createdAt) === undefined && `createdAt is ${JSON.stringify((json as any).createdAt) ?? 'absent'}`;
    judgeEach(ctx, messages, why, plural(messages.length, 'message'), 'carry no ISO 8601 timestamp in UTC');
  }),
  check('QS-NO-5XX', async (ctx) => {
    judged(ctx.observed('quickstart').length);
    expectNoServerErrors(ctx, 'quickstart');
  }),
];
