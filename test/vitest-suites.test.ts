// The conformance suites under Vitest: one test per requirement, titled with its
// id, configured like the CLI; a failing requirement fails its test.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../harness/paths.js';
import { startReferenceServer } from '../reference/server.js';

function vitest(args: string[], env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(PACKAGE_ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'conformance', ...args], {
      cwd: PACKAGE_ROOT,
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
    });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

describe('vitest run --project conformance', () => {
  it('certifies the embedded server; -t selects requirements by id prefix; the reports are written', async () => {
    const reportDir = await mkdtemp(join(tmpdir(), 'vitest-reports-'));
    const { code, output } = await vitest(['-t', 'LIST-', '--reporter', 'verbose', '--reporter', './reporters/vitest-compliance.ts'], { REPORT_DIR: reportDir });
    expect(code).toBe(0);
    expect(output).toContain('LIST-LIMIT-MAX MUST');
    expect(output).not.toMatch(/✓ .*AUTH-MISSING-HEADER/);
    const report = JSON.parse(await readFile(join(reportDir, 'compliance.json'), 'utf8'));
    expect(report.verdict).toBe('compliant');
    expect(report.requirements.map((r: { id: string }) => r.id).every((id: string) => id.startsWith('LIST-'))).toBe(true);
  });

  it('fails the test of a violated requirement, against a configured server', async () => {
    const ref = await startReferenceServer({ apiKey: 'suite-key', faults: ['no-auth-on-list'] });
    try {
      const { code, output } = await vitest(['-t', 'AUTH-'], { BASE_URL: ref.baseUrl, API_KEY: 'suite-key' });
      expect(code).toBe(1);
      expect(output).toMatch(/FAIL .*AUTH-MISSING-HEADER MUST/);
      expect(output).not.toContain('suite-key');
    } finally {
      await ref.close();
    }
  });
});
