// Steps 3 and 4 of the rule in client.ts, and the services the client sends nothing more.
import { Violation } from '../model/outcome.js';
import type { Service } from '../model/types.js';
import { formatSeconds } from '../model/units.js';
import { plural } from '../model/words.js';
import { answered, ExchangeFailed, kindOf, serviceOf, type Exchange, type HttpRequest } from './exchange.js';
import type { Pool } from './pool.js';
import { nameOf, type Wire } from './wire.js';

/** In timeouts: room for the requests the server is still working off. */
export const PROBE_TIMEOUTS = 2;

interface Observed {
  readonly exchanges: readonly Exchange[];
  readonly signal: AbortSignal;
  readonly probeFor?: (silent: HttpRequest) => HttpRequest;
  readonly onStop?: (service: Service, reason: string) => void;
  attempt(req: HttpRequest, attempt: number, from: Exchange | undefined, previous: Exchange | undefined, alone: boolean, probe?: boolean): Promise<Exchange>;
}

export class Reobserver {
  /** Kinds the server left unanswered while it answered others. */
  private readonly hanging = new Map<string, Hanging>();
  /** With why each stopped answering (or was never reached). */
  private readonly stopped = new Map<Service, string>();

  constructor(
    private readonly client: Observed,
    private readonly pool: Pick<Pool, 'alone' | 'pump'>,
    private readonly wire: Pick<Wire, 'abort'>,
  ) {}

  hasStopped(service: Service): boolean {
    return this.stopped.has(service);
  }

  halted(service: Service): boolean {
    return this.client.signal.aborted || this.stopped.has(service);
  }

  hangs(kind: string): boolean {
    return this.hanging.has(kind);
  }

  /** Throws a Violation for a kind that hangs, else a CheckError. */
  async reobserve(silent: Exchange): Promise<Exchange> {
    const kind = kindOf(silent.request);
    const service = serviceOf(silent.request);
    this.hanging.get(kind)?.judge(silent, this.silence(silent));
    return this.pool.alone(async () => {
      this.hanging.get(kind)?.judge(silent, this.silence(silent)); // found hanging while this one waited
      if (this.halted(service)) throw new ExchangeFailed(silent);
      let last = silent;
      if (!(silent.sentAlone && silent.failure === 'timeout')) {
        last = await this.resendAlone(last);
        if (!last.silent) return last;
      }
      const resent = last !== silent ? ', also when sent again alone' : ' with no other request in flight';
      const answers = this.client.exchanges.filter((ex) => answered(ex) && serviceOf(ex.request) === service).length;
      if (!this.client.probeFor || answers === 0) throw new ExchangeFailed(last, `${last.summary}${resent}`);
      const probe = await this.client.attempt(this.client.probeFor(silent.request), 1, undefined, undefined, true, true);
      if (answered(probe)) {
        // a server working off abandoned requests answers the probe only once they are done: one more chance alone
        last = await this.resendAlone(last);
        if (!last.silent) return last;
        const hanging = new Hanging(last, this.silence(last), probe);
        this.hanging.set(kind, hanging);
        throw hanging.violation();
      }
      if (probe.silent) {
        const both =
          last.error === probe.error
            ? `${last.target} and ${probe.target} got no answer (${last.error})`
            : `${last.target} -> ${this.silence(last)}${resent}, and ${probe.target} -> ${this.silence(probe)}`;
        const reason = `${nameOf(service)} stopped answering after answering ${plural(answers, 'request')}: ${both}`;
        this.stop(service, reason);
        this.client.onStop?.(service, reason);
      }
      throw new ExchangeFailed(last, `${last.summary}${resent}`);
    });
  }

  private resendAlone(previous: Exchange): Promise<Exchange> {
    return this.client.attempt(previous.request, previous.attempt + 1, previous.redirectedFrom, previous, true);
  }

  /** "no answer within 10 s", "no answer (ECONNRESET: ...)" */
  private silence(ex: Exchange): string {
    if (ex.failure !== 'timeout') return `no answer (${ex.error})`;
    const within = formatSeconds(ex.timeoutMs);
    return ex.status > 0 ? `${ex.status}, but no complete body within ${within}` : `no answer within ${within}`;
  }

  /** It stopped answering, or the preflight could not reach it: its requests in flight or waiting end; the other service's go on. */
  stop(service: Service, reason: string): void {
    if (this.stopped.has(service)) return;
    this.stopped.set(service, reason);
    this.wire.abort(service, reason);
    this.pool.pump();
  }
}

class Hanging {
  constructor(
    private readonly first: Exchange,
    private readonly silence: string,
    private readonly probe: Exchange,
  ) {}

  private get meanwhile(): string {
    return `while ${this.probe.target} was answered (${this.probe.status}) in ${Math.round(this.probe.durationMs)} ms`;
  }

  violation(): Violation {
    // a route only slower than the timeout looks the same from here
    return new Violation(`${this.first.target} -> ${this.silence}, also when sent again alone, ${this.meanwhile}${SLOWER}`, [this.first, this.probe]);
  }

  /** A later silent request of the kind: no resend, no probe. */
  judge(ex: Exchange, silence: string): never {
    const before = `${this.first.target} before it (${this.silence}, also when sent again alone)`;
    throw new Violation(`${ex.target} -> ${silence}, like ${before}, ${this.meanwhile}${SLOWER}`, [ex, this.first, this.probe]);
  }
}

const SLOWER = ' (if it is only slower than the timeout, a longer --timeout judges it)';
