// The checks follow the spec: with a modified copy of spec/openapi.yaml (limit
// maximum 50, a fourth status, an extra required NewPet field) a server built the
// same way is compliant, and the unmodified server fails where it now differs.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpecs, readSpecDocument } from '../harness/api/spec.js';
import { SPEC_DIR } from '../harness/model/paths.js';
import { certifyReference, violations } from './support/run.js';

function modifiedSpec() {
  const doc = readSpecDocument(join(SPEC_DIR, 'openapi.yaml'));
  doc.paths['/pets'].get.parameters.find((p: any) => p.name === 'limit').schema.maximum = 50;
  doc.components.schemas.PetStatus.enum.push('reserved');
  const newPet = doc.components.schemas.NewPet;
  newPet.required.push('ownerId');
  newPet.properties.ownerId = { type: 'integer', minimum: 1 };
  return doc;
}

describe('checks driven by the spec', () => {
  const doc = modifiedSpec();
  const specs = loadSpecs({ store: doc });
  const newPetSchema = JSON.parse(
    JSON.stringify(doc.components.schemas.NewPet).replace('{"$ref":"#/components/schemas/PetStatus"}', JSON.stringify(doc.components.schemas.PetStatus)),
  );

  it('a server built to the modified spec is compliant under it', async () => {
    const report = await certifyReference(
      { limits: { min: 1, max: 50, default: 20 }, statuses: ['available', 'pending', 'sold', 'reserved'], newPetSchema },
      { specs },
    );
    expect(violations(report)).toEqual([]);
    expect(report.requirements.find((r) => r.id === 'CREATE-OK')?.notes.join()).toMatch(/5\d animals created/);
  });

  it('the unmodified server fails under the modified spec, where it differs', async () => {
    const report = await certifyReference({}, { specs });
    const failed = report.requirements.filter((r) => r.outcome === 'failed').map((r) => r.id);
    // limit=51 is honoured, "reserved" is refused, a body without ownerId is accepted
    expect(failed).toEqual(expect.arrayContaining(['LIST-LIMIT-ABOVE-MAX', 'CREATE-OK', 'CREATE-MISSING-REQUIRED']));
    expect(report.requirements.find((r) => r.id === 'CREATE-MISSING-REQUIRED')?.message).toMatch(/ownerId is missing/);
  });
});
