// The JSON Schema formats the responses are validated with: ajv-formats' full set, and
// int64 judged on the range. One table for both ways a schema is compiled: at run time
// (spec.ts, for a document the build did not compile) and by the build (build/bundle.ts),
// whose generated validators look each format up here by name, so that the two judge alike.
import formatsModule, { type FormatName, type FormatsPlugin } from 'ajv-formats';
import type { FormatDefinition } from 'ajv';
import { isInt64Range } from '../model/json.js';

// ajv-formats is CommonJS: Node hands its default export over as the module object,
// a bundler (Vitest) as the function itself
const plugin = ((formatsModule as any).default ?? formatsModule) as FormatsPlugin;

/** ajv-formats' formats (its FormatName), each taken through its public plugin, in their full mode. */
const NAMES: FormatName[] = [
  'date',
  'time',
  'date-time',
  'iso-time',
  'iso-date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'byte',
  'int32',
  'int64',
  'float',
  'double',
  'password',
  'binary',
];

/** ajv-formats' full set, as the reference server validates with it (reference/compiler.ts). */
export const fullFormats: Record<string, unknown> = Object.fromEntries(NAMES.map((name) => [name, plugin.get(name, 'full')]));

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
