// getPet, listOrders ("exists", its response not shown: no orders are kept), and the
// PUT, PATCH and DELETE that only a variant routes ("not shown").
import type { IncomingMessage } from 'node:http';
import { badParameter, crash, notFound } from '../errors.js';
import type { Context } from '../options.js';
import { seam } from '../seams.js';
import { INT64_MAX, INTEGER, isProblem, problem, type Answer, type Json, type Problem } from '../wire.js';
import type { Animals, Pet } from './animals.js';
import { readNewPet } from './validation.js';

export function getPet({ sw, animals, statuses }: Context, petIdText: string): Answer {
  const petId = sw.fold(PET_ID_READ, petIdText);
  const answer = sw.first(PET_ID, petId);
  if (answer) return answer;
  if (!INTEGER.test(petId)) return badParameter(sw, 'petId must be an integer');
  // BigInt: ids beyond 2^53 (and int64) are compared exactly, and not found
  const pet = sw.fold(FOUND, animals.find(sw.fold(ID_LOOKED_UP, BigInt(petId))), statuses);
  if (pet) return [200, animals.json(pet)];
  return sw.first(NOT_FOUND, animals) ?? notFound(`No animal with id ${petId}`);
}

export const listOrders = ({ sw }: Context): Answer => sw.first(ORDERS) ?? [200, []];

function storedPet({ sw, animals }: Context, petId: string): Pet | Problem {
  if (!INTEGER.test(petId)) return badParameter(sw, 'petId must be an integer');
  return animals.find(BigInt(petId)) ?? notFound(`No animal with id ${petId}`);
}

/** PUT replaces the animal with a NewPet; PATCH (`merge`) applies the fields it is given. */
export function updatePet(ctx: Context, req: IncomingMessage, petId: string, text: string, merge: boolean): Answer {
  const pet = storedPet(ctx, petId);
  if (isProblem(pet)) return pet;
  const fields = readNewPet(ctx, req, text, merge ? pet.fields : undefined);
  if (isProblem(fields)) return fields;
  pet.fields = fields;
  return [200, ctx.animals.json(pet)];
}

export function deletePet(ctx: Context, petId: string): Answer {
  const pet = storedPet(ctx, petId);
  if (isProblem(pet)) return ctx.sw.first(NOTHING_DELETED, pet) ?? pet;
  ctx.animals.pets.splice(ctx.animals.pets.indexOf(pet), 1);
  return [204, undefined];
}

// Seams

const PET_ID_READ = seam<(petId: string) => string>('the petId read', {
  'get-id-parseint': (petId) => /^\s*([+-]?\d+)/.exec(petId)?.[1].replace('+', '') ?? petId,
  'id-underscore-parsed': (petId) => (/^\d+(_\d+)+$/.test(petId) ? petId.replace(/_/g, '') : petId),
});

const PET_ID = seam<(petId: string) => Answer | undefined>('a petId', {
  'get-negative-id-500': (petId) => (INTEGER.test(petId) && petId.startsWith('-') ? crash(`no row for ${petId}`) : undefined),
  'get-beyond-int64-500': (petId) => (INTEGER.test(petId) && BigInt(petId) > INT64_MAX ? crash(`cannot parse ${petId} into a long`) : undefined),
  'get-invalid-id-500': (petId) => (INTEGER.test(petId) ? undefined : crash(`cannot convert ${petId} to int64`)),
  'get-invalid-id-200': (petId) => (INTEGER.test(petId) ? undefined : [200, null]),
  'invalid-id-404': (petId) => (INTEGER.test(petId) ? undefined : notFound()),
  'get-gone-410': (petId) => (INTEGER.test(petId) ? problem(410, 'gone', 'getPet has been removed') : undefined),
});

const ID_LOOKED_UP = seam<(id: bigint) => bigint>('the id looked up', { 'get-wrong-animal': (id) => id + 1n });

const FOUND = seam<(pet: Pet | undefined, statuses: string[]) => Pet | undefined>('the animal found', {
  'get-always-404': () => undefined,
  // getPet's serialiser fills in another default than the list's queries
  'defaults-disagree': (pet, statuses) => (pet && pet.fields.status === undefined ? { ...pet, fields: { ...pet.fields, status: statuses[1] } } : pet),
});

const NOT_FOUND = seam<(animals: Animals) => Answer | undefined>('no animal with that id', {
  'get-nonexistent-200': (animals) => (animals.pets.length ? [200, animals.json(animals.pets.at(-1)!)] : undefined),
});

const ORDERS = seam<() => [number, Json] | Problem>('the orders', { 'orders-missing': () => notFound(), 'orders-empty-object': () => [200, {}] });

const NOTHING_DELETED = seam<(p: Problem) => Answer | undefined>('a delete of no animal', {
  'delete-unauthenticated': (p) => (p.status === 404 ? [204, undefined] : undefined),
});
