// Every animal a view of the run shows, held to the writes the run sent.
import type { CheckContext } from '../harness/run/context.js';
import {
  animalsShown,
  brief,
  canonicalText,
  integerText,
  isSafeMethod,
  isRateLimit,
  isServerError,
  newPetProperties,
  nextTurn,
  parseJson,
  sameJson,
  sameMeaning,
  sentNewPet,
  type Exchange,
  type RunAnimal,
} from '../harness/run/kit.js';
import type { Offence } from './transcript.js';

// null and absent are the same value of an optional field
const valueOf = (pet: Record<string, unknown>, field: string) => pet[field] ?? undefined;

/** AUTH-EVERY-METHOD judges what became of the animals it wrote to. */
function writtenTo(observed: Exchange[]): Set<string> {
  const writes = observed.filter((ex) => !ex.request.operation && !isSafeMethod(ex.request.method) && ex.request.method !== 'POST');
  return new Set(writes.map((ex) => new URL(ex.request.url).pathname.split('/').pop() ?? ''));
}

type Seen = { value: unknown; from: number; to: number; ex: Exchange };

const seenIn = (ex: Exchange, value: unknown): Seen => ({ value, from: ex.sentAt, to: ex.sentAt + ex.durationMs, ex });

/** A value back to one it had left in views that do not overlap (A, B, A): two at once; one change is a transition. */
function wentBack(seen: Seen[]): [Seen, Seen, Seen] | undefined {
  for (const b of seen) {
    const before = seen.find((a) => a.to < b.from && !sameJson(a.value, b.value));
    const after = before && seen.find((c) => c.from > b.to && sameJson(c.value, before.value));
    if (before && after) return [before, b, after];
  }
  return undefined;
}

interface Views {
  /** CREATE-VIEWS-AGREE's */
  disagree: Offence[];
  /** CREATE-STORED-AS-SENT's: the same in meaning, not as sent */
  canonicalised: Offence[];
  views: number;
  animals: number;
}

/** Judged once a run, for both requirements. */
export function judgeViews(ctx: CheckContext) {
  const done = viewsOfRun.get(ctx.seeding) ?? viewsIn(ctx, ctx.seeding.runAnimals());
  viewsOfRun.set(ctx.seeding, done);
  return done;
}

const viewsOfRun = new WeakMap<object, Promise<Views>>();

async function viewsIn(ctx: CheckContext, made: RunAnimal[]) {
  const observed = ctx.observed('store');
  const excluded = writtenTo(observed);
  // an id two creations share is CREATE-ID-UNIQUE's to judge
  const shared = new Set(made.filter((a, i) => made.findIndex((b) => b.id === a.id) !== i).map((a) => a.id));
  const model = new Map<string, { sent: Record<string, unknown>; created: Exchange }>();
  for (const a of made) {
    const sent = !excluded.has(a.id) && !shared.has(a.id) ? sentNewPet(a, ctx.spec) : undefined;
    if (sent) model.set(a.id, { sent, created: a.created });
  }
  const fields = Object.keys(newPetProperties(ctx.spec)).filter((f) => f !== 'status');
  const disagree: Offence[] = [];
  const canonicalised: Offence[] = [];
  const statuses = new Map<string, Seen[]>();
  let views = 0;
  for (const ex of observed) {
    await nextTurn(); // an answer a turn: a page may hold 200,000 animals
    // a longer page (a hostile server's 200,000) is the limit checks' to fail
    for (const pet of animalsShown(ex, ctx.spec.limit.max)) {
      const id = integerText(pet.id);
      const animal = model.get(id);
      if (!animal) continue;
      views++;
      const { sent } = animal;
      const changed = fields.find((f) => f in sent && !sameMeaning(valueOf(pet, f), sent[f]));
      if (changed) {
        disagree.push({ ex, why: `animal ${id}: ${changed} is ${brief(valueOf(pet, changed))}, sent as ${brief(sent[changed])}` });
        continue;
      }
      const exact = fields.find((f) => f in sent && !sameJson(valueOf(pet, f), sent[f]));
      if (exact) canonicalised.push({ ex, why: `animal ${id}: ${exact} is ${brief(valueOf(pet, exact))}, sent as ${brief(sent[exact])}` });
      const status = valueOf(pet, 'status');
      if (status === undefined && 'status' in sent) {
        disagree.push({ ex, why: `animal ${id}: status is none, sent as ${brief(sent.status)}` });
        continue;
      }
      if (status !== undefined) statuses.set(id, [...(statuses.get(id) ?? []), seenIn(ex, status)]);
    }
  }
  for (const [id, seen] of statuses) {
    const { sent, created } = model.get(id)!;
    const all = 'status' in sent ? [{ value: sent.status, from: created.sentAt, to: created.sentAt, ex: created }, ...seen] : seen;
    const back = wentBack(all);
    if (back) {
      const [a, b, c] = back;
      disagree.push({
        ex: c.ex,
        why: `animal ${id}: status is ${brief(c.value)} here, ${brief(b.value)} in ${b.ex.summary} before, and ${brief(a.value)} in ${a.ex.summary} before that`,
      });
    }
  }
  return { disagree, canonicalised, views, animals: model.size };
}

/** The names a write carried. */
function stringsOf(text: string | undefined) {
  const found: string[] = [];
  const walk = (v: unknown, depth: number) => {
    if (typeof v === 'string') found.push(canonicalText(v));
    else if (v && typeof v === 'object' && depth < 4) for (const item of Object.values(v)) walk(item, depth + 1);
  };
  try {
    walk(parseJson(text ?? ''), 0);
  } catch {
    // no JSON: no names
  }
  return found;
}

/** Only a write with no definite answer may explain an animal with a name the run wrote that no accepted write answered with. */
export async function judgeWrites(ctx: CheckContext): Promise<{ offences: Offence[]; names: number }> {
  const observed = ctx.observed('store');
  const writes = ctx.sent('store').filter((ex) => !isSafeMethod(ex.request.method) && ex.request.body !== undefined && !isRateLimit(ex));
  const accepted = new Set(writes.filter((ex) => ex.succeeded).flatMap((ex) => animalsShown(ex).map((p) => integerText(p.id))));
  const byName = new Map<string, Exchange[]>();
  for (const ex of writes) {
    for (const name of new Set(stringsOf(ex.request.body))) if (name.includes(ctx.runPrefix)) byName.set(name, [...(byName.get(name) ?? []), ex]);
  }
  const unexplained = new Map<string, Map<string, Exchange>>();
  for (const ex of observed) {
    await nextTurn();
    for (const pet of animalsShown(ex, ctx.spec.limit.max)) {
      const id = integerText(pet.id);
      if (typeof pet.name !== 'string' || accepted.has(id) || !byName.has(canonicalText(pet.name))) continue;
      const name = canonicalText(pet.name);
      if (!unexplained.has(name)) unexplained.set(name, new Map());
      if (!unexplained.get(name)!.has(id)) unexplained.get(name)!.set(id, ex);
    }
  }
  const offences: Offence[] = [];
  for (const [name, shown] of unexplained) {
    const sentBy = byName.get(name)!;
    const uncertain = sentBy.filter((w) => isServerError(w) || w.status === 0 || (w.superseded && !w.succeeded)).length;
    if (shown.size <= uncertain) continue;
    const [id, ex] = [...shown][uncertain];
    const refused = sentBy.filter((w) => w.status >= 400 && w.status < 500);
    const took = sentBy.filter((w) => w.succeeded);
    const why = took.length
      ? `animal ${id} named ${brief(name)} is one more than the ${took.length} accepted write${took.length === 1 ? '' : 's'} of that name made (${took[0].summary})`
      : `animal ${id} named ${brief(name)} was sent only in ${refused.length === 1 ? 'a write' : `${refused.length} writes`} the store refused (${refused[0]?.summary})`;
    offences.push({ ex, why });
  }
  return { offences, names: byName.size };
}
