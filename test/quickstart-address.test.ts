// A wrong quickstart address (ending in /v1, or the animal store's) is a
// configuration mistake, not 10 failures of the service: the preflight's POST
// /messages with a valid key answered 404 or 405 aborts the run with exit code 2.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../harness/run/runner.js';
import { conformanceChecks } from '../checks/index.js';
import { PACKAGE_ROOT } from '../harness/model/paths.js';
import { startReferenceServer } from '../reference/server.js';
import { API_KEY } from './support/run.js';

const WRONG =
  /^the quickstart service at (\S+) answered POST \/messages with 404: QUICKSTART_BASE_URL looks wrong \(it is the service's base address, without \/v1; POST \/messages is appended\)$/;

describe('the quickstart address preflight', () => {
  it("aborts the run when QUICKSTART_BASE_URL is the animal store's address or ends in /v1", async () => {
    const ref = await startReferenceServer({ apiKey: API_KEY });
    try {
      for (const quickstartBaseUrl of [ref.baseUrl, `${ref.quickstartBaseUrl}/v1`]) {
        const report = await runConformance({
          checks: conformanceChecks(),
          target: { environment: 'embedded', baseUrl: ref.baseUrl, apiKey: API_KEY, quickstartBaseUrl },
          profile: 'certify',
          timeoutMs: 5000,
          deadlineMs: 30_000,
          concurrency: 8,
          now: new Date(),
        });
        expect(report).toMatchObject({ verdict: 'aborted', exitCode: 2 });
        expect(report.abortReason).toMatch(WRONG);
        expect(WRONG.exec(report.abortReason!)![1]).toBe(quickstartBaseUrl);
        expect(report.requirements.some((r) => r.outcome === 'failed')).toBe(false);
      }
      // the right address passes the preflight
      const right = await runConformance({
        checks: conformanceChecks(),
        target: { environment: 'embedded', baseUrl: ref.baseUrl, apiKey: API_KEY, quickstartBaseUrl: ref.quickstartBaseUrl },
        profile: 'health',
        timeoutMs: 5000,
        deadlineMs: 30_000,
        concurrency: 8,
        now: new Date(),
        selected: new Set(['QS-MISSING-MESSAGE']),
      });
      expect(right.requirements.find((r) => r.id === 'QS-MISSING-MESSAGE')?.outcome).toBe('passed');
    } finally {
      await ref.close();
    }
  });

  it('from the CLI: exit 2, the sentence once, and the reports written', async () => {
    const ref = await startReferenceServer({ apiKey: API_KEY });
    const reportDir = await mkdtemp(join(tmpdir(), 'reports-'));
    try {
      const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = spawn(process.execPath, [join(PACKAGE_ROOT, 'dist/cli/main.js')], {
          env: { PATH: process.env.PATH ?? '', BASE_URL: ref.baseUrl, API_KEY, QUICKSTART_BASE_URL: `${ref.quickstartBaseUrl}/v1`, REPORT_DIR: reportDir },
          cwd: tmpdir(),
        });
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
        });
        child.on('close', (c) => resolve({ code: c, stdout: out }));
      });
      expect(code).toBe(2);
      expect(stdout).toMatch(
        /^The run could not be made: the quickstart service at \S+\/v1 answered POST \/messages with 404: QUICKSTART_BASE_URL looks wrong/,
      );
      expect(stdout.trim().split('\n')).toHaveLength(1);
      const report = JSON.parse(await readFile(join(reportDir, 'compliance.json'), 'utf8'));
      expect(report.abortReason).toMatch(WRONG);
      expect(await readFile(join(reportDir, 'report.html'), 'utf8')).toContain('QUICKSTART_BASE_URL looks wrong');
    } finally {
      await ref.close();
    }
  });
});
