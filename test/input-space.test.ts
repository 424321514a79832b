// The input space: the classes of each dimension of a request, derived from the spec
// where it defines them, and the interior values a run draws, replayed by --seed.
import { describe, expect, it } from 'vitest';
import {
  READ_HEADER_SPELLINGS,
  bodySpellingsOf,
  contentTypeSpellings,
  enumProbes,
  integerSpellings,
  pathSpellings,
  undocumentedMethods,
} from '../harness/api/input-space.js';
import { credentialClasses } from '../harness/api/credentials.js';
import { loadSpecs } from '../harness/api/spec.js';
import { startReferenceServer } from '../reference/server.js';
import { runConformance } from '../harness/run/runner.js';
import { API_KEY, certifyReference, referenceRun } from './support/run.js';

const spec = loadSpecs().store;

describe('the input space', () => {
  it('spells a path every way a router or proxy may read differently', () => {
    expect(pathSpellings('/pets').map((s) => s.path)).toEqual(['/pets/', '/PETS', '//pets', '/pets.json', '/pets;x=1', '/%70ets']);
    expect(pathSpellings('/pets/7').map((s) => s.path)).toEqual(['/pets/7/', '/PETS/7', '//pets/7', '/pets/7.json', '/pets/7;x=1', '/%70ets/7']);
    expect(integerSpellings('7').map((s) => s.value)).toEqual(['07', '+7', '%207%20', '%EF%BC%97']);
  });

  it('derives the undocumented methods of each path from the spec', () => {
    expect(undocumentedMethods(spec, '/pets')).toEqual({ safe: ['HEAD', 'OPTIONS'], unsafe: ['PUT', 'PATCH', 'DELETE'] });
    expect(undocumentedMethods(spec, '/pets/{petId}')).toEqual({ safe: ['HEAD', 'OPTIONS'], unsafe: ['POST', 'PUT', 'PATCH', 'DELETE'] });
  });

  it('names every class of credential once, only the lower-case scheme among them valid', () => {
    const classes = credentialClasses('sk_live_8f3a9c1d2e4b', '$API_KEY', true, 'xq_wpnz_1a7b3d4c5f6e');
    expect([...new Set(classes.map((c) => c.kind))]).toEqual([
      'missing',
      'empty',
      'scheme-only',
      'unset-variable',
      'changed',
      'extended',
      'shortened',
      'case-changed',
      'prefixed',
      'second-word',
      'scheme-twice',
      'other-scheme',
      'no-scheme',
      'glued',
      'scheme-case',
    ]);
    expect(classes.filter((c) => c.valid).map((c) => c.header)).toEqual(['bearer sk_live_8f3a9c1d2e4b']);
    expect(new Set(classes.map((c) => c.header)).size).toBe(classes.length);
  });

  it('without key variants, sends no class that carries the key: a random key of its format stands in, and no valid spelling is left', () => {
    const key = 'sk_live_8f3a9c1d2e4b';
    const classes = credentialClasses(key, '$API_KEY', false, 'xq_wpnz_1a7b3d4c5f6e');
    expect(classes.filter((c) => c.header?.includes(key.slice(8)))).toEqual([]);
    expect([...new Set(classes.map((c) => c.kind))]).toEqual([
      'missing',
      'empty',
      'scheme-only',
      'unset-variable',
      'random',
      'scheme-twice',
      'other-scheme',
      'no-scheme',
      'glued',
    ]);
    expect(classes.filter((c) => c.valid)).toEqual([]);
    expect(classes.find((c) => c.kind === 'glued')!.header).toBe('Bearerxq_wpnz_1a7b3d4c5f6e');
  });

  it('spells headers as other clients do, and takes the media type and the enumeration from the spec', () => {
    expect(READ_HEADER_SPELLINGS.map((a) => a.headers)).toEqual([
      { accept: '*/*' },
      { 'accept-encoding': 'gzip' },
      { accept: null },
      { accept: 'application/*' },
      { accept: 'text/plain, application/json' },
      { 'content-type': 'application/json' },
    ]);
    expect(bodySpellingsOf('application/json').map((b) => b.options)).toEqual([
      { contentType: 'application/json; charset=utf-8' },
      { contentType: 'Application/Json' },
      { chunked: true },
    ]);
    expect(contentTypeSpellings(spec.operation('createPet').mediaType!).map((c) => c.contentType)).toEqual([
      'application/json; charset=utf-8',
      'Application/Json',
    ]);
    expect(enumProbes(spec.parameter('listPets', 'status'))).toEqual({ members: ['available', 'pending', 'sold'], outside: ['not-a-member', 'AVAILABLE', ''] });
  });
});

describe('interior values', () => {
  const limitsOf = (report: Awaited<ReturnType<typeof certifyReference>>) =>
    report.requirements.find((r) => r.id === 'LIST-LIMIT-ANY')!.notes.find((n) => n.startsWith('limits drawn'));

  it('are drawn from inside the bounds with the seed, the same for the same seed, in the report', async () => {
    const only = { selected: new Set(['LIST-LIMIT-ANY']) };
    const [a, b, c] = await Promise.all([
      certifyReference({}, { ...only, seed: 11 }),
      certifyReference({}, { ...only, seed: 11 }),
      certifyReference({}, { ...only, seed: 12 }),
    ]);
    expect(a.seed).toBe(11);
    expect(limitsOf(a)).toMatch(/^limits drawn with --seed 11: \d+, \d+, \d+, \d+, \d+, \d+, \d+, \d+$/);
    expect(limitsOf(b)).toBe(limitsOf(a));
    expect(limitsOf(c)).not.toBe(limitsOf(a));
    const drawn = limitsOf(a)!.split(': ')[1].split(', ').map(Number);
    expect(drawn.every((n) => n > 1 && n < 100)).toBe(true);
    expect(new Set(drawn).size).toBe(drawn.length);
  });
});

describe('health', () => {
  // a server whose update and delete exist behind the key, and one that deletes without it
  it.each([['update-delete-implemented'], ['delete-unauthenticated']])('sends no write to an animal (%s)', async (deviation) => {
    const variants = deviation === 'update-delete-implemented' ? ['update-delete-implemented' as const] : [];
    const faults = deviation === 'delete-unauthenticated' ? ['delete-unauthenticated' as const] : [];
    const ref = await startReferenceServer({ apiKey: API_KEY, prefill: 30, variants, faults });
    try {
      await runConformance(referenceRun(ref, { profile: 'health' }));
      expect(ref.petCount()).toBe(30);
      expect(ref.messageCount()).toBe(0);
      for (const op of ['replacePet', 'deletePet']) expect(ref.requestsFor(op), op).toBe(0);
    } finally {
      await ref.close();
    }
  });

  // an empty store: the getPet probes have no animal, and a lookup before the key answers 404
  it('on an empty store with a lookup before the key, finds nothing to fail', async () => {
    const ref = await startReferenceServer({ apiKey: API_KEY, variants: ['lookup-before-auth'] });
    try {
      const report = await runConformance(referenceRun(ref, { profile: 'health' }));
      expect(report.requirements.filter((r) => r.outcome === 'failed').map((r) => `${r.id}: ${r.message}`)).toEqual([]);
    } finally {
      await ref.close();
    }
  });
});
