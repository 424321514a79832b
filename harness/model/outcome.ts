import type { ExchangeRecord } from './types.js';

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

export class Violation extends CheckEnd {}
/** The server's data did not allow a verdict. */
export class Inconclusive extends CheckEnd {}
export class Skip extends CheckEnd {}
/** No answer could be observed. Never a violation. */
export class CheckError extends CheckEnd {}

export const fail = (message: string, ...evidence: Cited[]): never => {
  throw new Violation(message, evidence);
};
