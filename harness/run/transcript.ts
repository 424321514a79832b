// The run's transcript: every attempt the client sent (each retry, rate-limit resend and
// redirect hop too), in the order sent, as records for exchanges.har. Each is the
// record the reports cite (exchange.ts record(): every secret redacted by the session's
// redactor, which by the end of the run knows every credential made from the keys;
// bodies cut at the evidence cap) less its curl line, with what a record does not
// carry: when it was sent, to which service, and the sizes the bodies had before the cap.
import type { ExchangeRecord, Service } from '../model/types.js';
import type { Session } from './session.js';

export interface TranscriptEntry {
  record: Omit<ExchangeRecord, 'curl'>;
  /** When the request was sent (Unix time, ms). */
  sentAt: number;
  /** From sending it to the last byte of the answer (or its failure), in ms, unrounded. */
  durationMs: number;
  service?: Service;
  /** Bytes of the request body as sent (the record's may be cut at the evidence cap). */
  requestBytes: number;
  /** Bytes of the response body as received, when a status line arrived. */
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
