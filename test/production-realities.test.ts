// Correct servers that behave like real deployments: a rate limit with Retry-After,
// a list that shows writes late. Neither may turn into a failure; the dripping and
// rate-limited-past-the-deadline servers are in test/hostile.test.ts.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommandLine, resolveConfig } from '../harness/config/resolve.js';
import { ConfigError } from '../harness/config/values.js';
import { sessionOptionsFor } from '../harness/run/session.js';
import { startReferenceServer } from '../reference/server.js';
import { API_KEY, certifyReference, violations } from './support/run.js';
import { runBin } from './support/cli.js';

describe.concurrent('production realities', () => {
  it('a correct server limited to 30 requests a second: compliant with the default settings, exit 0, the 429s counted', async () => {
    const ref = await startReferenceServer({ apiKey: API_KEY, ratePerSecond: 30 });
    const reportDir = await mkdtemp(join(tmpdir(), 'rate-limited-'));
    try {
      const { code, stdout, stderr, wallMs } = await runBin([], {
        BASE_URL: ref.baseUrl,
        API_KEY,
        QUICKSTART_BASE_URL: ref.quickstartBaseUrl,
        REPORT_DIR: reportDir,
      });
      const report = JSON.parse(await readFile(join(reportDir, 'compliance.json'), 'utf8'));

      expect(code, stdout).toBe(0);
      expect(report.verdict).toBe('compliant');
      expect(wallMs).toBeLessThan(30_000);
      expect(report.rateLimited).toBeGreaterThan(0);
      expect(stdout).toContain(`; ${report.rateLimited} rate-limited (429, or 503 with Retry-After: waited out and sent again)`);
      // no process warning (MaxListenersExceededWarning) among the progress lines
      expect(stderr).not.toMatch(/\(node:\d+\)|Warning/);
    } finally {
      await ref.close();
      await rm(reportDir, { recursive: true, force: true });
    }
  });

  it('a list that lags 1.5 s behind the writes: compliant within the consistency window, the lag reported once for both checks', async () => {
    const report = await certifyReference({ variants: ['lagging-list'] });
    expect(violations(report)).toEqual([]);
    const result = (id: string) => report.requirements.find((r) => r.id === id)!;
    const lagNote = (id: string) => result(id).notes.find((n) => n.startsWith("the list showed the run's animals"));
    expect(lagNote('LIST-PAGE-FULL')).toMatch(/^the list showed the run's animals within \d+\.\d s of the writes \(asked \d+ times; --consistency-window\)$/);
    // one re-listing serves both checks that wait on it
    expect(lagNote('LIST-STATUS-COMPLETE')).toBe(lagNote('LIST-PAGE-FULL'));
    // the checks that do not wait went on meanwhile
    expect(result('LIST-OK').durationMs).toBeLessThan(result('LIST-PAGE-FULL').durationMs);
  });

  it('the same list with --consistency-window 0 (strict read-after-write): non-compliant, and the message says so', async () => {
    const report = await certifyReference({ variants: ['lagging-list'] }, { consistencyWindowMs: 0 });
    expect(report.verdict).toBe('non-compliant');
    const complete = report.requirements.find((r) => r.id === 'LIST-STATUS-COMPLETE')!;
    expect(complete.outcome).toBe('failed');
    expect(complete.message).toMatch(/lacks \d+ known \w+ animals.*\(asked once: --consistency-window 0\)$/);
  });
});

describe('--rate and --consistency-window', () => {
  const resolve = (argv: string[], env: Record<string, string> = {}) => resolveConfig(parseCommandLine(argv), env, '/nonexistent');

  it('reach the session: a rate in requests per second, a window as a duration (0 allowed), 5 s by default', () => {
    const config = resolve(['--rate', '2.5', '--consistency-window', '0']);
    expect(config).toMatchObject({ rate: 2.5, consistencyWindowMs: 0 });
    const target = { environment: 'embedded' as const, baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'k' };
    expect(sessionOptionsFor(config, target)).toMatchObject({ rate: 2.5, consistencyWindowMs: 0 });
    expect(resolve([], { CONSISTENCY_WINDOW: '1500ms' }).consistencyWindowMs).toBe(1500);
    expect(resolve([]).rate).toBeUndefined();
    expect(resolve([]).consistencyWindowMs).toBe(5000);
  });

  it('refuse what is not a rate or a duration, in one line', () => {
    for (const rate of ['0', '-1', 'fast']) expect(() => resolve([], { RATE: rate })).toThrow(/^RATE must be a number of requests per second above 0/);
    expect(() => resolve(['--consistency-window', 'soon'])).toThrow(ConfigError);
  });
});
