// Every int64 field of a response lies in the int64 range, exactly at the boundaries,
// although 2^63 - 1 and 2^63 are the same double.
import { describe, expect, it } from 'vitest';
import { loadSpecs } from '../harness/api/spec.js';
import { parseJson } from '../harness/model/json.js';

const { store } = loadSpecs();
const pet = (id: string) => parseJson(`{"id": ${id}, "name": "n", "categoryId": 1}`);

describe('the int64 range in schema validation', () => {
  it.each([
    ['2^63 - 1', '9223372036854775807'],
    ['-(2^63)', '-9223372036854775808'],
    ['2^63 - 1024 (the largest double below 2^63)', '9223372036854774784'],
    ['2^53 + 1', '9007199254740993'],
    ['0', '0'],
    ['-1', '-1'],
  ])('accepts %s', (_name, id) => {
    expect(store.errors('Pet', pet(id))).toEqual([]);
  });

  it.each([
    ['2^63', '9223372036854775808'],
    ['-(2^63) - 1', '-9223372036854775809'],
    ['2^64', '18446744073709551616'],
    ['1e20 (an exponent)', '1e20'],
    ['1e400 (beyond every double)', '1e400'],
  ])('refuses %s, saying it is outside the int64 range', (_name, id) => {
    const errors = store.errors('Pet', pet(id));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^\/id .* is outside the int64 range/);
  });

  it('shows the exact value refused, and judges nested fields (a list of Pets)', () => {
    const errors = store.errors('Pets', parseJson('[{"id": 1, "name": "a", "categoryId": 18446744073709551616}]'));
    expect(errors).toEqual(['/0/categoryId 18446744073709551616 is outside the int64 range (-(2^63) to 2^63-1)']);
  });

  it('leaves a fraction to the integer type, not the range', () => {
    expect(store.errors('Pet', pet('1.5'))).toEqual(['/id must be integer']);
  });
});
