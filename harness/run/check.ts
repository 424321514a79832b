// A check: the code that judges one requirement of the catalogue.
import type { CheckContext } from './context.js';

export interface Check {
  id: string;
  /** Ends normally when the requirement holds; throws Violation (fail), Inconclusive, Skip or CheckError otherwise. */
  run: (ctx: CheckContext) => Promise<void>;
}

export const check = (id: string, run: Check['run']): Check => ({ id, run });
