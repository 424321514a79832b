// How faults and variants reach the server: each step one of them changes is a seam, a
// named table of what each does there, in order of precedence. The correct code asks its
// seam and never names a deviation, so it reads as the API description does.
import type { FaultName } from './faults.js';
import type { VariantName } from './variants.js';

type Deviation = FaultName | VariantName;

type Seam<T> = { name: string; entries: Partial<Record<Deviation, T>> };

/** Every seam by name, for the self-tests. */
export const SEAMS = new Map<string, Seam<unknown>>();

export function seam<T>(name: string, entries: Partial<Record<Deviation, T>>): Seam<T> {
  if (SEAMS.has(name)) throw new Error(`two seams are named "${name}"`);
  const s = { name, entries };
  SEAMS.set(name, s);
  return s;
}

export class Switches {
  private readonly cache = new Map<Seam<unknown>, unknown[]>();

  constructor(private readonly on: ReadonlySet<string>) {}

  /** The entries switched on, in the table's order. */
  at<T>(s: Seam<T>): T[] {
    let active = this.cache.get(s);
    if (!active) this.cache.set(s, (active = Object.entries(s.entries).flatMap(([name, entry]) => (this.on.has(name) ? [entry] : []))));
    return active as T[];
  }

  /** The first answer an entry gives; undefined: the correct behaviour stands. */
  first<A extends unknown[], R>(s: Seam<(...args: A) => R | undefined>, ...args: A): R | undefined {
    for (const entry of this.at(s)) {
      const answer = entry(...args);
      if (answer !== undefined) return answer;
    }
    return undefined;
  }

  any<A extends unknown[]>(s: Seam<(...args: A) => boolean>, ...args: A): boolean {
    return this.at(s).some((entry) => entry(...args));
  }

  /** The value once each entry has changed it, in turn. */
  fold<V, A extends unknown[]>(s: Seam<(value: V, ...args: A) => V>, value: V, ...args: A): V {
    return this.at(s).reduce((v, entry) => entry(v, ...args), value);
  }
}
