// The OpenAPI descriptions, read at run time. The CLI's bundle carries the project documents' schemas compiled by the build; any other
// document is compiled here when first asked.
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

/** validateSchema off: it cost ~60 ms of every start; test/spec.test.ts proves the schemas valid. */
const AJV_OPTIONS = { allErrors: true, strict: false, validateSchema: false } as const;

/** The compiler is loaded only now: a run of the CLI's bundle never needs it. */
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
  path: string;
  secured: boolean;
  hasBody: boolean;
  mediaType?: string;
  deprecated: boolean;
  removalDate?: string;
  /** GET /store/orders has none: only its existence is described. */
  successShown: boolean;
}

export function isRemoved(op: Operation, now: Date): boolean {
  return op.removalDate !== undefined && now >= new Date(op.removalDate);
}

// once per document: the self-tests make hundreds of runs in one process, of one shared document
const compiled = new WeakMap<Schema, Map<string, ValidateFunction>>();
const compiledFor = (doc: Schema) => compiled.get(doc) ?? compiled.set(doc, new Map()).get(doc)!;

export class ApiDescription {
  readonly doc: Schema;
  readonly operations: Operation[];
  private ajv?: Ajv2020;
  private readonly validators: Map<string, ValidateFunction>;

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

  /** Every $ref to another component resolved (not deep into allOf). */
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

  parameter(operationId: string, name: string): Schema {
    const op = this.operation(operationId);
    const params: Schema[] = this.doc.paths[op.path][op.method.toLowerCase()].parameters ?? [];
    const param = params.find((p) => p.name === name);
    if (!param) throw new Error(`${operationId} has no parameter ${name}`);
    return this.deref(param.schema);
  }

  /**
   * An array of a component is judged item by item, its first MOST_ITEMS invalid items only: Ajv copies the errors found so far at each
   * invalid item, and 200,000 of them took minutes.
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

  /** When the array schema says nothing else of the array, its items can be judged alone. */
  private itemSchema(schemaName: string): string | undefined {
    const schema = this.doc.components?.schemas?.[schemaName];
    const ref: unknown = schema?.items?.$ref;
    const plain = schema?.type === 'array' && Object.keys(schema).every((k) => ARRAY_ONLY.has(k));
    return plain && typeof ref === 'string' && ref.startsWith(COMPONENT) ? ref.slice(COMPONENT.length) : undefined;
  }

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

const MOST_ITEMS = 3;
const COMPONENT = '#/components/schemas/';
const ARRAY_ONLY = new Set(['type', 'items', 'description', 'title']);

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

export class AnimalStoreSpec extends ApiDescription {
  get limit(): { min: number; max: number; default: number } {
    const s = this.parameter('listPets', 'limit');
    return { min: s.minimum, max: s.maximum, default: s.default };
  }

  get statuses(): string[] {
    return this.parameter('listPets', 'status').enum;
  }
}

export { readSpecDocument };

export interface Specs {
  store: AnimalStoreSpec;
  quickstart: ApiDescription;
}

export function loadSpecs(docs: { store?: Schema; quickstart?: Schema } = {}): Specs {
  const [store, storeValidators] = docs.store ? [docs.store] : projectDocument('openapi.yaml');
  const [quickstart, quickstartValidators] = docs.quickstart ? [docs.quickstart] : projectDocument('quickstart.yaml');
  return { store: new AnimalStoreSpec(store, storeValidators), quickstart: new ApiDescription(quickstart, quickstartValidators) };
}

/** With the build's validators when it is the document they were built from. */
function projectDocument(name: string): [Schema, Readonly<Record<string, ValidateFunction>>?] {
  const file = join(SPEC_DIR, name);
  const doc = sharedSpecDocument(file);
  const built = builtValidators?.[name];
  return [doc, built?.sha256 === documentDigest(file) ? built.schemas : undefined];
}
