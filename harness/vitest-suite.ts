// Turns the catalogue into Vitest test cases, one per requirement, titled
// "<ID> <LEVEL> <title>" so that `vitest run -t LIST-` selects an area. All suite
// files of a Vitest run share one Session (one preflight, one seeding).
import { describe, inject, test } from 'vitest';
import { loadCatalogue } from './catalogue.js';
import { CHECKS } from './registry.js';
import { Session, type ReportBase, type SessionOptions, type Target } from './session.js';
import { loadSpecs } from './spec.js';
import type { Profile, RequirementResult } from './types.js';
import '../checks/index.js';

export interface SuiteSettings {
  target: Target;
  profile: Profile;
  timeoutMs: number;
  deadlineMs: number;
  concurrency: number;
  now: string;
}

declare module 'vitest' {
  export interface ProvidedContext { conformance: SuiteSettings }
}

declare module '@vitest/runner' {
  // the result and the run's figures ride on the test case, for reporters/vitest-compliance.ts
  interface TaskMeta { requirement?: RequirementResult; run?: ReportBase }
}

let shared: Promise<Session> | undefined;

function session(): Promise<Session> {
  shared ??= (async () => {
    const settings = inject('conformance');
    const options: SessionOptions = { ...settings, now: new Date(settings.now) };
    const s = new Session(options, loadSpecs());
    await s.preflight();
    return s;
  })();
  return shared;
}

export function defineAreaSuite(area: string): void {
  const requirements = loadCatalogue().filter((r) => r.area === area);
  describe.concurrent(area, () => {
    for (const requirement of requirements) {
      test(`${requirement.id} ${requirement.level} ${requirement.title}`, async ({ skip, task }) => {
        const s = await session();
        if (CHECKS.get(requirement.id)?.observer) await s.settled();
        const result = await s.run(requirement);
        task.meta.requirement = result;
        task.meta.run = s.reportBase();
        if (result.outcome === 'skipped' || result.outcome === 'inconclusive') skip(`${result.outcome}: ${result.message}`);
        if (result.outcome === 'failed' || result.outcome === 'error') {
          throw new Error(`${result.outcome}: ${result.message}\n${result.evidence.map((e) => e.curl).join('\n')}`);
        }
      });
    }
  });
}
