// The animals a run made, read from its own transcript, and the animals an answer
// shows: the model every view of the run's data is compared with.
import type { Exchange } from '../http/exchange.js';
import { integerText, isInteger, parseJson } from '../model/json.js';
import { newPetErrors, newPetProperties } from '../api/bodies.js';
import type { AnimalStoreSpec } from '../api/spec.js';

/** An animal the run made: its id, the answer that made it, and the NewPet fields it was sent with. */
export interface RunAnimal {
  id: string;
  created: Exchange;
  /** The body of that answer. */
  pet: Record<string, any>;
  /** The NewPet fields sent, when the body was a valid NewPet (an invalid one the server took is the invalid-body checks' to judge). */
  sent?: Record<string, unknown>;
}

/** Every animal a 2xx body shows: the items of a list, or the object itself, each with an integer id. */
export function animalsShown(ex: Exchange): Array<Record<string, any>> {
  if (!ex.succeeded) return [];
  const body = ex.json;
  return (Array.isArray(body) ? body : [body]).filter((p) => p !== null && typeof p === 'object' && !Array.isArray(p) && isInteger(p.id));
}

/** Every createPet of the transcript answered 2xx with an integer id, in the order sent. */
export function animalsMadeBy(exchanges: Exchange[], spec: AnimalStoreSpec): RunAnimal[] {
  const fields = Object.keys(newPetProperties(spec));
  return exchanges
    .filter((ex) => ex.request.operation === 'createPet')
    .flatMap((created) => {
      const [pet] = animalsShown(created);
      if (!pet) return [];
      let body: unknown;
      try {
        body = parseJson(created.request.body ?? '');
      } catch {
        body = undefined;
      }
      const given = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
      const sent = given && Object.fromEntries(fields.filter((f) => f in given).map((f) => [f, given[f]]));
      return [{ id: integerText(pet.id), created, pet, ...(sent && newPetErrors(spec, sent).length === 0 && { sent }) }];
    });
}
