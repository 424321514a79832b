import type { Exchange } from './exchange.js';
import type { LatencyStats } from '../model/types.js';

/** Nearest rank. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The order localeCompare gave, without loading ICU's collator (9 ms on first use). */
function byName(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (x !== y) return x < y ? -1 : 1;
  return a === b ? 0 : a > b ? -1 : 1;
}

export function latencyByOperation(exchanges: Exchange[]): Record<string, LatencyStats> {
  const byOp = new Map<string, number[]>();
  for (const ex of exchanges) {
    if (ex.status === 0 || !ex.request.operation) continue;
    const list = byOp.get(ex.request.operation) ?? [];
    list.push(ex.durationMs);
    byOp.set(ex.request.operation, list);
  }
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return Object.fromEntries(
    [...byOp]
      .sort(([a], [b]) => byName(a, b))
      .map(([op, times]) => {
        const sorted = times.sort((a, b) => a - b);
        return [op, { count: sorted.length, p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), max: round(sorted[sorted.length - 1]) }];
      }),
  );
}
