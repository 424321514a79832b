// One valid NewPet sent and followed back: the 2xx body, getPet, and any list page
// that shows it. Whatever a server accepts must come back exactly (integers compared
// as exact int64, strings code unit for code unit); a valid value may be refused only
// with the documented 400. Used for the edge bodies and the generated examples alike.
import { pollWithinWindow } from './window.js';
import { isServerError, type Exchange } from '../http/exchange.js';
import { integerText, isInteger, sameJson, showJson } from '../model/json.js';
import type { Session } from './session.js';
import { isRemoved } from '../api/spec.js';

/**
 * exact: accepted and came back as sent wherever it was looked at; refused: 400 (or
 * 413, HTTP's status for a body over a size limit the description does not state);
 * wrong-status: any other refusal; changed: a field came back otherwise; lost: accepted,
 * but getPet does not find it; unjudged: a server error, also when sent again (the
 * NO-5XX requirement's finding, not this one's).
 */
export type RoundTripKind = 'exact' | 'refused' | 'wrong-status' | 'changed' | 'lost' | 'unjudged';

export interface RoundTrip {
  /** What the value is, for messages: "name is the empty string", "generated example 3". */
  label: string;
  /** The one field that carries an edge value (edge bodies only). */
  field?: string;
  sent: Record<string, unknown>;
  kind: RoundTripKind;
  /** Why it is not exact. */
  why?: string;
  /** The creation first, then what was asked to see it again. */
  exchanges: Exchange[];
  /** The id the server gave it. */
  id?: string;
}

/**
 * How `got` differs in meaning from what was sent (a change of form alone, trimmed or
 * normalised text, is CREATE-STORED-AS-SENT's to judge on every view), where it was seen.
 */
function judgeBack(trip: RoundTrip, got: unknown, where: string): string | undefined {
  const changed = difference(trip.sent, got, sameMeaning);
  return changed && `${changed} in ${where}`;
}

/** The kinds that break a MUST (CREATE-ROUND-TRIP); refused is left to a SHOULD. */
export const isBroken = (t: RoundTrip) => t.kind === 'changed' || t.kind === 'lost' || t.kind === 'wrong-status';

/** A refusal of a valid value: 400, 413 or 403 (why these: CREATE-ROUND-TRIP's accepts). */
const isRefusedStatus = (status: number) => status === 400 || status === 413 || status === 403;

/** A string value for messages: whole when short, else its length and its start. */
export function brief(value: unknown): string {
  const text = showJson(value);
  // cut by code points, so that no surrogate pair is split
  return typeof value === 'string' && text.length > 80 ? `${[...text].slice(0, 60).join('')}…" (${[...value].length} characters)` : text;
}

const codePoints = (chars: string[]) => chars.map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(' ') || 'nothing';

/**
 * How one sent value came back, when it did not come back exactly. For strings, where
 * they first differ, in code points: an NFC-normalised name looks the same as the one
 * sent, and a long one cannot be shown whole.
 */
function change(field: string, sent: unknown, got: unknown): string {
  const text = `${field} was sent as ${brief(sent)} and came back as ${brief(got)}`;
  if (typeof sent !== 'string' || typeof got !== 'string') return text;
  const a = [...sent];
  const b = [...got];
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `${text}: first difference at character ${i + 1} of ${a.length} (sent ${codePoints(a.slice(i, i + 4))}, got ${codePoints(b.slice(i, i + 4))})`;
}

/**
 * Text as a store may keep it without changing what it says: trimmed of the white space
 * around it, in Unicode's canonical composition (NFC; NFD text composes to the same).
 * Truncation, escaping, case folding, NFKC or characters dropped inside it change it.
 */
export const canonicalText = (text: string) => text.trim().normalize('NFC');

/** The same value, text the same in meaning (canonicalText). */
export const sameMeaning = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' ? canonicalText(a) === canonicalText(b) : sameJson(a, b);

/** The first field of `sent` that `got` does not carry (by `same`: exactly, unless told otherwise), described; undefined when all do. */
export function difference(sent: Record<string, unknown>, got: unknown, same = sameJson): string | undefined {
  if (!got || typeof got !== 'object' || Array.isArray(got)) return `the answer is not a JSON object: ${brief(got)}`;
  for (const [field, value] of Object.entries(sent)) {
    const back = (got as Record<string, unknown>)[field];
    if (!same(back, value)) return change(field, value, back);
  }
  return undefined;
}

/** Creates the animal and follows it back (getPet, unless past its removal date). */
export async function roundTrip(session: Session, sent: Record<string, unknown>, label: string, field?: string): Promise<RoundTrip> {
  return followBack(session, await createForTrip(session, sent, label, field));
}

/**
 * The first half of a round trip: creates the animal and judges the answer. The trip
 * is exact with an id when it can be followed back (followBack); apart so that a list
 * page can be asked for as soon as the animals exist, while they are being fetched.
 */
export async function createForTrip(session: Session, sent: Record<string, unknown>, label: string, field?: string): Promise<RoundTrip> {
  const created = await session.call('store', 'createPet', { json: sent });
  const trip: RoundTrip = { label, ...(field && { field }), sent, kind: 'exact', exchanges: [created] };
  const result = (kind: RoundTripKind, why: string) => Object.assign(trip, { kind, why });
  if (isRefusedStatus(created.status)) {
    return result('refused', `refused: ${created.summary}${created.status === 403 ? ' (a policy: a web application firewall?)' : ''}`);
  }
  if (isServerError(created)) return result('unjudged', `${created.summary}, a server error also when sent again: not judged`);
  if (created.status < 200 || created.status >= 300)
    return result('wrong-status', `${created.summary}: neither accepted (201) nor refused with the documented 400`);
  const pet = created.json as Record<string, unknown> | undefined;
  const changed = judgeBack(trip, pet, created.summary);
  if (changed) return result('changed', changed);
  // an id that is not an integer (CREATE-OK says so) cannot be fetched
  if (isInteger(pet!.id)) trip.id = integerText(pet!.id);
  return trip;
}

/** The second half: fetches an accepted animal with getPet (unless past its removal date) and judges it. */
export async function followBack(session: Session, trip: RoundTrip): Promise<RoundTrip> {
  const petId = trip.id;
  if (trip.kind !== 'exact' || petId === undefined) return trip;
  if (isRemoved(session.specs.store.operation('getPet'), session.options.now)) return trip;
  const result = (kind: RoundTripKind, why: string) => Object.assign(trip, { kind, why });
  // a store may show a write a moment after answering it: a 404 is asked again within
  // --consistency-window of the write, as GET-OK does
  const fetch = async () => {
    const ex = await session.call('store', 'getPet', { params: { petId } });
    trip.exchanges.push(ex);
    return ex;
  };
  const written = performance.now();
  const fetched = (await pollWithinWindow(session, await fetch(), fetch, (ex) => ex.status === 404, written)).value;
  if (isServerError(fetched)) return result('unjudged', `accepted as id ${trip.id}, but getPet: ${fetched.summary}, a server error: not judged`);
  if (fetched.status !== 200) return result('lost', `accepted as id ${trip.id}, but ${fetched.summary}`);
  const fetchedChange = judgeBack(trip, fetched.json, fetched.summary);
  return fetchedChange ? result('changed', fetchedChange) : trip;
}

/**
 * Judges the accepted values a list page shows (found by id): each must be exact there
 * too. The list cannot be searched for one animal (no pagination beyond limit), so
 * those it does not show are not judged here. Returns how many were found.
 */
export function compareListed(trips: RoundTrip[], page: Exchange): number {
  const items = page.status === 200 && Array.isArray(page.json) ? (page.json as unknown[]) : [];
  const byId = new Map<string, unknown>();
  for (const item of items) {
    const id = (item as Record<string, unknown> | null)?.id;
    if (isInteger(id)) byId.set(integerText(id), item);
  }
  let found = 0;
  for (const trip of trips.filter((t) => t.kind === 'exact' && t.id !== undefined && byId.has(t.id))) {
    found++;
    const listedChange = judgeBack(trip, byId.get(trip.id!), page.summary);
    if (listedChange) Object.assign(trip, { kind: 'changed', why: listedChange });
    trip.exchanges.push(page);
  }
  return found;
}

/**
 * The fields the run's configuration sets besides the name: references to records the
 * description does not show (categoryId), which a server may know only some of.
 */
export function referenceValues(session: Session): Record<string, unknown> {
  const { name: _name, ...references } = session.petValues('');
  return references;
}

/**
 * Whether a refusal is judged (CREATE-VALID-ACCEPTED, whose accepts says why): every
 * reference field carries the configured value, or the store took (a 2xx, among
 * `trips`, or the configured value) integers on both sides of the one it refused.
 */
export function refusalCounts(trip: RoundTrip, references: Record<string, unknown>, trips: RoundTrip[] = []): boolean {
  const unconfigured = (field: string) => field in trip.sent && !sameJson(trip.sent[field], references[field]);
  const takenAround = (field: string) => {
    const refused = trip.sent[field];
    if (!isInteger(refused)) return false;
    const n = BigInt(integerText(refused));
    const taken = [references[field], ...trips.filter((t) => t !== trip && ['exact', 'changed', 'lost'].includes(t.kind)).map((t) => t.sent[field])]
      .filter(isInteger)
      .map((v) => BigInt(integerText(v)));
    return taken.some((v) => v < n) && taken.some((v) => v > n);
  };
  return Object.keys(references).filter(unconfigured).every(takenAround);
}
