// Values to probe an integer query or path parameter with, derived from its schema
// (type, format, minimum, maximum) rather than picked by hand: the edges inside its
// range, integers just and far outside it, integers no int64 can hold, and text that
// is no integer. Written as the exact decimal text a URL carries; in each list the
// values most likely to find a bug come first (health sends only the first few).
type Schema = Record<string, any>;

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

export interface IntegerProbes {
  /** Inside the range: the bounds; for an unbounded int64, -1, its maximum, 0 and its minimum. */
  edges: string[];
  /** Below the minimum: just below, a negative number, the int64 minimum, and beyond int64. */
  below: string[];
  /** Above the maximum: just above, the int64 maximum, and beyond int64. */
  above: string[];
  /** Integers outside the int64 range on either side (for a parameter without bounds). */
  beyondInt64: string[];
  /** Text that is no integer. */
  notInteger: string[];
}

const unique = (values: bigint[]) => [...new Set(values.map(String))];

export function integerProbes(schema: Schema): IntegerProbes {
  if (schema.type !== 'integer') throw new Error(`not an integer parameter: ${JSON.stringify(schema)}`);
  const min = schema.minimum === undefined ? undefined : BigInt(schema.minimum);
  const max = schema.maximum === undefined ? undefined : BigInt(schema.maximum);
  const beyondBelow = [INT64_MIN - 1n];
  const beyondAbove = [INT64_MAX + 1n, 10n ** 20n];
  const inRange = (n: bigint) => n >= INT64_MIN && n <= INT64_MAX && (min === undefined || n >= min) && (max === undefined || n <= max);
  return {
    edges: unique([-1n, max ?? INT64_MAX, 0n, min ?? INT64_MIN].filter(inRange)),
    below: min === undefined ? [] : unique([min - 1n, -1n, INT64_MIN, ...beyondBelow].filter((n) => n < min)),
    above: max === undefined ? [] : unique([max + 1n, INT64_MAX, ...beyondAbove].filter((n) => n > max)),
    beyondInt64: unique([...beyondAbove, ...beyondBelow]),
    notInteger: ['abc', '1.5'],
  };
}
