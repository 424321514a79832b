// Every requirement has a check and every check a requirement.
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../harness/api/catalogue.js';
import { CHECKS } from '../harness/run/check.js';
import '../checks/index.js';

describe('requirement catalogue', () => {
  const catalogue = loadCatalogue();

  it('has a check for every entry and an entry for every check', () => {
    const ids = catalogue.map((r) => r.id).sort();
    expect([...CHECKS.keys()].sort()).toEqual(ids);
  });

  it('runs in health only what creates no data on a conforming server', () => {
    const certifyOnly = catalogue.filter((r) => !r.profiles.includes('health')).map((r) => r.id).sort();
    expect(certifyOnly).toEqual(['CREATE-ECHO', 'CREATE-ID-ASSIGNED', 'CREATE-ID-UNIQUE', 'CREATE-OK', 'CREATE-ROUND-TRIP', 'CREATE-VALID-ACCEPTED',
      'QS-CREATED-AT-CLOCK', 'QS-CREATED-AT-UTC', 'QS-ECHO', 'QS-OK']);
  });

  it('records what the check accepts wherever the description leaves a choice (every SHOULD says why)', () => {
    for (const r of catalogue.filter((r) => r.level === 'SHOULD')) expect(r.accepts, r.id).toBeTruthy();
  });

  it('rejects a malformed entry', async () => {
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(`${tmpdir()}/catalogue-`);
    await writeFile(`${dir}/r.yaml`, 'requirements:\n  - { id: LIST-X, level: MAY, area: list, operation: x, title: t, source: s, profiles: [certify] }\n');
    expect(() => loadCatalogue(`${dir}/r.yaml`)).toThrow(/level must be MUST or SHOULD/);
  });
});
