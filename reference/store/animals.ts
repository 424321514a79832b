// The animal store's state: the animals, their ids, when a read sees a write.
import { randomUUID } from 'node:crypto';
import { seam, type Switches } from '../seams.js';
import type { Fields } from '../wire.js';

export type Pet = { id: bigint; fields: Fields; createdAt: string; storedAt: number };

type View = 'list' | 'get';

export class Animals {
  readonly pets: Pet[] = [];
  private readonly firstId: bigint;
  private nextId: bigint;

  constructor(private readonly sw: Switches) {
    this.firstId = this.nextId = sw.at(FIRST_ID)[0] ?? 1n;
  }

  /** An animal with these fields, not (yet) stored. */
  made(fields: Fields, id = this.sw.fold(ID_ASSIGNED, this.nextId++, this.firstId)): Pet {
    return { id, fields, createdAt: new Date().toISOString(), storedAt: performance.now() };
  }

  add(fields: Fields, id?: bigint): Pet {
    const pet = this.made(fields, id);
    this.pets.push(pet);
    for (const job of this.sw.at(JOBS)) job(pet);
    return pet;
  }

  readable(pet: Pet, view: View): boolean {
    return !this.sw.any(READ_LAG, view) || performance.now() - pet.storedAt >= LAG_MS;
  }

  find(id: bigint, view: View = 'get'): Pet | undefined {
    return this.pets.find((p) => p.id === id && this.readable(p, view));
  }

  json(pet: Pet): Fields {
    return this.sw.fold(PET_JSON, { id: pet.id, ...pet.fields }, pet);
  }
}

type Start = { animals: Animals; sw: Switches; statuses: string[]; newPet: { properties: Record<string, any>; required: string[] } };

export function fillAtStart(start: Start, prefill: number): void {
  const example = (i: number) => prefilledFields(i, start);
  for (let i = 0; i < prefill; i++) start.animals.add(example(i));
  for (const fields of start.sw.at(AT_START).flatMap((animals) => animals(example))) start.animals.add(fields);
}

/** A valid NewPet, extra required fields included. */
function prefilledFields(i: number, { newPet: { properties, required }, statuses }: Start): Fields {
  const fields: Fields = { name: `prefill-${i + 1}`, categoryId: (i % 5) + 1, status: statuses[i % statuses.length] };
  for (const key of required) {
    if (key in fields) continue;
    const schema = properties[key] ?? {};
    const byType: Fields = { string: `${key}-${i + 1}`, integer: schema.minimum ?? 1, number: schema.minimum ?? 1, boolean: true, array: [] };
    fields[key] = schema.enum ? schema.enum[0] : (byType[schema.type] ?? {});
  }
  return fields;
}

// Seams

const LAG_MS = 1500;

const FIRST_ID = seam<bigint>('the first id', {
  'ids-beyond-int64': 2n ** 64n,
  'large-ids': 2n ** 53n + 1n, // 9007199254740993: not representable as a double
});

const ID_ASSIGNED = seam<(id: bigint, first: bigint) => bigint>('the id assigned', { 'duplicate-ids': (_id, first) => first });

const READ_LAG = seam<(view: View) => boolean>('reads that lag the writes', { 'lagging-reads': () => true, 'lagging-list': (view) => view === 'list' });

const PET_JSON = seam<(json: Fields, pet: Pet) => Fields>('an animal as a Pet', {
  'string-ids': (json) => ({ ...json, id: String(json.id) }),
  'null-status': ({ id, ...rest }) => ({ id, status: null, ...rest }), // a stored status overwrites it
  'extra-fields': (json, pet) => ({ ...json, createdAt: pet.createdAt, tags: [] }),
  'signed-photo-url': (json, pet) => ({ ...json, photoUrl: `https://cdn.example/pets/${pet.id}.jpg?signature=${randomUUID()}` }),
});

/** What happens to a stored animal later ("Transitions: not shown"). */
const JOBS = seam<(pet: Pet) => void>('jobs on stored animals', {
  moderation: (pet) => {
    if (pet.fields.status === 'pending') setTimeout(() => (pet.fields = { ...pet.fields, status: 'available' }), 1000).unref();
  },
});

const AT_START = seam<(example: (i: number) => Fields) => Fields[]>('the animals at start', {
  'long-names': (example) => Array.from({ length: 120 }, (_, i) => ({ ...example(i), name: `long-name-${i + 1}-`.padEnd(12_000, 'abcdefghij') })),
});
