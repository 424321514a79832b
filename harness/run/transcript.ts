// The run's transcript for exchanges.har, with each body's size before the evidence cap.
import type { Session } from './session.js';

export type TranscriptEntry = ReturnType<typeof transcriptOf>[number];

export function transcriptOf(session: Session) {
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
