// POST /pets: a valid NewPet is stored and answered 201 with the Pet, each value as it was
// sent. The default status "is not stated": none is stored.
import type { IncomingMessage } from 'node:http';
import { crash, invalid, unprocessable } from '../errors.js';
import type { Context } from '../options.js';
import { seam } from '../seams.js';
import { clampInt64, isObject, isProblem, parseJson, toJson, type Answer, type Fields, type Json, type Problem } from '../wire.js';
import type { Animals, Pet } from './animals.js';
import { readNewPet } from './validation.js';

/** `denied`: the credential's refusal, answered after the body where a variant validates first. */
export function createPet(ctx: Context, req: IncomingMessage, text: string, denied: Problem | undefined): Answer {
  const { sw, animals, statuses } = ctx;
  const read = readNewPet(ctx, req, text);
  if (isProblem(read)) return keepRefused(ctx, 'invalid', text, read);
  if (denied) return keepRefused(ctx, 'denied', text, denied);
  const refused = sw.first(VALUE_REFUSED, read, text);
  if (refused) return refused;
  const fields = sw.fold(STORED, read, ctx);
  const status = 'status' in fields ? undefined : sw.first(STATUS_DEFAULT, statuses);
  const stored = status === undefined ? fields : { ...fields, status };
  const twin = sw.first(EXISTING, stored, animals);
  if (twin) return [201, animals.json(twin)];
  const pet = sw.first(STORE, stored, text, animals) ?? animals.add(stored);
  const shown = sw.first(CREATED_VIEW, pet, fields) ?? pet;
  return [sw.at(CREATED_STATUS)[0] ?? 201, animals.json(shown)];
}

function idSent(text: string): bigint | undefined {
  const id = (parseJson(text) as Fields).id;
  return typeof id === 'bigint' || (typeof id === 'number' && Number.isInteger(id)) ? BigInt(id) : undefined;
}

/** A refused write: a fault may store its animal (made valid) all the same. */
export function keepRefused(ctx: Context, why: 'invalid' | 'denied', text: string, refusal: Problem): Problem {
  if (ctx.sw.any(REFUSED_KEPT, why)) {
    let body: Json = null;
    try {
      body = parseJson(text);
    } catch {
      // nothing to keep
    }
    if (isObject(body) && typeof body.name === 'string') {
      const status = typeof body.status === 'string' && ctx.statuses.includes(body.status) ? { status: body.status } : {};
      const categoryId = typeof body.categoryId === 'bigint' && clampInt64(body.categoryId) === body.categoryId ? body.categoryId : 1n;
      ctx.animals.add({ name: body.name, categoryId, ...status });
    }
  }
  return refusal;
}

// Seams

const REFUSED_KEPT = seam<(why: 'invalid' | 'denied') => boolean>('a refused write kept', {
  'refused-write-stored': (why) => why === 'denied',
  'invalid-write-stored': (why) => why === 'invalid',
});

const nameOf = (fields: Fields) => (typeof fields.name === 'string' ? fields.name : '');

const VALUE_REFUSED = seam<(fields: Fields, text: string) => Problem | undefined>('a valid value refused', {
  'id-rejected': (_fields, text) => (idSent(text) !== undefined ? invalid('id is assigned by the service') : undefined),
  'name-limit-255': (fields) => ([...nameOf(fields)].length > 255 ? invalid('name is longer than 255 characters') : undefined),
  'known-categories-only': ({ categoryId }) =>
    (categoryId as bigint) < 1n || (categoryId as bigint) > 1000n ? invalid(`No category with id ${categoryId}`) : undefined,
  // a presence check written as a truth test: 0 is "missing"
  'zero-category-refused': ({ categoryId }) => (categoryId === 0n ? invalid('categoryId is required') : undefined),
  'long-name-500': (fields) => (nameOf(fields).length > 1000 ? crash('value too long for type character varying(1000)') : undefined),
  'emoji-refused-422': (fields) =>
    /[\u{10000}-\u{10FFFF}]/u.test(nameOf(fields)) ? unprocessable('name holds characters outside the Basic Multilingual Plane') : undefined,
});

const name = (change: (name: string) => string) => (fields: Fields) => (typeof fields.name === 'string' ? { ...fields, name: change(fields.name) } : fields);

const STORED = seam<(fields: Fields, ctx: Context) => Fields>('the values stored', {
  'non-ascii-replaced': name((s) => s.replace(/[^\u0000-\u007F]/gu, '?')),
  'name-truncated-255': name((s) => [...s].slice(0, 255).join('')),
  'nfc-normalised': name((s) => s.normalize('NFC')),
  'names-trimmed': name((s) => s.trim()),
  'nfd-normalised': name((s) => s.normalize('NFD')),
  'nfkc-normalised': name((s) => s.normalize('NFKC')),
  'c1-controls-stripped': name((s) => s.replace(/[\u007F-\u009F]/g, '')),
  'names-cut-at-nul': name((s) => s.split('\u0000')[0]),
  'names-html-escaped': name((s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)),
  'private-use-stripped': name((s) => s.replace(/[\p{Co}\p{Cn}]/gu, '')),
  'int64-via-double': (fields, { newPet }) =>
    Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, k in newPet.properties && typeof v === 'bigint' ? BigInt(Number(v)) : v])),
  'name-uppercased': name((s) => s.toUpperCase()),
  'status-dropped': ({ status: _status, ...rest }) => rest,
  'status-changed': (fields, { statuses }) =>
    typeof fields.status === 'string' ? { ...fields, status: statuses[(statuses.indexOf(fields.status) + 1) % statuses.length] } : fields,
});

const STATUS_DEFAULT = seam<(statuses: string[]) => Json>('the default status', {
  'default-status': (statuses) => statuses[0],
  'status-default-on-read': (statuses) => statuses[0],
});

const EXISTING = seam<(fields: Fields, animals: Animals) => Pet | undefined>('an animal created twice', {
  'duplicate-body-deduplicated': (fields, animals) =>
    animals.pets.find((p) => ['name', 'categoryId', 'status'].every((k) => toJson(p.fields[k]) === toJson(fields[k]))),
});

const STORE = seam<(fields: Fields, text: string, animals: Animals) => Pet>('storing an animal', {
  'not-persisted': (fields, _text, animals) => animals.made(fields),
  'id-honoured': (fields, text, animals) => animals.add(fields, idSent(text)),
  'id-honoured-double': (fields, text, animals) => animals.add(fields, idSent(text) === undefined ? undefined : BigInt(Number(idSent(text)))),
});

/** The animal the 201 body shows; `sent`: its fields before any default was filled in. */
const CREATED_VIEW = seam<(pet: Pet, sent: Fields) => Pet>('the created animal shown', { 'status-default-on-read': (pet, sent) => ({ ...pet, fields: sent }) });

const CREATED_STATUS = seam<number>('the status of a create', { 'created-200': 200 });
