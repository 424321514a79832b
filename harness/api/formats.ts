// ajv-formats' full set, and int64 judged on the range. One table for the run-time compiler and the build's generated validators, so that the two judge alike.
import formatsModule, { type FormatName, type FormatsPlugin } from 'ajv-formats';
import type { FormatDefinition } from 'ajv';
import { isInt64Range } from '../model/json.js';

// ajv-formats is CommonJS: Node hands over the module object, a bundler (Vitest) the function
const plugin = ((formatsModule as any).default ?? formatsModule) as FormatsPlugin;

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

export const fullFormats: Record<string, unknown> = Object.fromEntries(NAMES.map((name) => [name, plugin.get(name, 'full')]));

/** ajv-formats' int64 only asks Number.isInteger, so 2^64 passed; a fraction is left to the schema's type. */
const int64Format: FormatDefinition<number> = {
  type: 'number',
  validate: (n: number) => isInt64Range(n) || (Number.isFinite(n) && !Number.isInteger(n)),
};

export const formats: Record<string, unknown> = { ...fullFormats, int64: int64Format };
