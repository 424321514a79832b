import type { ValidateFunction } from 'ajv';
import { builtNewPetValidator } from './built-new-pet.js';
import type { FaultName } from './faults.js';
import type { VariantName } from './variants.js';
import { Switches } from './seams.js';
import { Animals } from './store/animals.js';
import type { Fields } from './wire.js';

export interface ReferenceOptions {
  apiKey: string;
  /** Default apiKey. */
  quickstartApiKey?: string;
  faults?: FaultName[];
  variants?: VariantName[];
  /** Page size bounds of GET /pets; default 1/100/20. */
  limits?: { min: number; max: number; default: number };
  /** PetStatus values; default available, pending, sold. */
  statuses?: string[];
  /** JSON Schema (2020-12) for NewPet; default the documented one. */
  newPetSchema?: object;
  /** Animals in the store at start, spread over every status. */
  prefill?: number;
  /** A gateway's token bucket of this many animal-store requests a second, beyond which 429 with Retry-After: 1. */
  ratePerSecond?: number;
  /** One animal-store request in `every` (any method) gets 503 with Retry-After: `retryAfterSeconds`. */
  loadShedding?: { every: number; retryAfterSeconds: number };
  /** A single worker: one animal-store request at a time, each taking this many ms (abandoned ones too). */
  oneAtATimeMs?: number;
  /** Requests to this animal-store operation are never answered. */
  neverAnswers?: string;
  /** After answering this many animal-store requests the server is gone, as a killed process. */
  killedAfter?: number;
  /** After answering this many quickstart requests its port is gone (the animal store goes on); 0: down from the start. */
  quickstartKilledAfter?: number;
  /** One animal-store GET in this many answers 500 (a flaky backend). */
  failsEvery?: number;
  /** Ports 0 (the default) take free ones; host 127.0.0.1 by default. */
  listen?: { host?: string; port?: number; quickstartPort?: number };
  /** Told of every request once it is answered or its connection closes (`serve` logs them). */
  onRequest?: (request: RequestLog) => void;
}

/** `status` 0: the connection closed with no answer. */
export type RequestLog = { service: 'store' | 'quickstart'; method: string; url: string; status: number; ms: number };

export type Context = Awaited<ReturnType<typeof resolveOptions>>;

let documentedValidator: ValidateFunction | undefined;

const STATUSES = ['available', 'pending', 'sold'];

export const newPetSchema = (statuses = STATUSES): Record<string, any> => ({
  type: 'object',
  required: ['name', 'categoryId'],
  properties: { name: { type: 'string' }, categoryId: { type: 'integer', format: 'int64' }, status: { type: 'string', enum: statuses } },
});

export async function resolveOptions(opts: ReferenceOptions) {
  const sw = new Switches(new Set([...(opts.faults ?? []), ...(opts.variants ?? [])]));
  const statuses = opts.statuses ?? STATUSES;
  const schema = (opts.newPetSchema ?? newPetSchema(statuses)) as Record<string, any>;
  const documented = opts.newPetSchema === undefined && opts.statuses === undefined;
  const compile = async () => (await import('./compiler.js')).referenceCompiler().compile(schema);
  // the documented one compiled once: the self-tests start hundreds of servers in one process
  const validate = documented ? (builtNewPetValidator ?? (documentedValidator ??= await compile())) : await compile();
  return {
    opts,
    sw,
    apiKey: opts.apiKey,
    quickstartApiKey: opts.quickstartApiKey ?? opts.apiKey,
    limits: opts.limits ?? { min: 1, max: 100, default: 20 },
    statuses,
    newPet: { properties: (schema.properties ?? {}) as Record<string, any>, required: (schema.required ?? []) as string[], validate },
    animals: new Animals(sw),
    messages: [] as Array<Fields>,
    /** Requests received per animal-store operation ("(no route)" for the rest). */
    received: new Map<string, number>(),
  };
}
