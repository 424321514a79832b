// int64 values survive exactly, also beyond 2^53.
import { describe, expect, it } from 'vitest';
import { forValidation, integerText, parseJson, sameJson, showJson } from '../harness/model/json.js';

describe('int64-exact JSON', () => {
  it('keeps integers beyond 2^53 exact', () => {
    const parsed = parseJson('{"id": 9007199254740993, "small": 7, "x": 1.5}') as any;
    expect(parsed.id).toBe(9007199254740993n);
    expect(parsed.small).toBe(7);
    expect(parsed.x).toBe(1.5);
    expect(integerText(parsed.id)).toBe('9007199254740993');
    expect(showJson(parsed)).toBe('{"id":9007199254740993,"small":7,"x":1.5}');
  });

  it('compares integers exactly', () => {
    expect(sameJson(9007199254740993n, 9007199254740992)).toBe(false);
    expect(sameJson(7n, 7)).toBe(true);
    expect(sameJson({ a: [1, 'b'] }, { a: [1, 'b'] })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(false);
  });

  it('rejects invalid JSON like JSON.parse, and accepts duplicate keys like it', () => {
    expect(() => parseJson('{"a":1')).toThrow(SyntaxError);
    expect(() => parseJson("{'a':1}")).toThrow(SyntaxError);
    expect(parseJson('{"a":1,"a":2}')).toEqual({ a: 2 });
  });

  it('gives schema validation plain numbers', () => {
    expect(forValidation({ id: 2n ** 62n })).toEqual({ id: 2 ** 62 });
  });
});
