// The one runner's own guarantees, apart from any check: every requirement gets
// exactly one result, also when the run crashes under it.
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../reference/server.js';
import { startRun } from '../harness/run/runner.js';
import { loadCatalogue } from '../harness/api/catalogue.js';
import { API_KEY, referenceRun, storeOnly } from './support/run.js';
import type { RequirementResult } from '../harness/model/types.js';

describe('startRun', () => {
  it('a crash under the run (here: of onResult) fails every result still waiting with it, once, before the connections close', async () => {
    const ref = await startReferenceServer({ apiKey: API_KEY });
    const seen: string[] = [];
    try {
      const run = startRun({
        ...referenceRun(ref, { target: storeOnly(ref) }),
        onResult: (r) => {
          seen.push(r.id);
          if (seen.length === 3) throw new Error('progress output failed');
        },
      });
      await expect(run.report).rejects.toThrow('progress output failed');
      const results: RequirementResult[] = await Promise.all(loadCatalogue().map((r) => run.result(r.id)));
      const crashed = results.filter((r) => r.message === 'the run crashed: progress output failed');
      expect(crashed.length).toBeGreaterThan(0);
      for (const r of crashed) expect(r.outcome).toBe('error');
      // no check was cut off by the closed connection pool and judged on that
      expect(results.filter((r) => /UND_ERR_DESTROYED|destroyed/i.test(`${r.message} ${r.notes.join(' ')}`))).toEqual([]);
      expect(new Set(seen).size).toBe(seen.length);
      await expect(run.result('NO-SUCH-ID')).rejects.toThrow('not in the requirement catalogue');
    } finally {
      await ref.close();
    }
  });
});
