// The OpenAPI descriptions, read at run time: operations, security, parameter
// bounds, enums and schemas all come from here, so a changed spec changes the checks.
// The CLI's bundle carries the schemas of the project's documents compiled by the build
// (built-validators.ts); any other document (a test's, or a spec edited since the build)
// is compiled here, when a schema is first asked for.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { documentDigest, readSpecDocument, sharedSpecDocument } from './documents.js';
import { builtValidators } from './built-validators.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { forValidation, showJson } from '../model/json.js';
import { SPEC_DIR } from '../model/paths.js';
import { formats } from './formats.js';

type Schema = Record<string, any>;

/**
 * The Ajv options every schema of a description is compiled with, at run time and by
 * the build alike. validateSchema off: checking the schemas against the JSON Schema
 * meta-schema cost ~60 ms of every run's start; the self-tests prove the documents valid
 * OpenAPI 3.1 and every schema valid JSON Schema (test/spec.test.ts), not at run time.
 */
const AJV_OPTIONS = { allErrors: true, strict: false, validateSchema: false } as const;

/**
 * An Ajv instance set up to compile a description's component schemas (as `api`), with
 * the formats of formats.ts. The schema compiler is loaded only now: a run of the CLI's
 * bundle never needs it. `options` adds to AJV_OPTIONS (the build's code generation).
 */
export function schemaCompiler(doc: Schema, options: Record<string, unknown> = {}): Ajv2020 {
  const require = createRequire(import.meta.url);
  const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const ajv = new Ajv2020({ ...AJV_OPTIONS, ...options, formats } as ConstructorParameters<typeof Ajv2020>[0]);
  ajv.addSchema({ $id: 'api', components: { schemas: doc.components?.schemas ?? {} } });
  return ajv;
}

export interface Operation {
  id: string;
  method: string;
  /** Path template relative to the base address, e.g. /pets/{petId}. */
  path: string;
  secured: boolean;
  hasBody: boolean;
  /** The media type of its request body (application/json), when it takes one. */
  mediaType?: string;
  deprecated: boolean;
  /** x-removal-date of a deprecated operation (YYYY-MM-DD). */
  removalDate?: string;
  /**
   * The spec documents a success response. GET /store/orders has none: its response is
   * "not shown", so only its existence is described, and a server may lack it.
   */
  successShown: boolean;
}

/** A deprecated operation past its x-removal-date: it need not exist any more. */
export function isRemoved(op: Operation, now: Date): boolean {
  return op.removalDate !== undefined && now >= new Date(op.removalDate);
}

// compiled once per document: the self-tests make hundreds of runs in one process, of one shared document
const compiled = new WeakMap<Schema, Map<string, ValidateFunction>>();
const compiledFor = (doc: Schema) => compiled.get(doc) ?? compiled.set(doc, new Map()).get(doc)!;

/** One OpenAPI document with its schemas compiled once: by the build, or here when first asked for. */
export class ApiDescription {
  readonly doc: Schema;
  readonly operations: Operation[];
  private ajv?: Ajv2020;
  private readonly validators: Map<string, ValidateFunction>;

  /** `built`: the validators the build generated for this very document, by schema name. */
  constructor(doc: Schema, built?: Readonly<Record<string, ValidateFunction>>) {
    this.doc = doc;
    this.operations = readOperations(doc);
    this.validators = built ? new Map(Object.entries(built)) : compiledFor(doc);
  }

  get title(): string {
    return this.doc.info.title;
  }
  get version(): string {
    return this.doc.info.version;
  }

  operation(id: string): Operation {
    const op = this.operations.find((o) => o.id === id);
    if (!op) throw new Error(`operation ${id} is not in the spec`);
    return op;
  }

  /** A component schema with every $ref to another component resolved (not deep into allOf). */
  schema(name: string): Schema {
    const schema = this.doc.components?.schemas?.[name];
    if (!schema) throw new Error(`schema ${name} is not in the spec`);
    return this.deref(schema);
  }

  deref(schema: Schema): Schema {
    const ref: string | undefined = schema?.$ref;
    if (!ref) return schema;
    const name = ref.replace('#/components/schemas/', '');
    return this.schema(name);
  }

  /** A query parameter's schema, e.g. bounds of limit. */
  parameter(operationId: string, name: string): Schema {
    const op = this.operation(operationId);
    const params: Schema[] = this.doc.paths[op.path][op.method.toLowerCase()].parameters ?? [];
    const param = params.find((p) => p.name === name);
    if (!param) throw new Error(`${operationId} has no parameter ${name}`);
    return this.deref(param.schema);
  }

  /**
   * Validation errors of a value against a component schema, or [] when it is valid. An
   * array of a component (Pets) is judged item by item, and only its first MOST_ITEMS
   * invalid items are said: Ajv, collecting every error, copies the list of errors found
   * so far at each invalid item, so a page of 200,000 invalid animals took minutes.
   */
  errors(schemaName: string, value: unknown): string[] {
    const items = Array.isArray(value) ? this.itemSchema(schemaName) : undefined;
    if (items === undefined) return this.problems(schemaName, value, '');
    const found: string[] = [];
    let invalid = 0;
    for (let i = 0; i < (value as unknown[]).length && invalid < MOST_ITEMS; i++) {
      const problems = this.problems(items, (value as unknown[])[i], `/${i}`);
      if (problems.length) invalid++;
      found.push(...problems);
    }
    return found;
  }

  /** The component an array schema's items are, when the schema says nothing else of the array (no bounds on it): its items can be judged alone. */
  private itemSchema(schemaName: string): string | undefined {
    const schema = this.doc.components?.schemas?.[schemaName];
    const ref: unknown = schema?.items?.$ref;
    const plain = schema?.type === 'array' && Object.keys(schema).every((k) => ARRAY_ONLY.has(k));
    return plain && typeof ref === 'string' && ref.startsWith(COMPONENT) ? ref.slice(COMPONENT.length) : undefined;
  }

  /** The errors of one value against a component schema, each at `at` (a JSON pointer) plus where Ajv found it. */
  private problems(schemaName: string, value: unknown, at: string): string[] {
    let validate = this.validators.get(schemaName);
    if (!validate) {
      if (!this.doc.components?.schemas?.[schemaName]) throw new Error(`schema ${schemaName} is not in the spec`);
      this.ajv ??= schemaCompiler(this.doc);
      validate = this.ajv.getSchema(`api#/components/schemas/${schemaName}`)!;
      this.validators.set(schemaName, validate);
    }
    if (validate(forValidation(value))) return [];
    return (validate.errors ?? []).map((e) => {
      const where = at + e.instancePath || '(body)';
      if (e.keyword === 'format' && e.params.format === 'int64') {
        return `${where} ${showJson(atPointer(value, e.instancePath))} is outside the int64 range (-(2^63) to 2^63-1)`;
      }
      return `${where} ${e.message}`;
    });
  }
}

/** The most invalid items of an array whose errors are said (see ApiDescription.errors). */
const MOST_ITEMS = 3;
const COMPONENT = '#/components/schemas/';
/** The keywords of an array schema that ask nothing of the array beyond its items' schema. */
const ARRAY_ONLY = new Set(['type', 'items', 'description', 'title']);

/** The value a JSON pointer (as Ajv's instancePath) names inside a value. */
function atPointer(value: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<any>((at, key) => at?.[key], value);
}

function readOperations(doc: Schema): Operation[] {
  const globalSecurity = doc.security ?? [];
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<Schema>(doc.paths ?? {})) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch']) {
      const op = item[method];
      if (!op) continue;
      const security = op.security ?? globalSecurity;
      ops.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        secured: security.length > 0,
        hasBody: Boolean(op.requestBody),
        ...(op.requestBody && { mediaType: Object.keys(op.requestBody.content ?? {})[0] }),
        deprecated: Boolean(op.deprecated),
        removalDate: op['x-removal-date'],
        successShown: Object.keys(op.responses ?? {}).some((status) => status.startsWith('2')),
      });
    }
  }
  return ops;
}

/** The animal store's description with the facts the checks use named. */
export class AnimalStoreSpec extends ApiDescription {
  /** limit bounds and default of listPets. */
  get limit(): { min: number; max: number; default: number } {
    const s = this.parameter('listPets', 'limit');
    return { min: s.minimum, max: s.maximum, default: s.default };
  }

  /** The PetStatus values, as the status filter of listPets takes them. */
  get statuses(): string[] {
    return this.parameter('listPets', 'status').enum;
  }
}

export { readSpecDocument };

export interface Specs {
  store: AnimalStoreSpec;
  quickstart: ApiDescription;
}

/** Loads spec/openapi.yaml and spec/quickstart.yaml (or the given documents). */
export function loadSpecs(docs: { store?: Schema; quickstart?: Schema } = {}): Specs {
  const [store, storeValidators] = docs.store ? [docs.store] : projectDocument('openapi.yaml');
  const [quickstart, quickstartValidators] = docs.quickstart ? [docs.quickstart] : projectDocument('quickstart.yaml');
  return { store: new AnimalStoreSpec(store, storeValidators), quickstart: new ApiDescription(quickstart, quickstartValidators) };
}

/** One of the project's OpenAPI documents, with the build's validators when it is the document they were built from. */
function projectDocument(name: string): [Schema, Readonly<Record<string, ValidateFunction>>?] {
  const file = join(SPEC_DIR, name);
  const doc = sharedSpecDocument(file);
  const built = builtValidators?.[name];
  return [doc, built?.sha256 === documentDigest(file) ? built.schemas : undefined];
}
