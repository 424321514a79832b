// A check: the code that judges one requirement of the catalogue. checks/<area>.ts
// defines them with check('<ID>', ...) and checks/index.ts lists them all; whoever
// runs them (the CLI, the Vitest suites, the self-tests) hands that list to the runner.
import type { CheckContext } from './context.js';

export interface Check {
  /** The requirement id in spec/requirements.yaml. */
  id: string;
  /** Ends normally when the requirement holds; throws Violation (fail), Inconclusive, Skip or CheckError otherwise. */
  run: (ctx: CheckContext) => Promise<void>;
}

export const check = (id: string, run: Check['run']): Check => ({ id, run });
