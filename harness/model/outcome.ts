// How a check ends other than by passing: it throws one of these.
import type { Exchange } from '../http/client.js';

abstract class CheckEnd extends Error {
  constructor(message: string, readonly evidence: Exchange[] = []) {
    super(message);
  }
}

/** The server violated the requirement. */
export class Violation extends CheckEnd {}
/** The server's data did not allow a verdict (never counts against the verdict). */
export class Inconclusive extends CheckEnd {}
/** The check does not apply to this run. */
export class Skip extends CheckEnd {}
/** The check could not be carried out: no response, timeout, deadline. */
export class CheckError extends CheckEnd {}

export const fail = (message: string, ...evidence: Exchange[]): never => { throw new Violation(message, evidence); };
