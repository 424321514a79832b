// The edge values and generated examples: derived from the schema, valid, exact on the
// wire, reproducible from the seed; a failing example is shrunk and reported with it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertValid, edgeNewPets, validNewPet } from '../harness/api/bodies.js';
import { edgeValues, integerProbes, INT64_MAX, INT64_MIN } from '../harness/api/edge-values.js';
import { newPetArbitrary } from '../harness/run/examples.js';
import { parseJson, sameJson, stringifyJson } from '../harness/model/json.js';
import { loadSpecs } from '../harness/api/spec.js';
import { certifyReference } from './support/run.js';

const spec = loadSpecs().store;
const values = (schema: object) => edgeValues(schema, 'run-1').map((e) => e.value);

describe('edge values from a schema', () => {
  it('gives a string every class of edge value, prefixed but the empty one', () => {
    const names = values({ type: 'string' }) as string[];
    expect(names).toContain('');
    // the prefix starts every name but the empty one and the one that starts with whitespace
    expect(names.filter((n) => n !== '').every((n) => n.trimStart().startsWith('run-1-'))).toBe(true);
    expect(names.filter((n) => !n.startsWith('run-1-'))).toEqual([expect.stringMatching(/^\s+run-1-/), '']);
    expect(names.map((n) => [...n].length)).toEqual(expect.arrayContaining([1024, 4096]));
    const all = names.join('');
    for (let c = 1; c < 32; c++) expect(all).toContain(String.fromCharCode(c));
    for (let c = 0x7f; c <= 0x9f; c++) expect(all).toContain(String.fromCharCode(c));
    for (let plane = 0; plane <= 16; plane++)
      expect(
        [...all].some((ch) => ch.codePointAt(0)! >> 16 === plane),
        `plane ${plane}`,
      ).toBe(true);
    // each normalisation form changes some name: NFC, NFD and NFKC alike
    for (const form of ['NFC', 'NFD', 'NFKC'] as const)
      expect(
        names.some((n) => n !== n.normalize(form)),
        form,
      ).toBe(true);
    expect(all).toContain('\u0000');
    for (const s of ['\u2028', '\u2029', '"', '\\', 'e\u0301', '😀', '\u200D']) expect(all).toContain(s);
    expect(names.some((n) => /[^\u0000-\uFFFF]/u.test(n) === false && /[\u0370-\u03FF]/.test(n))).toBe(true); // Greek
  });

  it('respects length bounds, and has none for a string with a format', () => {
    const bounded = values({ type: 'string', minLength: 1, maxLength: 300 }) as string[];
    expect(bounded).not.toContain('');
    expect(Math.max(...bounded.map((n) => [...n].length))).toBe(300);
    expect(values({ type: 'string', format: 'date-time' })).toEqual([]);
  });

  it("gives an int64 its eight edges, exact, and narrows them to the schema's bounds", () => {
    expect(values({ type: 'integer', format: 'int64' })).toEqual([0, -1, 2 ** 31, 2 ** 32, 2 ** 53 - 1, 2n ** 53n + 1n, INT64_MIN, INT64_MAX]);
    expect(values({ type: 'integer', format: 'int64', minimum: 1, maximum: 100 })).toEqual([1, 100]);
    expect(values({ type: 'integer', format: 'int32' })).toEqual([0, -1, -(2 ** 31), 2 ** 31 - 1]);
    expect(values({ enum: ['a', 'b'] })).toEqual(['a', 'b']);
  });

  it("makes valid NewPets that each differ from one valid body in one field (enumerations are the run's samples)", () => {
    const base = validNewPet(spec, { name: 'run-1-edge', categoryId: 1 });
    const bodies = edgeNewPets(spec, { name: 'run-1-edge', categoryId: 1 }, {}, 'run-1');
    expect(new Set(bodies.map((b) => b.field))).toEqual(new Set(['name', 'categoryId']));
    for (const b of bodies) {
      expect(spec.errors('NewPet', b.json)).toEqual([]);
      const changed = Object.keys(base).filter((k) => !sameJson(base[k], b.json[k]));
      expect(changed.length <= 1 && changed.every((k) => k === b.field), b.label).toBe(true);
    }
    expect(() => assertValid(spec, { name: 'x', categoryId: 2n ** 63n }, 'a body')).toThrow(/generator bug.*out of its format's range/);
  });
});

describe('probes of an integer parameter, from its schema', () => {
  it('a bounded one (limit): its bounds inside, and just and far outside on each side', () => {
    const specs = loadSpecs();
    expect(integerProbes(specs.store.parameter('listPets', 'limit'))).toEqual({
      edges: ['100', '1'],
      below: ['0', '-1', String(INT64_MIN), String(INT64_MIN - 1n)],
      above: ['101', String(INT64_MAX), String(INT64_MAX + 1n), '100000000000000000000'],
      beyondInt64: [String(INT64_MAX + 1n), '100000000000000000000', String(INT64_MIN - 1n)],
      interior: { min: 2, max: 99 },
      notInteger: ['7abc', 'abc', '1.5', '0_7', '7e0', '0x7'],
      lenient: ['', ' 7', '0x10', '1e3'],
    });
    expect(integerProbes(specs.store.parameter('listPets', 'limit'), '42').notInteger).toEqual(['42abc', 'abc', '1.5', '4_2', '42e0', '0x2a']);
  });

  it('an unbounded int64 (petId): -1, the extremes and 0 inside, nothing "below" or "above" but beyond int64', () => {
    const probes = integerProbes(loadSpecs().store.parameter('getPet', 'petId'));
    expect(probes).toMatchObject({ edges: ['-1', String(INT64_MAX), '0', String(INT64_MIN)], below: [], above: [] });
    expect(probes.interior).toBeUndefined(); // too wide to draw from as a number
    expect(() => integerProbes({ type: 'string' })).toThrow(/not an integer parameter/);
  });
});

describe('exact JSON on the wire', () => {
  it('writes bigints as exact integers and strings as JSON.stringify does', () => {
    const body = { name: 'a"\\\u0001\u2028é😀', categoryId: INT64_MIN, n: 2n ** 53n + 1n, list: [1, undefined], skip: undefined };
    const text = stringifyJson(body);
    expect(text).toBe(`{"name":${JSON.stringify(body.name)},"categoryId":-9223372036854775808,"n":9007199254740993,"list":[1,null]}`);
    expect(sameJson(parseJson(text), { ...body, list: [1, null], skip: undefined })).toBe(false); // skip is absent, not undefined
    expect(sameJson(parseJson(text), { name: body.name, categoryId: INT64_MIN, n: 2n ** 53n + 1n, list: [1, null] })).toBe(true);
  });
});

describe('generated examples', () => {
  const arbitrary = newPetArbitrary(spec, { categoryId: 1 });

  it('draws the same valid NewPets from the same seed, int64 values within range', () => {
    const first = fc.sample(arbitrary, { seed: 7, numRuns: 40 });
    expect(sameJson(first, fc.sample(arbitrary, { seed: 7, numRuns: 40 }))).toBe(true);
    expect(sameJson(first, fc.sample(arbitrary, { seed: 8, numRuns: 40 }))).toBe(false);
    for (const body of first) assertValid(spec, { ...body }, 'a generated example');
    expect(first.some((b) => b.categoryId === 1) && first.some((b) => b.categoryId !== 1)).toBe(true);
    expect(first.some((b) => 'status' in b)).toBe(false); // an optional enumeration: the run's samples carry every member
  });

  it('finds a fault in a generated example, and reports the seed and the shrunk body, the same for the same seed', async () => {
    const run = async () => {
      const report = await certifyReference({ faults: ['private-use-stripped'] }, { seed: 7, selected: new Set(['CREATE-ROUND-TRIP']) });
      expect(report.seed).toBe(7);
      const result = report.requirements.find((r) => r.id === 'CREATE-ROUND-TRIP')!;
      expect(result.outcome).toBe('failed');
      return result.message!.replace(/conformance-[a-z0-9]+-[0-9a-f]+/g, 'PREFIX');
    };
    const message = await run();
    expect(message).toMatch(/generated example \d+ \{.*\} \(--seed 7\): name was sent as .* shrunk in \d+ tries to \{/);
    expect(await run()).toBe(message);
  });
});
