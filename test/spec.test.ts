// The OpenAPI documents are valid OpenAPI 3.1 and say what the API description says.
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { compileErrors, validate } from '@readme/openapi-parser';
import { loadSpecs, readSpecDocument } from '../harness/api/spec.js';
import { SPEC_DIR } from '../harness/model/paths.js';

// @readme/openapi-parser: the OpenAPI 3.1 schema plus the rules it cannot express
// (unique operationIds, resolvable $refs, path parameters declared)
async function problems(doc: object): Promise<string | undefined> {
  const result = await validate(structuredClone(doc) as any);
  return result.valid ? undefined : compileErrors(result);
}

describe('OpenAPI documents', () => {
  it.each(['openapi.yaml', 'quickstart.yaml'])('%s is valid OpenAPI 3.1', async (file) => {
    expect(await problems(readSpecDocument(join(SPEC_DIR, file)))).toBeUndefined();
  });

  // the run compiles them without this check (validateSchema: false, for its start-up
  // time), and the OpenAPI validator above does not look inside schema keywords
  it.each(['openapi.yaml', 'quickstart.yaml'])('every component schema of %s is valid JSON Schema 2020-12', (file) => {
    const ajv = new Ajv2020({ strict: false });
    const schemas = Object.entries<object>(readSpecDocument(join(SPEC_DIR, file)).components?.schemas ?? {});
    expect(schemas.length).toBeGreaterThan(0);
    for (const [name, schema] of schemas) expect(ajv.validateSchema(schema), `${name}: ${ajv.errorsText()}`).toBe(true);
    expect(ajv.validateSchema({ type: 'string', maxLength: -3 }), 'the meta-schema check is live').toBe(false);
  });

  it('the validator is live: a broken document is rejected', async () => {
    const doc = readSpecDocument(join(SPEC_DIR, 'openapi.yaml'));
    doc.paths['/pets/{petId}'].get.parameters = [];
    expect(await problems(doc)).toMatch(/petId/);
  });
});

describe('spec/openapi.yaml follows the API description', () => {
  const { store, quickstart } = loadSpecs();

  it('has the four operations, each secured with bearerAuth', () => {
    expect(store.operations.map((o) => `${o.id} ${o.method} ${o.path}`).sort()).toEqual([
      'createPet POST /pets',
      'getPet GET /pets/{petId}',
      'listOrders GET /store/orders',
      'listPets GET /pets',
    ]);
    expect(store.operations.every((o) => o.secured)).toBe(true);
    expect(store.doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('marks getPet deprecated with its removal date', () => {
    expect(store.operation('getPet')).toMatchObject({ deprecated: true, removalDate: '2030-12-05' });
  });

  it('has the documented limit bounds and statuses', () => {
    expect(store.limit).toEqual({ min: 1, max: 100, default: 20 });
    expect(store.statuses).toEqual(['available', 'pending', 'sold']);
  });

  it('has the documented schemas', () => {
    expect(store.schema('NewPet').required).toEqual(['name', 'categoryId']);
    expect(store.schema('Error').required).toEqual(['code', 'message', 'status']);
    expect(store.errors('Pet', { id: 1, name: 'a', categoryId: 2 })).toEqual([]);
    expect(store.errors('Pet', { name: 'a', categoryId: 2 })).not.toEqual([]);
    expect(store.errors('Pets', { items: [] })).not.toEqual([]);
    expect(store.errors('Pets', [{ id: 2n ** 60n, name: 'a', categoryId: 2, status: 'sold' }])).toEqual([]);
  });

  it('says what is wrong with the first three invalid animals of a list, however many there are', () => {
    const valid = { id: 1, name: 'a', categoryId: 2 };
    const invalid = { id: 'x', name: 1, categoryId: 'c', status: 'lost' };
    const flood = [valid, ...Array.from({ length: 200_000 }, () => invalid)];
    const problems = ['/name must be string', '/categoryId must be integer', '/status must be equal to one of the allowed values', '/id must be integer'];
    expect(store.errors('Pets', flood)).toEqual([1, 2, 3].flatMap((i) => problems.map((p) => `/${i}${p}`)));
    // as Ajv says them when judging the whole list, for a list of few
    expect(store.errors('Pets', [invalid, valid, { name: 'b' }])).toEqual([
      ...problems.map((p) => `/0${p}`),
      "/2 must have required property 'categoryId'",
      "/2 must have required property 'id'",
    ]);
  });

  it('has servers ending in /v1, the animals tag and the Store and Pets groups', () => {
    expect(store.doc.servers).toHaveLength(2);
    for (const s of store.doc.servers) expect(Object.values<any>(s.variables)[0].default).toMatch(/\/v1$/);
    expect(store.doc.tags.map((t: any) => t.name)).toEqual(['animals']);
    expect(store.doc['x-tagGroups'].map((g: any) => g.name)).toEqual(['Store', 'Pets']);
  });

  it('describes the quickstart message operation', () => {
    expect(quickstart.operation('sendMessage')).toMatchObject({ method: 'POST', path: '/messages', secured: true });
    expect(quickstart.errors('Message', { id: 'a', message: 'b', status: 'queued', createdAt: '2026-01-01T00:00:00Z' })).toEqual([]);
    expect(quickstart.errors('Message', { id: 'a', message: 'b', status: 'queued', createdAt: 'yesterday' })).not.toEqual([]);
  });
});
