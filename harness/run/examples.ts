// Property-based examples (--examples, --seed). Shrinking against a live server creates an animal per attempt: bounded.
import fc from 'fast-check';
import { assertValid, newPetProperties } from '../api/bodies.js';
import { integerBounds } from '../api/edge-values.js';
import { jsonInteger } from '../model/json.js';
import { createForTrip, followBack, isBroken, referenceValues, refusalCounts, type RoundTrip } from './round-trip.js';
import type { Session } from './session.js';
import type { AnimalStoreSpec } from '../api/spec.js';

type Json = unknown;

const MAX_SHRINK_RUNS = 25;
const MAX_SHRINK_MS = 5000;

export interface Examples {
  seed: number;
  trips: RoundTrip[];
  /** The first failing example, shrunk to the smallest body found that fails the same way. */
  shrunk?: { from: RoundTrip; to: RoundTrip; runs: number };
}

/** Any code point but U+0000 (see edge-values.ts) and the surrogates: mostly astral ones. */
const codePoint = () => fc.integer({ min: 1, max: 0x10ffff - 0x800 }).map((n) => String.fromCodePoint(n < 0xd800 ? n : n + 0x800));

/** Printable characters of many scripts, by ranges of code points. */
const PRINTABLE = [
  [0x20, 0x7e],
  [0xa1, 0x24f],
  [0x370, 0x3ff],
  [0x400, 0x4ff],
  [0x5d0, 0x5ea],
  [0x620, 0x64a],
  [0x904, 0x939],
  [0xe01, 0xe30],
  [0x3041, 0x3096],
  [0x30a1, 0x30fa],
  [0x4e00, 0x9fff],
  [0xac00, 0xd7a3],
  [0x2190, 0x21ff],
  [0x1f300, 0x1f64f],
];
const PRINTABLE_COUNT = PRINTABLE.reduce((n, [low, high]) => n + high - low + 1, 0);

// An index mapped both ways, not fast-check's 'grapheme' unit: the table it answers from costs a twentieth of a run's CPU
const printable = () =>
  fc.integer({ min: 0, max: PRINTABLE_COUNT - 1 }).map(
    (index) => {
      for (const [low, high] of PRINTABLE) {
        if (index <= high - low) return String.fromCodePoint(low + index);
        index -= high - low + 1;
      }
      throw new RangeError(`no printable character ${index}`);
    },
    (value) => {
      const code = typeof value === 'string' ? value.codePointAt(0) : undefined;
      let index = 0;
      for (const [low, high] of PRINTABLE) {
        if (code !== undefined && code >= low && code <= high && String.fromCodePoint(code) === value) return index + code - low;
        index += high - low + 1;
      }
      throw new Error('not a printable character');
    },
  );

/** A letter and a combining mark (e + U+0301): one grapheme that normalisation would change. */
const decomposed = () =>
  fc.tuple(fc.constantFrom(...'aeinouyAEINOUY'), fc.integer({ min: 0x300, max: 0x36f })).map(([letter, mark]) => `${letter}${String.fromCodePoint(mark)}`);

/** About half the time any code point. Not fast-check's 'binary' unit: building it takes over a second. */
const character = () => fc.oneof({ arbitrary: printable(), weight: 9 }, { arbitrary: decomposed(), weight: 1 }, { arbitrary: codePoint(), weight: 10 });

function arbitraryFor(schema: Record<string, any>): fc.Arbitrary<Json> | undefined {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  if (schema.type === 'boolean') return fc.boolean();
  if (schema.type === 'integer') return fc.bigInt(...integerBounds(schema)).map(jsonInteger);
  if (schema.type !== 'string' || schema.format !== undefined || schema.pattern !== undefined) return undefined;
  return fc.string({ unit: character(), minLength: schema.minLength ?? 0, ...(schema.maxLength !== undefined && { maxLength: schema.maxLength }) });
}

/** A reference (categoryId) is the configured value half of the time, so that a server refusing unknown ones has the rest judged. */
export function newPetArbitrary(spec: AnimalStoreSpec, references: Record<string, Json>): fc.Arbitrary<Record<string, Json>> {
  const required: string[] = spec.schema('NewPet').required ?? [];
  const record: Record<string, fc.Arbitrary<Json>> = {};
  for (const [key, schema] of Object.entries(newPetProperties(spec))) {
    // an animal with a status created now would change the status pages (round-trips.ts)
    if (Array.isArray(schema.enum) && !required.includes(key)) continue;
    const arbitrary = arbitraryFor(schema);
    if (!arbitrary) {
      if (required.includes(key)) throw new Error(`cannot generate values for the required property ${key}`);
      continue;
    }
    record[key] = key in references ? fc.oneof(fc.constant(references[key]), arbitrary) : arbitrary;
  }
  return fc.record(record, { requiredKeys: required.filter((k) => k in record) });
}

function asBody(value: Record<string, Json>, prefix: string): Record<string, Json> {
  return { ...value, ...(typeof value.name === 'string' && { name: `${prefix}-${value.name}` }) };
}

/** Drawing is CPU only, done while the run waits on the network. */
export function drawExamples(session: Session) {
  const { examples: count, seed } = session.options;
  const references = referenceValues(session);
  const spec = session.specs.store;
  const prefix = `${session.runPrefix}-example`;
  const arbitrary = newPetArbitrary(spec, references);
  const fails = (trip: RoundTrip) => isBroken(trip) || (trip.kind === 'refused' && refusalCounts(trip, references));
  const bodies = fc.sample(arbitrary, { seed, numRuns: count }).map((v) => asBody(v, prefix));
  bodies.forEach((b, i) => assertValid(spec, b, `generated example ${i + 1}`));

  // replays the first failing example from the seed (path) and shrinks it, failing only the same way
  const shrinkFirstFailing = async (trips: RoundTrip[]): Promise<Examples> => {
    const first = trips.findIndex(fails);
    if (first < 0) return { seed, trips };
    const from = trips[first];
    let to = from;
    let runs = 0;
    await fc.check(
      fc.asyncProperty(arbitrary, async (value) => {
        fc.pre(runs < MAX_SHRINK_RUNS); // budget spent: every further candidate is skipped unsent
        runs++;
        const body = asBody(value, prefix);
        assertValid(spec, body, 'a shrunk example');
        const trip = await followBack(session, await createForTrip(session, body, `${from.label}, shrunk`));
        if (trip.kind !== from.kind || !fails(trip)) return true;
        to = trip;
        return false;
      }),
      { seed, numRuns: count, path: String(first), interruptAfterTimeLimit: MAX_SHRINK_MS },
    );
    return { seed, trips, shrunk: { from, to, runs } };
  };

  return {
    send: () => {
      const created = bodies.map((body, i) => createForTrip(session, body, `generated example ${i + 1}`));
      const followed = Promise.all(created.map(async (trip) => followBack(session, await trip)));
      return { created: Promise.all(created), examples: followed.then(shrinkFirstFailing) };
    },
  };
}
