// One valid NewPet sent and followed back: whatever a server accepts must come back as sent.
import { pollWithinWindow } from './window.js';
import { isServerError, type Exchange } from '../http/exchange.js';
import { integerText, isInteger, sameJson, showJson } from '../model/json.js';
import type { Session } from './session.js';
import { pageItems } from './animals.js';

/** lost: accepted, but getPet does not find it; unjudged: a server error, also when sent again (NO-5XX's finding). */
type RoundTripKind = 'exact' | 'refused' | 'wrong-status' | 'changed' | 'lost' | 'unjudged';

export interface RoundTrip {
  label: string;
  /** The one field that carries an edge value (edge bodies only). */
  field?: string;
  sent: Record<string, unknown>;
  kind: RoundTripKind;
  why?: string;
  /** The creation first, then what was asked to see it again. */
  exchanges: Exchange[];
  id?: string;
}

/** How `got` differs in meaning from what was sent (a change of form alone is CREATE-STORED-AS-SENT's). */
function judgeBack(trip: RoundTrip, got: unknown, where: string) {
  const changed = difference(trip.sent, got, sameMeaning);
  return changed && `${changed} in ${where}`;
}

const ended = (trip: RoundTrip, kind: RoundTripKind, why: string) => Object.assign(trip, { kind, why });

/** Refused is left to a SHOULD. */
export const isBroken = (t: RoundTrip) => t.kind === 'changed' || t.kind === 'lost' || t.kind === 'wrong-status';

/** Why these: CREATE-ROUND-TRIP's accepts. */
const isRefusedStatus = (status: number) => status === 400 || status === 413 || status === 403;

/** Whole when short, else its length and its start. */
export function brief(value: unknown) {
  const text = showJson(value);
  // cut by code points, so that no surrogate pair is split
  return typeof value === 'string' && text.length > 80 ? `${[...text].slice(0, 60).join('')}…" (${[...value].length} characters)` : text;
}

const codePoints = (chars: string[]) => chars.map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(' ') || 'nothing';

/** For strings, where they first differ, in code points: a normalised name looks the same as the one sent. */
function change(field: string, sent: unknown, got: unknown) {
  const text = `${field} was sent as ${brief(sent)} and came back as ${brief(got)}`;
  if (typeof sent !== 'string' || typeof got !== 'string') return text;
  const a = [...sent];
  const b = [...got];
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `${text}: first difference at character ${i + 1} of ${a.length} (sent ${codePoints(a.slice(i, i + 4))}, got ${codePoints(b.slice(i, i + 4))})`;
}

/** Text as a store may keep it without changing what it says: trimmed, in NFC. */
export const canonicalText = (text: string) => text.trim().normalize('NFC');

export const sameMeaning = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' ? canonicalText(a) === canonicalText(b) : sameJson(a, b);

export function difference(sent: Record<string, unknown>, got: unknown, same = sameJson): string | undefined {
  if (!got || typeof got !== 'object' || Array.isArray(got)) return `the answer is not a JSON object: ${brief(got)}`;
  for (const [field, value] of Object.entries(sent)) {
    const back = (got as Record<string, unknown>)[field];
    if (!same(back, value)) return change(field, value, back);
  }
  return undefined;
}

/** Apart from followBack so that a list page can be asked for while the animals are fetched. */
export async function createForTrip(session: Session, sent: Record<string, unknown>, label: string, field?: string): Promise<RoundTrip> {
  const created = await session.call('store', 'createPet', { json: sent });
  const trip: RoundTrip = { label, ...(field && { field }), sent, kind: 'exact', exchanges: [created] };
  if (isRefusedStatus(created.status))
    return ended(trip, 'refused', `refused: ${created.summary}${created.status === 403 ? ' (a policy: a web application firewall?)' : ''}`);
  if (isServerError(created)) return ended(trip, 'unjudged', `${created.summary}, a server error also when sent again: not judged`);
  if (created.status < 200 || created.status >= 300)
    return ended(trip, 'wrong-status', `${created.summary}: neither accepted (201) nor refused with the documented 400`);
  const pet = created.json as Record<string, unknown> | undefined;
  const changed = judgeBack(trip, pet, created.summary);
  if (changed) return ended(trip, 'changed', changed);
  // an id that is not an integer (CREATE-OK says so) cannot be fetched
  if (isInteger(pet!.id)) trip.id = integerText(pet!.id);
  return trip;
}

export async function followBack(session: Session, trip: RoundTrip): Promise<RoundTrip> {
  const petId = trip.id;
  if (trip.kind !== 'exact' || petId === undefined || session.removed('getPet')) return trip;
  // a store may show a write late: a 404 is asked again within the consistency window
  const fetch = async () => {
    const ex = await session.call('store', 'getPet', { params: { petId } });
    trip.exchanges.push(ex);
    return ex;
  };
  const written = performance.now();
  const fetched = (await pollWithinWindow(session, await fetch(), fetch, (ex) => ex.status === 404, written)).value;
  if (isServerError(fetched)) return ended(trip, 'unjudged', `accepted as id ${trip.id}, but getPet: ${fetched.summary}, a server error: not judged`);
  if (fetched.status !== 200) return ended(trip, 'lost', `accepted as id ${trip.id}, but ${fetched.summary}`);
  const fetchedChange = judgeBack(trip, fetched.json, fetched.summary);
  return fetchedChange ? ended(trip, 'changed', fetchedChange) : trip;
}

/** Returns how many the page shows. */
export function compareListed(trips: RoundTrip[], page: Exchange): number {
  const byId = new Map((pageItems(page) ?? []).filter((p) => isInteger(p?.id)).map((p) => [integerText(p.id), p]));
  let found = 0;
  for (const trip of trips.filter((t) => t.kind === 'exact' && t.id !== undefined && byId.has(t.id))) {
    found++;
    const listedChange = judgeBack(trip, byId.get(trip.id!), page.summary);
    if (listedChange) ended(trip, 'changed', listedChange);
    trip.exchanges.push(page);
  }
  return found;
}

/** References a server may know only some of (categoryId). */
export function referenceValues(session: Session): Record<string, unknown> {
  const { name, ...references } = session.petValues('');
  return references;
}

/** Why: CREATE-VALID-ACCEPTED's accepts. */
export function refusalCounts(trip: RoundTrip, references: Record<string, unknown>, trips: RoundTrip[] = []) {
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
