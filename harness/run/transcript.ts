// The run's transcript for exchanges.har: every attempt the client sent, in the order
// sent, as the records the reports cite (redacted, bodies cut at the evidence cap) less
// their curl line, with when each was sent, to which service, and the bodies' sizes.
import type { ExchangeRecord, Service } from '../model/types.js';
import type { Session } from './session.js';

export interface TranscriptEntry {
  record: Omit<ExchangeRecord, 'curl'>;
  /** Unix time, ms. */
  sentAt: number;
  /** Unrounded ms. */
  durationMs: number;
  service?: Service;
  requestBytes: number;
  /** When a status line arrived. */
  responseBytes?: number;
}

export function transcriptOf(session: Session): TranscriptEntry[] {
  return session.client.exchanges.map((ex) => ({
    record: ex.transcribed(),
    // sentAt is performance.now(): the same clock, from the process's start
    sentAt: performance.timeOrigin + ex.sentAt,
    durationMs: ex.durationMs,
    ...(ex.request.service && { service: ex.request.service }),
    requestBytes: ex.request.body === undefined ? 0 : Buffer.byteLength(ex.request.body),
    ...(ex.status > 0 && { responseBytes: Buffer.byteLength(ex.text) }),
  }));
}
