// The animals a run made, from its transcript, and those an answer shows.
import type { Exchange } from '../http/exchange.js';
import { integerText, isInteger, parseJson } from '../model/json.js';
import { newPetErrors, newPetProperties } from '../api/bodies.js';
import type { AnimalStoreSpec } from '../api/spec.js';

export interface RunAnimal {
  id: string;
  created: Exchange;
  pet: Record<string, any>;
}

/** Every animal with an integer id a 2xx body shows. */
export function animalsShown(ex: Exchange, most = Infinity): Array<Record<string, any>> {
  if (!ex.succeeded) return [];
  const body = ex.json;
  const items = Array.isArray(body) ? body.slice(0, most) : [body];
  return items.filter((p) => p !== null && typeof p === 'object' && !Array.isArray(p) && isInteger(p.id));
}

export function animalsMadeBy(exchanges: Exchange[]): RunAnimal[] {
  return exchanges
    .filter((ex) => ex.request.operation === 'createPet')
    .flatMap((created) => animalsShown(created).map((pet) => ({ id: integerText(pet.id), created, pet })));
}

/** The NewPet fields an animal was sent with, when its body was a valid NewPet. */
export function sentNewPet(animal: RunAnimal, spec: AnimalStoreSpec): Record<string, unknown> | undefined {
  let body: unknown;
  try {
    body = parseJson(animal.created.request.body ?? '');
  } catch {
    return undefined;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const given = body as Record<string, unknown>;
  const fields = Object.keys(newPetProperties(spec)).filter((f) => f in given);
  const sent = Object.fromEntries(fields.map((f) => [f, given[f]]));
  return newPetErrors(spec, sent).length === 0 ? sent : undefined;
}

export function pageItems(ex: Exchange): Array<Record<string, any>> | undefined {
  return ex.status === 200 && Array.isArray(ex.json) ? ex.json : undefined;
}

export function missingFrom(page: Array<Record<string, any>>, known: Iterable<Record<string, any>>, status: string): string[] {
  const ids = [...known].filter((p) => p.status === status).map((p) => integerText(p.id));
  return absentFrom(page, ids);
}

export function absentFrom(page: Array<Record<string, any>>, ids: Iterable<string>): string[] {
  const present = new Set(page.filter((p) => isInteger(p?.id)).map((p) => integerText(p.id)));
  return [...ids].filter((id) => !present.has(id));
}
