// The JSON Schema formats the responses are validated with: ajv-formats' full set, and
// int64 judged on the range. One table for both ways a schema is compiled: at run time
// (spec.ts, for a document the build did not compile) and by the build (build/bundle.ts),
// whose generated validators look each format up here by name, so that the two judge alike.
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { FormatDefinition } from 'ajv';
import { isInt64Range } from '../model/json.js';

/**
 * ajv-formats' int64 only asks Number.isInteger, so 2^64 passed: the range is judged
 * here (on the numbers forValidation gives; 1e400 is Infinity, outside), and a
 * fraction is left to the schema's type: integer.
 */
const int64Format: FormatDefinition<number> = {
  type: 'number',
  validate: (n: number) => isInt64Range(n) || (Number.isFinite(n) && !Number.isInteger(n)),
};

/** Every format by name, as the validators find them. */
export const formats: Record<string, unknown> = { ...fullFormats, int64: int64Format };
