// How a check ends other than by passing: it throws one of these.
import type { ExchangeRecord } from './types.js';

/** What a check cites: an exchange of the HTTP client (anything that can record itself). */
export interface Cited {
  record(): ExchangeRecord;
}

abstract class CheckEnd extends Error {
  constructor(
    message: string,
    readonly evidence: Cited[] = [],
  ) {
    super(message);
  }
}

/** The server violated the requirement. */
export class Violation extends CheckEnd {}
/** The server's data did not allow a verdict (never counts against the verdict). */
export class Inconclusive extends CheckEnd {}
/** The check does not apply to this run. */
export class Skip extends CheckEnd {}
/** The check could not judge its requirement: no answer could be observed (a body cut at the cap, the deadline). Never a violation. */
export class CheckError extends CheckEnd {}

export const fail = (message: string, ...evidence: Cited[]): never => {
  throw new Violation(message, evidence);
};
