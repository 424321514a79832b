// Every requirement has a check and every check a requirement.
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../harness/api/catalogue.js';
import { conformanceChecks } from '../checks/index.js';

describe('requirement catalogue', () => {
  const catalogue = loadCatalogue();

  it('has a check for every entry and an entry for every check', () => {
    const ids = catalogue.map((r) => r.id).sort();
    const checkIds = conformanceChecks().map((c) => c.id);
    expect(new Set(checkIds).size, 'an id has two checks').toBe(checkIds.length);
    expect(checkIds.sort()).toEqual(ids);
  });

  // The catalogue promises that an id is never reused: an entry whose level or title
  // changes is a new requirement under a new id, and a removed id stays retired. This
  // snapshot fails on either; a new entry is added to it on purpose (vitest -u).
  it('keeps the meaning of every existing id (snapshot of id, level and title)', async () => {
    const frozen = catalogue.map((r) => `${r.id} ${r.level} ${r.title}`).join('\n');
    await expect(frozen + '\n').toMatchFileSnapshot('./fixtures/catalogue-ids.txt');
  });

  // certify-only: what creates data, and read-only SHOULDs that health leaves out (its
  // request budget; a key in a URL)
  it('runs in health only what creates no data on a conforming server', () => {
    const certifyOnly = catalogue
      .filter((r) => !r.profiles.includes('health'))
      .map((r) => r.id)
      .sort();
    expect(certifyOnly).toEqual([
      'AUTH-BEFORE-LOOKUP',
      'AUTH-NO-QUERY-TOKEN',
      'CREATE-ECHO',
      'CREATE-ID-ASSIGNED',
      'CREATE-ID-UNIQUE',
      'CREATE-OK',
      'CREATE-ROUND-TRIP',
      'CREATE-STORED-AS-SENT',
      'CREATE-VALID-ACCEPTED',
      'CREATE-VIEWS-AGREE',
      'QS-CREATED-AT-CLOCK',
      'QS-CREATED-AT-UTC',
      'QS-CREATED-AT-ZONE',
      'QS-ECHO',
      'QS-OK',
      'QS-VALID-SPELLINGS',
    ]);
  });

  it('records what the check accepts wherever the description leaves a choice (every SHOULD says why)', () => {
    for (const r of catalogue.filter((r) => r.level === 'SHOULD')) expect(r.accepts, r.id).toBeTruthy();
  });

  it('keeps accepts short: at most 3,000 words in all, 150 in any one', () => {
    const words = catalogue.map((r) => (r.accepts ?? '').split(/\s+/).filter(Boolean).length);
    expect(Math.max(...words)).toBeLessThanOrEqual(150);
    expect(words.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3000);
  });

  it('rejects a malformed entry', async () => {
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(`${tmpdir()}/catalogue-`);
    await writeFile(`${dir}/r.yaml`, 'requirements:\n  - { id: LIST-X, level: MAY, area: list, operation: x, title: t, source: s, profiles: [certify] }\n');
    expect(() => loadCatalogue(`${dir}/r.yaml`)).toThrow(/level must be MUST or SHOULD/);
  });
});
