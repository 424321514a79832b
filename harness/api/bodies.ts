// Bodies from the NewPet schema: each validated before it is sent, so that a 400 proves what differs is validated and a generator bug
// cannot fail a correct server.
import type { AnimalStoreSpec } from './spec.js';
import { edgeValues, integerBounds, outOfRange } from './edge-values.js';

type Json = unknown;
type Schema = Record<string, any>;

export interface NegativeBody {
  label: string;
  json?: Json;
  raw?: string;
}

/** Named after the run where it is a string. */
function sampleValue(schema: Schema, name: string): Json {
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  switch (schema.type) {
    case 'string':
      return name;
    case 'integer':
      return Math.min(Math.max(schema.minimum ?? 1, 1), schema.maximum ?? Infinity);
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      throw new Error(`cannot generate a value for schema ${JSON.stringify(schema)}`);
  }
}

export function newPetProperties(spec: AnimalStoreSpec): Record<string, Schema> {
  const schema = spec.schema('NewPet');
  return Object.fromEntries(Object.entries<Schema>(schema.properties ?? {}).map(([k, v]) => [k, spec.deref(v)]));
}

export type PetValues = { name: string } & Record<string, Json>;

export function validNewPet(spec: AnimalStoreSpec, values: PetValues, extra: Record<string, Json> = {}): Record<string, Json> {
  const props = newPetProperties(spec);
  const body: Record<string, Json> = {};
  for (const key of spec.schema('NewPet').required ?? []) {
    body[key] = key in values ? values[key] : sampleValue(props[key], values.name);
  }
  Object.assign(body, extra);
  const errors = spec.errors('NewPet', body);
  if (errors.length) throw new Error(`generated NewPet is invalid: ${errors.join('; ')}`);
  return body;
}

/** Arrays are not probed: a validator that refuses an object refuses an array by the same test. */
const VALUE_OF_TYPE: Record<string, Json> = {
  string: 'not-a-number',
  number: 42,
  boolean: true,
  object: {},
  null: null,
};

function allowsType(schema: Schema, type: string, value: Json): boolean {
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return true;
  if (types.includes(type)) return true;
  return type === 'number' && types.includes('integer') && Number.isInteger(value);
}

export type NegativeFamily = 'missing-required' | 'wrong-type' | 'outside-enum' | 'non-integer' | 'out-of-range' | 'not-object' | 'empty' | 'malformed-json';

export function negativeNewPets(spec: AnimalStoreSpec, values: PetValues): Record<NegativeFamily, NegativeBody[]> {
  const base = validNewPet(spec, values);
  const props = newPetProperties(spec);
  const required: string[] = spec.schema('NewPet').required ?? [];
  const withField = (key: string, value: Json) => ({ ...base, [key]: value });

  const missing = required.map((key) => {
    const { [key]: _omitted, ...rest } = base;
    return { label: `${key} is missing`, json: rest };
  });

  const [wrongType, outsideEnum, nonInteger, beyondRange]: NegativeBody[][] = [[], [], [], []];
  for (const [key, schema] of Object.entries(props)) {
    for (const [type, value] of Object.entries(VALUE_OF_TYPE)) {
      // null for an optional field is often read as "absent"
      if (type === 'null' && !required.includes(key)) continue;
      if (!allowsType(schema, type, value)) wrongType.push({ label: `${key} is ${type === 'null' ? 'null' : `a JSON ${type}`}`, json: withField(key, value) });
    }
    if (schema.enum) {
      const upper = String(schema.enum[0]).toUpperCase();
      for (const value of ['not-a-status', upper].filter((v) => !schema.enum.includes(v))) {
        outsideEnum.push({ label: `${key} is "${value}", outside the enumeration`, json: withField(key, value) });
      }
    }
    if (schema.type !== 'integer') continue;
    nonInteger.push({ label: `${key} is 1.5`, json: withField(key, 1.5) });
    nonInteger.push({ label: `${key} is the numeric string "${base[key] ?? 7}"`, json: withField(key, String(base[key] ?? 7)) });
    // exact JSON integers, which a server reading them as doubles or unbounded may take for valid
    const [low, high] = integerBounds(schema);
    const candidates = [
      { label: `${key} is ${high + 1n}, one above its range`, json: withField(key, high + 1n) },
      { label: `${key} is ${low - 1n}, one below its range`, json: withField(key, low - 1n) },
    ];
    beyondRange.push(...candidates.filter((body) => spec.errors('NewPet', body.json).length > 0));
  }

  const text = JSON.stringify(base);
  const bodies: Record<NegativeFamily, NegativeBody[]> = {
    'missing-required': missing,
    'wrong-type': wrongType,
    'outside-enum': outsideEnum,
    'non-integer': nonInteger,
    'out-of-range': beyondRange,
    'not-object': [
      { label: 'the body is an array holding a valid NewPet', json: [base] },
      // one scalar stands for all
      { label: 'the body is a JSON string', json: 'not an object' },
      { label: 'the body is JSON null', json: null },
    ],
    empty: [{ label: 'the body is empty', raw: '' }],
    'malformed-json': [{ label: 'the body is malformed JSON (a valid NewPet without its closing brace)', raw: text.slice(0, -1) }],
  };
  for (const list of Object.values(bodies)) for (const body of list) assertInvalid(spec, body);
  return bodies;
}

function assertInvalid(spec: AnimalStoreSpec, body: NegativeBody): void {
  let json = body.json;
  try {
    if (body.raw !== undefined) json = JSON.parse(body.raw);
  } catch {
    return;
  }
  if (spec.errors('NewPet', json).length) return;
  throw new Error(`generator bug: the negative body "${body.label}" is valid against NewPet`);
}

interface EdgeBody {
  field: string;
  label: string;
  json: Record<string, Json>;
}

/** Enumerations are left out: every member is a sample of the run already (one animal per PetStatus). */
export function edgeNewPets(spec: AnimalStoreSpec, values: PetValues, extra: Record<string, Json>, prefix: string): EdgeBody[] {
  const base = validNewPet(spec, values, extra);
  const bodies: EdgeBody[] = [];
  for (const [field, schema] of Object.entries(newPetProperties(spec))) {
    if (Array.isArray(schema.enum)) continue;
    for (const edge of edgeValues(schema, prefix)) {
      const json = { ...base, [field]: edge.value };
      assertValid(spec, json, `the edge body where ${field} is ${edge.label}`);
      bodies.push({ field, label: `${field} is ${edge.label}`, json });
    }
  }
  return bodies;
}

/** Every integer in its format's range too, which Ajv's format does not check. */
export function newPetErrors(spec: AnimalStoreSpec, body: Record<string, Json>): string[] {
  const props = newPetProperties(spec);
  return [
    ...spec.errors('NewPet', body),
    ...Object.entries(body)
      .filter(([k, v]) => props[k] && outOfRange(props[k], v))
      .map(([k]) => `/${k} is out of its format's range`),
  ];
}

export function assertValid(spec: AnimalStoreSpec, body: Record<string, Json>, what: string): void {
  const errors = newPetErrors(spec, body);
  if (errors.length) throw new Error(`generator bug: ${what} is not a valid NewPet: ${errors.join('; ')}`);
}
