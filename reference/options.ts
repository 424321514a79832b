// The options a reference server is started with, and the context every part of it
// reads: the options resolved to their defaults (the documented ones), the deviations
// switched on, and the state of both services.
import type { ValidateFunction } from 'ajv';
import { builtNewPetValidator } from './built-new-pet.js';
import type { FaultName } from './faults.js';
import type { VariantName } from './variants.js';
import { Switches } from './seams.js';
import { Animals } from './store/animals.js';
import type { Json } from './wire.js';

export interface ReferenceOptions {
  /** The valid bearer key. */
  apiKey: string;
  /** Key of the quickstart service; defaults to apiKey. */
  quickstartApiKey?: string;
  /** Deliberate violations, see faults.ts. */
  faults?: FaultName[];
  /** Allowed alternative readings, see variants.ts. */
  variants?: VariantName[];
  /** Page size bounds of GET /pets; default 1/100/20. */
  limits?: { min: number; max: number; default: number };
  /** PetStatus values; default available, pending, sold. */
  statuses?: string[];
  /** JSON Schema (2020-12) for NewPet; default the documented one. */
  newPetSchema?: object;
  /** Animals already in the store at start, spread over every status (default 0). */
  prefill?: number;
  /**
   * A rate limit, as a gateway in front of a correct server applies it: a token
   * bucket of this many animal-store requests a second (bursts up to as many),
   * beyond which 429 with Retry-After: 1. Not a variant: every run against it takes
   * seconds, so only the test of rate limiting starts one.
   */
  ratePerSecond?: number;
  /**
   * Load shedding, as a server under load answers: one animal-store request in `every`
   * (any method) gets 503 with Retry-After: `retryAfterSeconds`. The load-shedding variant
   * is this with Retry-After: 0; a longer one makes every run take seconds.
   */
  loadShedding?: { every: number; retryAfterSeconds: number };
  /** A single worker: the animal store serves one request at a time, each taking this many ms (abandoned ones too). */
  oneAtATimeMs?: number;
  /** Requests to this animal-store operation (any, valid or not) are never answered; the rest are. */
  neverAnswers?: string;
  /** After answering this many animal-store requests the server is gone, as a killed process: both ports closed, every connection dropped. */
  killedAfter?: number;
  /** After answering this many quickstart requests its port is gone (the animal store goes on); 0: down from the start. */
  quickstartKilledAfter?: number;
  /** One animal-store GET in this many answers 500 (a flaky backend): a retry (--retries) gets a right answer. */
  failsEvery?: number;
  /** Where the services listen: ports 0 (the default) take free ones; host 127.0.0.1 by default. */
  listen?: { host?: string; port?: number; quickstartPort?: number };
  /** Told of every request once it is answered or its connection closes (`serve` logs them). */
  onRequest?: (request: RequestLog) => void;
}

/** One request a service got: what `serve` logs. The URL is as sent: the logger decides what of it to show. */
export interface RequestLog {
  service: 'store' | 'quickstart';
  method: string;
  url: string;
  /** 0 when the connection closed with no answer. */
  status: number;
  ms: number;
}

/** What every part of a running reference server reads. */
export interface Context {
  opts: ReferenceOptions;
  sw: Switches;
  apiKey: string;
  quickstartApiKey: string;
  limits: { min: number; max: number; default: number };
  statuses: string[];
  /** NewPet's properties and required fields, and its validator. */
  newPet: { properties: Record<string, any>; required: string[]; validate: ValidateFunction };
  animals: Animals;
  messages: Array<Record<string, Json>>;
  /** Requests received per animal-store operation ("(no route)" for the rest). */
  received: Map<string, number>;
}

let documentedValidator: Context['newPet']['validate'] | undefined;

/** The documented PetStatus values. */
const STATUSES = ['available', 'pending', 'sold'];

/** NewPet as the description shows it, with these statuses. */
export function newPetSchema(statuses = STATUSES): Record<string, any> {
  return {
    type: 'object',
    required: ['name', 'categoryId'],
    properties: {
      name: { type: 'string' },
      categoryId: { type: 'integer', format: 'int64' },
      status: { type: 'string', enum: statuses },
    },
  };
}

export async function resolveOptions(opts: ReferenceOptions): Promise<Context> {
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
    newPet: { properties: schema.properties ?? {}, required: schema.required ?? [], validate },
    animals: new Animals(sw),
    messages: [],
    received: new Map(),
  };
}
