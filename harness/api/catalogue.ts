// The requirement catalogue (spec/requirements.yaml), read and checked for shape.
import { join } from 'node:path';
import { sharedSpecDocument } from './documents.js';
import { SPEC_DIR } from '../model/paths.js';
import { PROFILES, type Requirement } from '../model/types.js';

/** Areas in report order (suites/<area>.test.ts, checks/<area>.ts). */
export const AREAS = ['auth', 'errors', 'media', 'http', 'list', 'create', 'get', 'orders', 'quickstart', 'performance'] as const;

/** `health`: what a health run sends (see the catalogue's head). */
export type CatalogueEntry = Requirement & { health?: { requests: number; samples?: number | Record<string, number> } };

/** The anchor GitHub gives a heading made of the id alone (docs/requirements.md). */
export const anchorOf = (id: string) => id.toLowerCase();

const isCount = (n: unknown) => Number.isInteger(n) && (n as number) >= 0;

function healthDeclared({ profiles, health }: CatalogueEntry) {
  if (!profiles.includes('health')) return health === undefined;
  const samples = typeof health?.samples === 'object' ? Object.values(health.samples) : [health?.samples ?? 0];
  return isCount(health?.requests) && samples.every(isCount);
}

export function loadCatalogue(file = join(SPEC_DIR, 'requirements.yaml')): CatalogueEntry[] {
  const doc = sharedSpecDocument(file);
  const seen = new Set<string>();
  for (const r of doc.requirements as CatalogueEntry[]) {
    const problem = !/^[A-Z]+(-[A-Z0-9]+)+$/.test(r.id)
      ? 'id must be UPPER-KEBAB with an area prefix'
      : seen.has(r.id)
        ? 'duplicate id'
        : !['MUST', 'SHOULD'].includes(r.level)
          ? 'level must be MUST or SHOULD'
          : !(AREAS as readonly string[]).includes(r.area)
            ? `area must be one of ${AREAS.join(', ')}`
            : !r.title || !r.source || !r.operation
              ? 'title, source and operation are required'
              : [r.observer, r.quiet].some((flag) => flag !== undefined && typeof flag !== 'boolean')
                ? 'observer and quiet must be true or false'
                : !r.profiles?.length || r.profiles.some((p) => !PROFILES.includes(p))
                  ? `profiles must be among ${PROFILES.join(', ')}`
                  : !healthDeclared(r)
                    ? 'health (requests, samples: counts) must be declared where it runs in health, and only there'
                    : undefined;
    if (problem) throw new Error(`requirements.yaml: ${r.id ?? '(no id)'}: ${problem}`);
    seen.add(r.id);
  }
  return [...doc.requirements];
}
