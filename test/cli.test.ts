// The command line as a user meets it: the built bin (dist/, made by `npm test`'s
// pretest build), its exit codes, its output and its reports.
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../harness/api/catalogue.js';
import { buildReport, skippedResult } from '../harness/verdict/report.js';
import type { RequirementResult } from '../harness/model/types.js';
import { buildReportFixture } from './report-fixture.js';
import { PACKAGE_ROOT } from '../harness/model/paths.js';
import { startReferenceServer } from '../reference/server.js';
import { reportValidator, validateJunit } from './support/validators.js';
import { runBin } from './support/cli.js';
import { closedPort } from './support/hostile-servers.js';

/** A working directory of the tests' own, without .env. */
const CWD = await mkdtemp(join(tmpdir(), 'cli-cwd-'));

async function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await runBin(args, env, { cwd: CWD });
  return { code: code ?? -1, stdout, stderr };
}

describe.concurrent('the CLI', () => {
  it('with nothing configured, certifies the embedded reference server: exit 0 and both reports', async () => {
    const reportDir = await mkdtemp(join(tmpdir(), 'reports-'));
    const { code, stdout, stderr } = await runCli(['--report-dir', reportDir]);
    expect(stderr).toContain('No BASE_URL configured: certifying the embedded reference server');
    expect(stdout).toContain('Verdict: COMPLIANT');
    expect(code).toBe(0);
    const report = JSON.parse(await readFile(join(reportDir, 'compliance.json'), 'utf8'));
    expect(report).toMatchObject({ verdict: 'compliant', exitCode: 0, target: { environment: 'embedded' } });
    const validate = reportValidator();
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    const junit = await readFile(join(reportDir, 'junit.xml'), 'utf8');
    expect((await validateJunit(junit)).valid).toBe(true);
    expect(await readFile(join(reportDir, 'report.html'), 'utf8')).toContain('Compliant');
  });

  it('with TARGET=embedded, certifies the embedded server beside a quickstart service of its own', async () => {
    const ref = await startReferenceServer({ apiKey: 'quickstart-key-0123456789' });
    const reportDir = await mkdtemp(join(tmpdir(), 'reports-'));
    try {
      const env = { QUICKSTART_BASE_URL: ref.quickstartBaseUrl, API_KEY: 'quickstart-key-0123456789', REPORT_DIR: reportDir };
      // without it, a key and an address with no BASE_URL are meant for a server of the user's: refused
      const refused = await runCli(['--only', 'quickstart'], env);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/API_KEY and QUICKSTART_BASE_URL are set but BASE_URL is not: .*, or TARGET=embedded for the embedded reference server/);
      const { code, stdout } = await runCli(['--only', 'quickstart'], { ...env, TARGET: 'embedded' });
      expect(code, stdout).toBe(0);
      const report = JSON.parse(await readFile(join(reportDir, 'compliance.json'), 'utf8'));
      expect(report).toMatchObject({ verdict: 'compliant', target: { environment: 'embedded', quickstartBaseUrl: ref.quickstartBaseUrl } });
      expect(report.target.baseUrl).not.toBe(ref.baseUrl);
    } finally {
      await ref.close();
    }
  });

  it('a refused run writes its reports where --report-dir says, beside an unknown flag; REPORT_DIR given empty: in reports/', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cli-refused-'));
    const run = await runBin(['--report-dir', 'out', '--bogus'], {}, { cwd });
    expect([run.code, run.stderr]).toEqual([2, "animal-store-conformance: Unknown option '--bogus' (see --help)\n"]);
    expect(JSON.parse(await readFile(join(cwd, 'out', 'compliance.json'), 'utf8'))).toMatchObject({
      verdict: 'not-tested',
      configError: "Unknown option '--bogus'",
    });
    const empty = await runBin([], { REPORT_DIR: '' }, { cwd });
    expect(empty.code).toBe(2);
    expect(JSON.parse(await readFile(join(cwd, 'reports', 'compliance.json'), 'utf8')).configError).toMatch(/^REPORT_DIR is set but empty/);
  });

  it('against a broken server: exit 1, the failure with a curl line, and never the key', async () => {
    const key = 'cli-secret-key-0123456789';
    const ref = await startReferenceServer({ apiKey: key, faults: ['no-auth-on-list' as any] });
    const reportDir = await mkdtemp(join(tmpdir(), 'reports-'));
    try {
      const { code, stdout, stderr } = await runCli([], { BASE_URL: ref.baseUrl, API_KEY: key, REPORT_DIR: reportDir });
      expect(code).toBe(1);
      expect(stdout).toContain('Verdict: NON-COMPLIANT');
      expect(stdout).toMatch(/FAIL AUTH-MISSING-HEADER[\s\S]*curl -sS -i -X GET/);
      const outputs = [
        stdout,
        stderr,
        await readFile(join(reportDir, 'compliance.json'), 'utf8'),
        await readFile(join(reportDir, 'junit.xml'), 'utf8'),
        await readFile(join(reportDir, 'report.html'), 'utf8'),
      ];
      const validate = reportValidator();
      expect(validate(JSON.parse(outputs[2])), JSON.stringify(validate.errors)).toBe(true);
      expect((await validateJunit(outputs[3])).valid).toBe(true);
      for (const text of outputs) expect(text).not.toContain(key);
      expect(outputs[2]).toContain('$API_KEY');
    } finally {
      await ref.close();
    }
  });

  it('pointed at a closed port: exit 2 with one clear line, and reports still written', async () => {
    const reportDir = await mkdtemp(join(tmpdir(), 'reports-'));
    const { code, stdout } = await runCli([], { BASE_URL: (await closedPort()).baseUrl, API_KEY: 'k', REPORT_DIR: reportDir });
    expect(code).toBe(2);
    expect(stdout).toMatch(/^The run could not be made: target unreachable: .*ECONNREFUSED.*\n$/);
    expect(JSON.parse(await readFile(join(reportDir, 'compliance.json'), 'utf8')).verdict).toBe('aborted');
  });

  it('with a key the server rejects: exit 2, said once', async () => {
    const ref = await startReferenceServer({ apiKey: 'the-right-key' });
    try {
      const { code, stdout } = await runCli([], { BASE_URL: ref.baseUrl, API_KEY: 'a-wrong-key', REPORT_DIR: await mkdtemp(join(tmpdir(), 'r-')) });
      expect(code).toBe(2);
      expect(stdout).toContain('the configured key was rejected by the target');
      expect(stdout).not.toContain('a-wrong-key');
    } finally {
      await ref.close();
    }
  });

  it('with a quickstart key the quickstart service rejects: exit 2, said once', async () => {
    const ref = await startReferenceServer({ apiKey: 'the-right-key', quickstartApiKey: 'the-quickstart-key' });
    try {
      const { code, stdout } = await runCli([], {
        BASE_URL: ref.baseUrl,
        API_KEY: 'the-right-key',
        QUICKSTART_BASE_URL: ref.quickstartBaseUrl,
        QUICKSTART_API_KEY: 'a-wrong-quickstart-key',
        REPORT_DIR: await mkdtemp(join(tmpdir(), 'r-')),
      });
      expect(code).toBe(2);
      expect(stdout).toMatch(/the configured key was rejected by the quickstart service.*QUICKSTART_API_KEY/);
    } finally {
      await ref.close();
    }
  });

  // most messages are tested in-process (test/config.test.ts); these show the built bin's
  // way of refusing, and that a secret given is never printed
  it.each([
    [['--report-dir', '/dev/null/reports'], {}, /cannot write reports to \/dev\/null\/reports/],
    [['--bogus'], {}, /Unknown option '--bogus'/],
    // a key with no address (a CI secret for the address missing on this branch): never the embedded server
    [[], { API_KEY: 'secret-value' }, /API_KEY is set but BASE_URL is not: set BASE_URL .*, or TARGET=embedded for the embedded reference server/],
    [['--target', 'production'], {}, /TARGET=production but BASE_URL is not set/],
    [[], { ONLY: 'NO-SUCH-' }, /"NO-SUCH-" matches no requirement/],
    [[], { EXPECTED_FAILURES: '/nonexistent/expected.txt' }, /cannot read the expected-failures file/],
    // set but empty, as a missing CI secret expands: never the embedded server
    [[], { BASE_URL: '', API_KEY: 'secret-value', GITHUB_ACTIONS: 'true' }, /BASE_URL is set but empty \(a missing CI secret/],
    [
      [],
      { BASE_URL: 'http://127.0.0.1:9/v1', API_KEY: 'secret-value\n' },
      /API_KEY contains a character an HTTP header cannot carry \(a newline at its end\?\)/,
    ],
    [[], { STRICT: 'sure' }, /STRICT must be one of 1, true, yes, on, y \(on\) or 0, false, no, off, n \(off\)/],
    [['--report-dir', join(PACKAGE_ROOT, 'package.json')], {}, /REPORT_DIR .*package\.json is a file, not a folder/],
  ])('bad input %j %j: one line on stderr, exit 2', async (args, env, message) => {
    const { code, stdout, stderr } = await runCli(args as string[], env as Record<string, string>);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message as RegExp);
    expect(stderr).not.toContain('secret-value');
  });

  // The store answers the preflight and then holds every request; the quickstart
  // service answers, so some requirements are judged before the signal comes (the pool
  // has room for the quickstart's probes beside the store's held requests).
  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)('stopped by %s: exit %i, one summary line, reports that say what was not carried out', async (signal, exitCode) => {
    const key = 'interrupt-secret-key-42';
    const ref = await startReferenceServer({ apiKey: key });
    let answered = false;
    const store = createHttpServer((_req, res) => {
      if (answered) return; // held until the client gives up
      answered = true;
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    await new Promise<void>((r) => store.listen(0, '127.0.0.1', r));
    const reportDir = await mkdtemp(join(tmpdir(), 'reports-'));
    try {
      let signalledAt = 0;
      const { code, stderr, stdout } = await runBin(
        [],
        {
          BASE_URL: `http://127.0.0.1:${(store.address() as AddressInfo).port}/v1`,
          API_KEY: key,
          QUICKSTART_BASE_URL: ref.quickstartBaseUrl,
          REPORT_DIR: reportDir,
          REQUEST_TIMEOUT_MS: '60s',
          RUN_DEADLINE_MS: '2m',
          CONCURRENCY: '1000',
        },
        {
          cwd: CWD,
          onStderr: (child, stderr) => {
            // the first progress line: the run is under way
            if (!signalledAt && /^ {2}(PASS|FAIL) /m.test(stderr)) {
              signalledAt = performance.now();
              child.kill(signal);
            }
          },
        },
      );
      const stoppedWithinMs = performance.now() - signalledAt;

      expect(code, stderr).toBe(exitCode);
      expect(stoppedWithinMs).toBeLessThan(5000);
      const reason = `the run was interrupted (${signal})`;
      expect(stdout).toMatch(
        new RegExp(
          `^The run was interrupted \\(${signal}\\): (\\d+) of the (\\d+) requirements this run carries out finished before it \\(\\d+ failed, not counted\\), (\\d+) not carried out; (\\d+) skipped by the selection, the profile or the configuration \\(exit code ${exitCode}; reports: .*compliance\\.json.*\\)\\n$`,
        ),
      );
      // the figures add up, and the skipped ones are not among those finished
      const [finished, meant, left, skipped] = /: (\d+) of the (\d+) .*?, (\d+) not carried out; (\d+) skipped/.exec(stdout)!.slice(1).map(Number);
      expect([finished + left, meant + skipped]).toEqual([meant, loadCatalogue().length]);
      const json = await readFile(join(reportDir, 'compliance.json'), 'utf8');
      const report = JSON.parse(json);
      expect(report).toMatchObject({ verdict: 'aborted', abortReason: reason });
      expect(report.requirements.map((r: { id: string }) => r.id).sort()).toEqual(
        loadCatalogue()
          .map((r) => r.id)
          .sort(),
      );
      const notCarriedOut = report.requirements.filter((r: { message?: string }) => r.message === `not carried out: ${reason}`);
      // judged before the signal and kept: the quickstart service answered
      expect(report.requirements.filter((r: { outcome: string }) => r.outcome === 'passed').length).toBeGreaterThan(0);
      // held on the store: not judged, and no check cut short by the signal counts as an error
      expect(notCarriedOut.map((r: { id: string }) => r.id)).toContain('LIST-LIMIT-MAX');
      for (const r of notCarriedOut) expect(r.outcome).toBe('skipped');
      expect(report.requirements.filter((r: { outcome: string }) => r.outcome === 'error')).toEqual([]);
      const validate = reportValidator();
      expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
      for (const text of [stdout, stderr, json, await readFile(join(reportDir, 'report.html'), 'utf8')]) expect(text).not.toContain(key);
    } finally {
      store.closeAllConnections();
      store.close();
      await ref.close();
    }
  });

  it('prints --help with every setting', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    for (const name of ['--base-url', 'BASE_URL', 'API_KEY', '--profile', 'QUICKSTART_BASE_URL', 'Exit codes']) expect(stdout).toContain(name);
    // what exit 0 allows, as harness/verdict/report.ts decides it
    expect(stdout.replace(/\n/g, ' ')).toContain(
      '0 compliant (a requirement was judged, and no MUST failed or could not be judged; skipped and inconclusive ones and listed known deviations do not count)',
    );
  });

  it('gives the exit codes --help and the README state: 0 beside an inconclusive or skipped MUST, 2 for one that could not be judged or for nothing judged', () => {
    const [a, b] = loadCatalogue().filter((r) => r.level === 'MUST');
    const as = (r: typeof a, outcome: RequirementResult['outcome'], expectedFailure?: string) => ({ ...skippedResult(r, outcome), outcome, expectedFailure });
    const exitCode = (...results: RequirementResult[]) => buildReport(buildReportFixture(), results).exitCode;
    expect(exitCode(as(a, 'passed'), as(b, 'inconclusive'))).toBe(0);
    expect(exitCode(as(a, 'passed'), as(b, 'skipped'))).toBe(0);
    expect(exitCode(as(a, 'passed'), as(b, 'error', 'a known deviation'))).toBe(0);
    expect(exitCode(as(a, 'passed'), as(b, 'error'))).toBe(2);
    expect(exitCode(as(a, 'inconclusive'), as(b, 'skipped'))).toBe(2);
    expect(exitCode(as(a, 'passed'), as(b, 'failed'))).toBe(1);
  });
});
