// The quickstart messages the checks share: the preflight and one valid message, each
// sent once per run.
import type { Exchange } from '../http/exchange.js';
import type { Session } from './session.js';

interface SentMessage {
  sent: { message: string };
  exchange: Exchange;
  /** The suite's clock (ms since the epoch) just before sending and once the answer was in. */
  sentAt: number;
  answeredAt: number;
}

export class QuickstartMessage {
  private sending?: Promise<SentMessage>;

  constructor(private readonly session: Session) {}

  /** certify: one valid message sent to the quickstart service. */
  message(): Promise<SentMessage> {
    return (this.sending ??= (async () => {
      const sent = { message: `${this.session.runPrefix} hello` };
      const sentAt = Date.now();
      const exchange = await this.session.call('quickstart', 'sendMessage', { json: sent });
      return { sent, exchange, sentAt, answeredAt: Date.now() };
    })());
  }

  /** The quickstart preflight, and QS-MISSING-MESSAGE's probe: {} with the key. */
  messagePreflight(): Promise<Exchange> {
    return this.session.preflightMessage();
  }
}
