// The OpenAPI descriptions, read at run time: operations, security, parameter
// bounds, enums and schemas all come from here, so a changed spec changes the checks.
import { join } from 'node:path';
import { readSpecDocument } from './documents.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule, { type FormatsPlugin } from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { forValidation, isInt64Range, showJson } from '../model/json.js';
import { SPEC_DIR } from '../model/paths.js';

type Schema = Record<string, any>;

// ajv-formats is CommonJS: Node hands its default export over as the module object,
// a bundler (Vitest) as the function itself
const addFormats = ((formatsModule as any).default ?? formatsModule) as FormatsPlugin;

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

/** One OpenAPI document with its schemas compiled once. */
export class ApiDescription {
  readonly doc: Schema;
  readonly operations: Operation[];
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(doc: Schema) {
    this.doc = doc;
    this.operations = readOperations(doc);
    // validateSchema off: checking the schemas against the JSON Schema meta-schema cost
    // ~60 ms of every run's start; the self-tests prove the documents valid OpenAPI 3.1
    // and every schema valid JSON Schema (test/spec.test.ts), not at run time
    this.ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
    addFormats(this.ajv);
    // ajv-formats' int64 only asks Number.isInteger, so 2^64 passed: the range is judged
    // here (on the numbers forValidation gives; 1e400 is Infinity, outside), and a
    // fraction is left to the schema's type: integer
    this.ajv.addFormat('int64', { type: 'number', validate: (n: number) => isInt64Range(n) || (Number.isFinite(n) && !Number.isInteger(n)) });
    this.ajv.addSchema({ $id: 'api', components: { schemas: doc.components?.schemas ?? {} } });
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

  /**
   * Every query parameter of an operation with one valid value: the first member of an
   * enumeration, an integer's minimum (or its default, or 1); for a probe that must
   * differ from the plain request only in carrying the parameter.
   */
  queryExamples(operationId: string): Array<Record<string, string | number>> {
    const op = this.operation(operationId);
    const params: Schema[] = this.doc.paths[op.path][op.method.toLowerCase()].parameters ?? [];
    return params
      .filter((p) => p.in === 'query')
      .map((p) => {
        const schema = this.deref(p.schema);
        const value = schema.enum?.[0] ?? schema.minimum ?? schema.default ?? 1;
        return { [p.name]: value };
      });
  }

  /** A query parameter's schema, e.g. bounds of limit. */
  parameter(operationId: string, name: string): Schema {
    const op = this.operation(operationId);
    const params: Schema[] = this.doc.paths[op.path][op.method.toLowerCase()].parameters ?? [];
    const param = params.find((p) => p.name === name);
    if (!param) throw new Error(`${operationId} has no parameter ${name}`);
    return this.deref(param.schema);
  }

  /** Validation errors of a value against a component schema, or [] when it is valid. */
  errors(schemaName: string, value: unknown): string[] {
    let validate = this.validators.get(schemaName);
    if (!validate) {
      validate = this.ajv.getSchema(`api#/components/schemas/${schemaName}`);
      if (!validate) throw new Error(`schema ${schemaName} is not in the spec`);
      this.validators.set(schemaName, validate);
    }
    if (validate(forValidation(value))) return [];
    return (validate.errors ?? []).map((e) => {
      const where = e.instancePath || '(body)';
      if (e.keyword === 'format' && e.params.format === 'int64') {
        return `${where} ${showJson(atPointer(value, e.instancePath))} is outside the int64 range (-(2^63) to 2^63-1)`;
      }
      return `${where} ${e.message}`;
    });
  }
}

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
  return {
    store: new AnimalStoreSpec(docs.store ?? readSpecDocument(join(SPEC_DIR, 'openapi.yaml'))),
    quickstart: new ApiDescription(docs.quickstart ?? readSpecDocument(join(SPEC_DIR, 'quickstart.yaml'))),
  };
}
