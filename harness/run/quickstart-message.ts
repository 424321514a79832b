// The quickstart messages the checks share: the preflight and one valid message.
import type { Exchange } from '../http/exchange.js';
import type { Session } from './session.js';

export class QuickstartMessage {
  private sending?: Promise<{ sent: { message: string }; exchange: Exchange; sentAt: number; answeredAt: number }>;

  constructor(private readonly session: Session) {}

  /** sentAt and answeredAt: the suite's clock. */
  message() {
    return (this.sending ??= (async () => {
      const sent = { message: `${this.session.runPrefix} hello` };
      const sentAt = Date.now();
      const exchange = await this.session.call('quickstart', 'sendMessage', { json: sent });
      return { sent, exchange, sentAt, answeredAt: Date.now() };
    })());
  }

  /** Also QS-MISSING-MESSAGE's probe: {} with the key. */
  messagePreflight() {
    return this.session.preflightMessage();
  }
}
