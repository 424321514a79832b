// Checks register here by requirement id; checks/<area>.ts holds them.
import type { CheckContext } from './context.js';

export type CheckFn = (ctx: CheckContext) => Promise<void>;

export interface CheckDefinition {
  id: string;
  run: CheckFn;
  /** Runs after every other check: it judges the exchanges the whole run observed. */
  observer: boolean;
}

export const CHECKS = new Map<string, CheckDefinition>();

export function check(id: string, run: CheckFn, options: { observer?: boolean } = {}): void {
  if (CHECKS.has(id)) throw new Error(`check ${id} is registered twice`);
  CHECKS.set(id, { id, run, observer: options.observer ?? false });
}
