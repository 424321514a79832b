// The conformance suites under Vitest: one test per requirement, titled with its
// id, configured like the CLI; a test fails where the CLI's verdict would.
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../harness/model/paths.js';
import { startReferenceServer } from '../reference/server.js';
import { runBin } from './support/cli.js';
import { limit } from './support/limit.js';
import type { RunReport } from '../harness/model/types.js';
import { verifyCommand } from '../cli/verify.js';

/** A user's .env: every variable of .env.example set, the commented ones too (values from the example, or made up). */
async function usersDotEnv(): Promise<string> {
  const example = await readFile(join(PACKAGE_ROOT, '.env.example'), 'utf8');
  return [...example.matchAll(/^#?([A-Z][A-Z0-9_]*)=(.*)$/gm)].map(([, name, value]) => `${name}=${value || `users-${name.toLowerCase()}`}\n`).join('');
}

// The suites are spawned where a user's .env lies in wait, and are told to read an
// empty settings file instead (ENV_FILE): the self-tests never take the user's
// settings, from the checkout's .env or the shell (the environment is built here).
// Were the .env read, the runs below would target api.example.com and fail.
const RUN_DIR = await mkdtemp(join(tmpdir(), 'vitest-cwd-'));
const EMPTY_ENV_FILE = join(RUN_DIR, 'empty.env');
await writeFile(join(RUN_DIR, '.env'), await usersDotEnv());
await writeFile(EMPTY_ENV_FILE, '');

// At most three Vitest runs at once (the tests run concurrently): each is two processes
// that load Vite, and a dozen at once would starve the rest of the machine.
const fewAtATime = limit(3);
const vitest = (args: string[], env: Record<string, string> = {}) => fewAtATime(() => spawnVitest(args, env));

function spawnVitest(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [join(PACKAGE_ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', PACKAGE_ROOT, '--project', 'conformance', ...args],
      {
        cwd: RUN_DIR,
        env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ENV_FILE: EMPTY_ENV_FILE, ...env },
      },
    );
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

// --reporter replaces the configured reporters: the compliance reporter is named again
const VERBOSE = ['--reporter', 'verbose', '--reporter', join(PACKAGE_ROOT, 'reporters/vitest-compliance.ts')];

const reportIn = async (dir: string) => JSON.parse(await readFile(join(dir, 'compliance.json'), 'utf8'));
const requirement = (report: { requirements: Array<{ id: string }> }, id: string) => report.requirements.find((r) => r.id === id);

/** What two runs of the same server must agree on: everything but times, durations, the run prefix, the seed-free figures of the transport. */
function comparable(report: RunReport) {
  const mask = (text: string | undefined) =>
    text
      ?.replace(/conformance-[a-z0-9]+-[0-9a-f]{6}/g, 'PREFIX')
      .replace(/\d+(\.\d+)? ?(ms|s)\b/g, 'N')
      .replace(/127\.0\.0\.1:\d+/g, 'HOST');
  const ids = (changes: Array<{ id: string; baselineOutcome: string; failingSince?: string }>) => changes.map((c) => `${c.id} was ${c.baselineOutcome}`);
  const since = report.sinceBaseline;
  return {
    verdict: report.verdict,
    exitCode: report.exitCode,
    coverage: report.coverage,
    counts: report.counts,
    areas: report.areas,
    requirements: report.requirements.map((r) => [r.id, r.outcome, r.expectedFailure, mask(r.message)]),
    sinceBaseline: since && {
      compared: since.compared,
      notes: since.notes,
      groups: [since.newlyFailing, since.recovered, since.stillFailing, since.unjudged].map(ids),
    },
  };
}

// One CLI run and one Vitest run, each against a server of its own started alike (certify
// tops up the store it finds, so two runs must not share one), with ONLY and SKIP, a baseline,
// expected failures and a signing key. Started by the first test that asks for it: the first test
// compares the two, the next reads the Vitest run's failed test.
let comparedRuns: ReturnType<typeof compareRuns> | undefined;
const compared = () => (comparedRuns ??= compareRuns());

async function compareRuns() {
  const server = () => startReferenceServer({ apiKey: 'suite-key', faults: ['no-auth-on-list', 'scheme-case-sensitive', 'framework-404-html'] });
  const refs = await Promise.all([server(), server(), server()]);
  try {
    const dir = await mkdtemp(join(tmpdir(), 'cli-and-vitest-'));
    const expected = join(dir, 'expected.txt');
    // one listed failure that fails, one that passes
    await writeFile(expected, 'ERR-BODY-SHAPE the framework answers unknown routes itself, ticket 12\nAUTH-INVALID-KEY until ticket 99\n');
    // both sign their certificate: the Vitest reporter reads SIGN_KEY as the CLI does
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const [signKey, publicKeyFile] = [join(dir, 'key.pem'), join(dir, 'pub.pem')];
    await writeFile(signKey, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    await writeFile(publicKeyFile, publicKey.export({ type: 'spki', format: 'pem' }));
    const env = {
      API_KEY: 'suite-key',
      ONLY: 'auth,errors,media',
      SKIP: 'AUTH-WRONG-SCHEME',
      SEED: '7',
      EXPECTED_FAILURES: expected,
      ENV_FILE: EMPTY_ENV_FILE,
      SIGN_KEY: signKey,
    };
    // a bad baseline, meanwhile: refused before any request, so no server listens behind the address
    const bad = { ...env, BASE_URL: 'http://127.0.0.1:9/v1', BASELINE: join(dir, 'missing.json') };
    const refused = runBin([], { ...bad, REPORT_DIR: join(dir, 'bad-cli') });
    // the baseline: such a server judged once before, on AUTH-SCHEME-CASE only
    const baseline = join(dir, 'baseline');
    const baselineRun = await runBin([], { ...env, BASE_URL: refs[2].baseUrl, REPORT_DIR: baseline, ONLY: 'AUTH-SCHEME-CASE' });
    const withBaseline = { ...env, BASELINE: join(baseline, 'compliance.json') };
    const [cli, vitestRun] = [join(dir, 'cli'), join(dir, 'vitest')];
    const [fromCli, fromVitest] = await Promise.all([
      runBin([], { ...withBaseline, BASE_URL: refs[0].baseUrl, REPORT_DIR: cli }),
      vitest(VERBOSE, { ...withBaseline, BASE_URL: refs[1].baseUrl, REPORT_DIR: vitestRun }),
    ]);
    const badCli = await refused;
    return { dir, publicKeyFile, baselineRun, cli, vitestRun, fromCli, fromVitest, badCli };
  } finally {
    await Promise.all(refs.map((ref) => ref.close()));
  }
}

// a test may wait its turn for a Vitest run (at most three at once): room for that on a busy machine
describe.concurrent('vitest run --project conformance', { timeout: 120_000 }, () => {
  it('gives the report the CLI gives for the same run: ONLY and SKIP, the baseline compared, the expected failures listed, a bad baseline refused', async () => {
    const { dir, publicKeyFile, baselineRun, cli, vitestRun, fromCli, fromVitest, badCli } = await compared();
    expect(baselineRun.code).toBe(0);
    expect([fromCli.code, fromVitest.code], fromVitest.output).toEqual([1, 1]);
    const [a, b] = [await reportIn(cli), await reportIn(vitestRun)];
    expect(comparable(b)).toEqual(comparable(a));
    // what the comparison holds: a violation, a listed expected failure, one listed that passed,
    // a failed SHOULD, what ONLY and SKIP left out, and the baseline's changes
    expect(requirement(a, 'AUTH-MISSING-HEADER')).toMatchObject({ outcome: 'failed' });
    expect(requirement(a, 'ERR-BODY-SHAPE')).toMatchObject({ outcome: 'failed', expectedFailure: expect.stringContaining('ticket 12') });
    expect(requirement(a, 'AUTH-INVALID-KEY')).toMatchObject({ outcome: 'passed', expectedFailure: 'until ticket 99' });
    expect(requirement(a, 'AUTH-SCHEME-CASE')).toMatchObject({ outcome: 'failed' });
    for (const id of ['AUTH-WRONG-SCHEME', 'LIST-OK']) {
      expect(requirement(a, id)).toMatchObject({ outcome: 'skipped', message: expect.stringMatching(/^not selected \(ONLY, SKIP/) });
    }
    expect(a).toMatchObject({ verdict: 'non-compliant', strict: false });
    // as Vitest shows them: the listed failure skipped, the one that passed and the failed SHOULD passing with a warning
    expect(fromVitest.output).toContain('expected failure: the framework answers unknown routes itself, ticket 12');
    expect(fromVitest.output).toContain('listed as an expected failure (until ticket 99) but passed: remove it from the expected-failures file');
    expect(fromVitest.output).toMatch(/✓ .*AUTH-SCHEME-CASE SHOULD[^]*warning\s+↳ failed: /);
    expect(comparable(a).sinceBaseline!.groups[2]).toEqual(['AUTH-SCHEME-CASE was failed']);
    expect(fromVitest.output).toContain('Since the baseline');
    // both write every exchange (under Vitest the worker does: the exchanges live there) and a certificate covering it
    for (const [reports, report] of [
      [cli, a],
      [vitestRun, b],
    ] as const) {
      const har = JSON.parse(await readFile(join(reports, 'exchanges.har'), 'utf8'));
      expect(har.log.entries).toHaveLength(report.requestCount);
      const certificate = JSON.parse(await readFile(join(reports, 'certificate.json'), 'utf8'));
      const subject = JSON.parse(Buffer.from(certificate.payload, 'base64').toString('utf8')).subject.map((s: { name: string }) => s.name);
      expect(subject).toContain('exchanges.har');
      expect(verifyCommand([join(reports, 'certificate.json'), '--public-key', publicKeyFile], () => {})).toBe(0);
    }

    // the reports of a refused run, saying why (as Vitest writes them: below)
    expect(badCli.code).toBe(2);
    expect(badCli.stderr).toMatch(/cannot read the baseline .*missing\.json: ENOENT/);
    expect(await reportIn(join(dir, 'bad-cli'))).toMatchObject({ verdict: 'not-tested', configError: expect.stringMatching(/^cannot read the baseline/) });
  });

  // One runner serves the CLI and Vitest: the observers run after every other check
  // of the run, whatever the order of the suite files, so the latency budget is
  // judged on every operation the run called (the file order once judged two of five).
  it('certifies the embedded server, writes the reports, and judges PERF-LATENCY-P95 on every operation the run called, as the CLI does', async () => {
    const reportDir = await mkdtemp(join(tmpdir(), 'vitest-reports-'));
    const { code, output } = await vitest(VERBOSE, { REPORT_DIR: reportDir, MAX_LATENCY_MS: '5000' });
    expect(code, output).toBe(0);
    expect(output).toContain('LIST-LIMIT-MAX MUST');
    const report = await reportIn(reportDir);
    expect(report).toMatchObject({ verdict: 'compliant', target: { environment: 'embedded' } });
    const called = Object.keys(report.latency);
    expect(called).toEqual(expect.arrayContaining(['listPets', 'createPet', 'getPet', 'listOrders', 'sendMessage']));
    const perf = report.requirements.find((r: { id: string }) => r.id === 'PERF-LATENCY-P95');
    expect(perf.outcome).toBe('passed');
    // every operation timed under the run's load, and each read and write it got a 2xx from sampled alone
    for (const op of called) expect(perf.notes.join(' ')).toMatch(new RegExp(`under the run's own load.*${op} \\d`));
    expect(Object.keys(report.latencyQuiet).sort()).toEqual(['createPet', 'getPet', 'listOrders', 'listPets', 'sendMessage']);
  });

  it('fails the test of a violated requirement, against a configured server', async () => {
    const { fromVitest } = await compared();
    expect(fromVitest.code).toBe(1);
    expect(fromVitest.output).toMatch(/FAIL .*AUTH-MISSING-HEADER MUST/);
    expect(fromVitest.output).not.toContain('suite-key');
  });

  it('runs what -t selects, and no more; STRICT fails the test of a failed SHOULD; RETRIES reaches the session', async () => {
    // answers every request with 503 (no Retry-After: with one it would be a rate limit, waited out): each GET is retried
    const server = createServer((_, res) => {
      res.writeHead(503, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const reportDir = await mkdtemp(join(tmpdir(), 'vitest-reports-'));
    try {
      const strict = await vitest(['-t', 'ORDERS-'], {
        BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        API_KEY: 'suite-key',
        STRICT: '1',
        RETRIES: '1',
        REPORT_DIR: reportDir,
      });
      expect(strict.code, strict.output).toBe(1);
      expect(strict.output).toMatch(/FAIL .*ORDERS-EXISTS SHOULD/);
      const report = await reportIn(reportDir);
      // the ORDERS- requirements only: STORE-NO-5XX, which every answer breaks, is not run
      expect(report).toMatchObject({ verdict: 'non-compliant', strict: true, requirements: [{ id: 'ORDERS-EXISTS', outcome: 'failed' }] });
      expect(report.retries).toBeGreaterThan(0);
    } finally {
      server.close();
    }
  });

  it('fails one test with the reason when the preflight aborts the run, and writes an aborted report in place of the previous one', async () => {
    const ref = await startReferenceServer({ apiKey: 'suite-key' });
    const reportDir = await mkdtemp(join(tmpdir(), 'vitest-reports-'));
    await writeFile(join(reportDir, 'compliance.json'), '{"verdict":"compliant"}');
    try {
      const { code, output } = await vitest(['-t', 'AUTH-|ERR-'], { BASE_URL: ref.baseUrl, API_KEY: 'rejected-key', REPORT_DIR: reportDir });
      expect(code).toBe(1);
      expect(output).not.toContain('rejected-key');
      const report = await reportIn(reportDir);
      expect(report).toMatchObject({ verdict: 'aborted', exitCode: 2, abortReason: expect.stringContaining('401') });
      // one failed test that says why (-t selects tests in three area files); the rest skipped
      expect(output).toMatch(/Tests\s+1 failed \| \d+ skipped/);
      expect(output.split(`the run could not be made: ${report.abortReason}`)).toHaveLength(2);
      expect(output).not.toMatch(/\n\s+at .*harness/);
      expect(report.requirements.length).toBeGreaterThan(0);
      for (const r of report.requirements) expect(r).toMatchObject({ outcome: 'skipped', message: `not run: ${report.abortReason}` });
    } finally {
      await ref.close();
    }
  });

  it('refuses a bad setting as the CLI does: one line, exit code 2, the reports of a refused run', async () => {
    // Vite's own BASE_URL ("/") is ignored; an empty one is the user's mistake (the other
    // settings are refused by the same code as the CLI's: test/cli.test.ts)
    const reportDir = await mkdtemp(join(tmpdir(), 'vitest-reports-'));
    const { code, output } = await vitest([], { BASE_URL: '', API_KEY: 'k', REPORT_DIR: reportDir });
    expect(code, output).toBe(2);
    expect(output).toContain('animal-store-conformance: BASE_URL is set but empty');
    expect(output).not.toMatch(/No test files found|\n\s+at /);
    expect(await reportIn(reportDir)).toMatchObject({ verdict: 'not-tested', configError: expect.stringMatching(/^BASE_URL is set but empty/) });
  });
});
