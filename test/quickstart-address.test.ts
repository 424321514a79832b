// A wrong quickstart address (ending in /v1, or the animal store's) is a
// configuration mistake, not 10 failures of the service: the preflight's POST
// /messages with a valid key answered 403, 404, 405, 410 or 501 aborts the run with
// exit code 2, as the animal store's preflight does (test/wrong-address.test.ts).
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../harness/run/runner.js';
import { startReferenceServer } from '../reference/server.js';
import { API_KEY, referenceRun, storeOnly } from './support/run.js';
import { runBin } from './support/cli.js';

const WRONG =
  /^QUICKSTART_BASE_URL does not look like the quickstart message service: POST (\S+)\/messages with the key -> 404 application\/json \(it is the service's base address, without \/v1; POST \/messages is appended\)$/;

describe('the quickstart address preflight', () => {
  it("aborts the run when QUICKSTART_BASE_URL is the animal store's address or ends in /v1", async () => {
    const ref = await startReferenceServer({ apiKey: API_KEY });
    try {
      for (const quickstartBaseUrl of [ref.baseUrl, `${ref.quickstartBaseUrl}/v1`]) {
        const report = await runConformance(referenceRun(ref, { target: { ...storeOnly(ref), quickstartBaseUrl } }));
        expect(report).toMatchObject({ verdict: 'aborted', exitCode: 2 });
        expect(report.abortReason).toMatch(WRONG);
        expect(WRONG.exec(report.abortReason!)![1]).toBe(quickstartBaseUrl);
        expect(report.requirements.some((r) => r.outcome === 'failed')).toBe(false);
      }
      // the right address passes the preflight
      const right = await runConformance(referenceRun(ref, { profile: 'health', selected: new Set(['QS-MISSING-MESSAGE']) }));
      expect(right.requirements.find((r) => r.id === 'QS-MISSING-MESSAGE')?.outcome).toBe('passed');
    } finally {
      await ref.close();
    }
  });

  it('from the CLI: exit 2, the sentence once, and the reports written', async () => {
    const ref = await startReferenceServer({ apiKey: API_KEY });
    const reportDir = await mkdtemp(join(tmpdir(), 'reports-'));
    try {
      const { code, stdout } = await runBin([], { BASE_URL: ref.baseUrl, API_KEY, QUICKSTART_BASE_URL: `${ref.quickstartBaseUrl}/v1`, REPORT_DIR: reportDir });
      expect(code).toBe(2);
      expect(stdout).toMatch(
        /^The run could not be made: QUICKSTART_BASE_URL does not look like the quickstart message service: POST \S+\/v1\/messages with the key -> 404/,
      );
      expect(stdout.trim().split('\n')).toHaveLength(1);
      const report = JSON.parse(await readFile(join(reportDir, 'compliance.json'), 'utf8'));
      expect(report.abortReason).toMatch(WRONG);
      expect(await readFile(join(reportDir, 'report.html'), 'utf8')).toContain('QUICKSTART_BASE_URL does not look like the quickstart message service');
    } finally {
      await ref.close();
    }
  });
});
