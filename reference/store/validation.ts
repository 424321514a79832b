// The NewPet in a request, refused with 400 when invalid ("Body missing required fields
// or containing invalid values"); an int64 out of range is invalid too.
import type { IncomingMessage } from 'node:http';
import { crash, invalid, unprocessable } from '../errors.js';
import type { Context } from '../options.js';
import { seam } from '../seams.js';
import { INTEGER, clampInt64, forValidation, isObject, isProblem, mediaType, parseJson, toJson, type Fields, type Json, type Problem } from '../wire.js';

/** The NewPet in a request, or why it is refused; `base`: the fields a PATCH applies its own to. */
export function readNewPet({ sw, newPet }: Context, req: IncomingMessage, text: string, base?: Fields): Fields | Problem {
  const { properties, required, validate } = newPet;
  if (mediaType(req) !== 'application/json') return invalid('Content-Type must be application/json');
  if (text.length === 0) return sw.first(EMPTY_BODY) ?? invalid('A JSON body is required');
  if (refusedByTokenizer(sw, text)) return invalid('The body is not valid JSON');
  let value: Json;
  try {
    value = sw.fold(BODY_READ, parseJson(text));
  } catch {
    const taken = sw.first(MALFORMED_BODY, text) ?? invalid('The body is not valid JSON');
    if (isProblem(taken)) return taken;
    value = taken;
  }
  const refused = (message: string): Problem => sw.fold(REFUSED, invalid(message));
  if (!isObject(value)) return refused('The body must be a JSON object (NewPet)');
  let body = sw.fold(LENIENCY, base ? { ...base, ...value } : { ...value }, properties);
  if (!validate(forValidation(body))) {
    const why = (validate.errors ?? []).map((e) => `${e.instancePath || 'body'} ${e.message}`).join('; ');
    return refused(`Invalid NewPet: ${why}`);
  }
  // Ajv's int64 format asks only for an integer: the range is the server's to check
  const beyond = Object.keys(properties).find(
    (key) => properties[key].format === 'int64' && typeof body[key] === 'bigint' && clampInt64(body[key]) !== body[key],
  );
  if (beyond) {
    const kept = sw.first(OUT_OF_RANGE, body, beyond);
    if (!kept) return refused(`Invalid NewPet: /${beyond} is outside the int64 range`);
    body = kept;
  }
  // keep the fields the schema names (documented or added by a modified schema)
  const known = new Set([...Object.keys(properties), ...required]);
  return Object.fromEntries(Object.entries(body).filter(([k]) => known.size === 0 || known.has(k)));
}

// Seams

const TOKENIZER = seam<(text: string) => boolean>('a JSON text refused by its reader', {
  // a home-made tokenizer that takes a run of 16 digits for a number it cannot hold
  'digit-runs-refused': (text) => /\d{16}/.test(text),
});

export const refusedByTokenizer = (sw: Context['sw'], text: string) => sw.any(TOKENIZER, text);

const EMPTY_BODY = seam<() => Problem | Fields>('an empty body', {
  'empty-body-500': () => crash('cannot read an empty body'),
  'empty-body-defaults': () => ({ name: '', categoryId: 0n }),
});

const MALFORMED_BODY = seam<(text: string) => Problem | Json>('malformed JSON', {
  'malformed-json-500': () => crash('unexpected end of JSON input'),
  // a lenient parser that closes what is left open
  'malformed-json-closed': (text) => parseJson(`${text}}`),
});

const BODY_READ = seam<(value: Json) => Json>('the JSON body read', {
  'accept-array-body': (value) => (Array.isArray(value) && value.length === 1 ? value[0] : value),
});

const REFUSED = seam<(p: Problem) => Problem>('an invalid NewPet refused', { 'invalid-body-422': (p) => unprocessable(p.message) });

const integers = (body: Fields, properties: Record<string, any>, change: (v: Json) => Json): Fields => {
  const out = { ...body };
  for (const [key, schema] of Object.entries(properties)) if (schema?.type === 'integer' && key in out) out[key] = change(out[key]);
  return out;
};

/** Faults that accept an invalid body, normalised to a valid Pet. */
const LENIENCY = seam<(body: Fields, properties: Record<string, any>) => Fields>('an invalid NewPet let through', {
  'coerce-numeric-strings': (body, properties) => integers(body, properties, (v) => (typeof v === 'string' && INTEGER.test(v) ? Number(v) : v)),
  'accept-fractional-integer': (body, properties) => integers(body, properties, (v) => (typeof v === 'number' && !Number.isInteger(v) ? Math.trunc(v) : v)),
  'accept-wrong-type-name': (body) => ('name' in body && typeof body.name !== 'string' ? { ...body, name: toJson(body.name) } : body),
  'accept-unknown-status': (body, properties) => {
    const statusEnum: Json[] | undefined = properties.status?.enum;
    const { status: _status, ...rest } = body;
    return typeof body.status === 'string' && statusEnum && !statusEnum.includes(body.status) ? rest : body;
  },
  'accept-missing-name': (body) => ('name' in body ? body : { ...body, name: '' }),
  'accept-missing-category': (body) => ('categoryId' in body ? body : { ...body, categoryId: 0 }),
});

const OUT_OF_RANGE = seam<(body: Fields, key: string) => Fields>('an int64 out of range', {
  // what a long column stores
  'int64-range-unchecked': (body, key) => ({ ...body, [key]: clampInt64(body[key] as bigint) }),
});
