// The CLI against servers that misbehave on purpose (test/support/hostile-servers.ts),
// run as a user runs it: the built bin (dist/, made by `npm test`'s pretest build)
// with small limits. Whatever the server does, the run ends by its deadline, exits
// 1 (the server answered, badly) or 2 (nothing answered the preflight in time, the
// target stopped answering, a rate limit outlasted the deadline, or the answers could
// not be observed: bodies cut at the cap), writes the reports, never shows the key and
// never crashes.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_EVIDENCE_BODY_CHARS } from '../harness/http/exchange.js';
import { coverageText } from '../harness/verdict/report.js';
import * as hostile from './support/hostile-servers.js';
import type { HostileServer } from './support/hostile-servers.js';
import { runBin } from './support/cli.js';
import { reportValidator, validateJunit } from './support/validators.js';

const KEY = `hostile-key-${randomBytes(12).toString('hex')}`;
const TIMEOUT_MS = 1000;
const DEADLINE_MS = 4000;
// the process's start-up and its reports, after the deadline, on a machine busy with other work
const MARGIN_MS = 8000;
// small, so that an endless body reaches it fast (at about 16 MB/s), well within the timeout
const MAX_BODY = '1MiB';
// animals on each page of the error flood: 1.1 MiB (parsed in turns of their own, see
// answers.ts), a tenth of the flood measured by hand (bench/results.md)
const FLOOD = 20_000;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  wallMs: number;
  stdout: string;
  stderr: string;
  jsonText: string;
  junit: string;
  report: any;
  /** Every file written to REPORT_DIR (the two reports, and any other the CLI adds), by name. */
  files: Map<string, string>;
  /** From the signal (signalOn) to the process's exit. */
  stoppedWithinMs?: number;
}

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

// At most this many runs at once: the wall-time bound is about the run, and a
// machine with a few cores starved by a dozen Node processes would blur it.
const PARALLEL_RUNS = 3;
let running = 0;
const queue: Array<() => void> = [];

async function certify(baseUrl: string, env: Record<string, string> = {}, signalOn?: RegExp): Promise<Run> {
  if (running >= PARALLEL_RUNS) await new Promise<void>((resolve) => queue.push(resolve));
  else running++;
  try {
    return await certifyNow(baseUrl, env, signalOn);
  } finally {
    const next = queue.shift();
    if (next)
      next(); // the slot passes straight on
    else running--;
  }
}

/**
 * Runs the bin against baseUrl; a run that outlives the deadline by far is killed (and
 * fails the wall-time check). signalOn: SIGTERM is sent once stderr matches it.
 */
async function certifyNow(baseUrl: string, env: Record<string, string>, signalOn?: RegExp): Promise<Run> {
  const reportDir = await mkdtemp(join(tmpdir(), 'hostile-'));
  dirs.push(reportDir);
  let signalledAt: number | undefined;
  const { code, signal, stdout, stderr, wallMs } = await runBin(
    [],
    {
      BASE_URL: baseUrl,
      API_KEY: KEY,
      REPORT_DIR: reportDir,
      REQUEST_TIMEOUT_MS: String(TIMEOUT_MS),
      RUN_DEADLINE_MS: String(DEADLINE_MS),
      MAX_BODY,
      ...env,
    },
    {
      killAfterMs: DEADLINE_MS + MARGIN_MS + 5000,
      onStderr: (child, stderr) => {
        if (signalOn && signalledAt === undefined && signalOn.test(stderr)) {
          signalledAt = performance.now();
          child.kill('SIGTERM');
        }
      },
    },
  );
  const stoppedWithinMs = signalledAt === undefined ? undefined : performance.now() - signalledAt;
  const names = await readdir(reportDir);
  const files = new Map(await Promise.all(names.map(async (name) => [name, await readFile(join(reportDir, name), 'utf8')] as const)));
  const jsonText = files.get('compliance.json') ?? '';
  const junit = files.get('junit.xml') ?? '';
  let report: any;
  try {
    report = JSON.parse(jsonText);
  } catch {
    report = undefined;
  }
  return { code, signal, wallMs, stdout, stderr, jsonText, junit, report, files, stoppedWithinMs };
}

/** What every run must show, whatever the server did. */
function expectOrderlyEnd(run: Run, verdict: 'non-compliant' | 'incomplete' | 'aborted'): void {
  const exitCode = verdict === 'non-compliant' ? 1 : 2;
  expect(run.signal, 'killed: the run outlived its deadline').toBeNull();
  expect(run.wallMs).toBeLessThanOrEqual(DEADLINE_MS + MARGIN_MS);
  expect(run.code, `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`).toBe(exitCode);

  expect(run.report, 'compliance.json is written and parses').toBeDefined();
  expect(run.report).toMatchObject({ verdict, exitCode });
  expect(run.junit).toContain('<testsuites');
  // reports stay readable whatever the bodies were: every requirement citing up to 8
  // exchanges of at most MAX_EVIDENCE_BODY_CHARS each stays far under this
  for (const [name, text] of run.files) expect(text.length, name).toBeLessThan(8 * 1024 * 1024);
  expect(run.stdout).toContain(
    verdict === 'aborted'
      ? 'The run could not be made: '
      : `Verdict: ${run.report.verdict.toUpperCase()} (${coverageText(run.report.coverage)}; exit code ${exitCode})`,
  );
  if (verdict === 'incomplete') expect(run.stdout).toContain(`\nIncomplete: ${run.report.incompleteReason}\n`);
  // an aborted run counts no violation, whatever failed before the abort
  if (verdict === 'aborted') expect(run.files.get('metrics.prom')).not.toMatch(/^animal_store_conformance_requirement_violated\{.*\} 1$/m);

  const forms = [KEY, Buffer.from(KEY).toString('base64')];
  for (const [name, text] of [['stdout', run.stdout], ['stderr', run.stderr], ...run.files]) {
    for (const form of forms) expect(text.includes(form), `the key in ${name}`).toBe(false);
  }

  // stderr holds the banner and progress lines, nothing else: no crash, no
  // unhandled rejection, no process warning ("(node:PID) ..."), no stack frame
  expect(run.stderr).not.toMatch(/internal error|unhandled|\(node:\d+\)|^\s+at .*:\d+:\d+\)?$/im);
  for (const line of run.stderr.split('\n')) {
    expect(line).toMatch(/^$|^Certifying |^ {2}(PASS|FAIL|ERROR|SKIP|INCONCLUSIVE) |^ {16}\S/);
  }
  expect(run.jsonText).not.toContain('check crashed');
}

/** A run that ended as could-not-be-made, with the reason said once. */
function expectAborted(run: Run, reason: RegExp): void {
  expectOrderlyEnd(run, 'aborted');
  expect(run.report.abortReason).toMatch(reason);
  expect(run.stdout).toMatch(new RegExp(`The run could not be made: ${reason.source}`));
}

/**
 * A run the preflight aborted: one request (and its one resend, where the connection
 * failed under it), every requirement skipped.
 */
function expectPreflightAborted(run: Run, reason: RegExp): void {
  expectAborted(run, reason);
  expect(run.report.requestCount - run.report.retries).toBe(1);
  expect(run.report.counts.skipped).toBe(run.report.counts.total);
}

/** A run that went ahead and found the server wanting: MUST violations, each with a message. */
function expectNonCompliant(run: Run): Array<{ id: string; outcome: string; message: string }> {
  expectOrderlyEnd(run, 'non-compliant');
  expect(run.report.abortReason).toBeUndefined();
  expect(run.report.counts.mustViolations).toBeGreaterThan(0);
  const violated = run.report.requirements.filter((r: any) => r.outcome === 'failed' || r.outcome === 'error');
  for (const r of violated) expect(r.message, r.id).toBeTruthy();
  return violated;
}

/** A run that went ahead and could observe no answer it could judge: not one failure, MUSTs that could not be judged. */
function expectIncomplete(run: Run): Array<{ id: string; outcome: string; message: string; cause: string }> {
  expectOrderlyEnd(run, 'incomplete');
  expect(run.report.counts.failed).toBe(0);
  expect(run.report.counts.mustViolations).toBe(0);
  const unjudged = run.report.requirements.filter((r: any) => r.outcome === 'error');
  expect(unjudged.length).toBeGreaterThan(0);
  for (const r of unjudged) expect(r.cause, r.id).toBeTruthy();
  return unjudged;
}

/** compliance.json valid against its schema, junit.xml against the JUnit XSD. */
async function expectValidReports(run: Run): Promise<void> {
  const validate = reportValidator();
  expect(validate(run.report), JSON.stringify(validate.errors)).toBe(true);
  expect((await validateJunit(run.junit)).valid).toBe(true);
}

async function withServer<S extends HostileServer>(start: () => Promise<S>, body: (server: S) => Promise<void>): Promise<void> {
  const server = await start();
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

describe('the CLI against hostile servers', () => {
  it.concurrent('a server that never answers: the preflight times out, exit 2', () =>
    withServer(hostile.neverAnswers, async (server) => {
      const run = await certify(server.baseUrl);
      expectPreflightAborted(run, /the target did not answer within 1 s \(REQUEST_TIMEOUT_MS\): GET \/v1\/pets -> no response \(timed out after 1000 ms\)/);
    }),
  );

  it.concurrent('invalid JSON under application/json: failures, exit 1', () =>
    withServer(hostile.invalidJson, async (server) => {
      const run = await certify(server.baseUrl);
      const violated = expectNonCompliant(run);
      expect(violated.map((r) => r.outcome)).not.toContain('error'); // every answer arrived
      expect(violated.map((r) => r.message).join('\n')).toMatch(/JSON/);
    }),
  );

  it.concurrent('an endless body: the body cap ends each request, could not be judged: incomplete, exit 2, naming --max-body', () =>
    withServer(hostile.endlessBody, async (server) => {
      const run = await certify(server.baseUrl);
      // the target answers (a status line, a body), so the run goes on, and nothing can be judged
      const unjudged = expectIncomplete(run);
      expect(unjudged.some((r) => r.message.includes('body incomplete (response body larger than 1 MiB (cut off: --max-body))'))).toBe(true);
      expect(run.report.incompleteReason).toMatch(/^\d+ MUST requirements could not be judged: a response body was cut off at 1 MiB; try --max-body 4MiB/);
    }),
  );

  it.concurrent('endless bodies after an answered preflight: each request is cut off at the cap, never judged, exit 2', () =>
    withServer(
      () => hostile.endlessBody({ sparePreflight: true }),
      async (server) => {
        const run = await certify(server.baseUrl);
        const unjudged = expectIncomplete(run);
        const cutOff = unjudged.filter((r) => r.message.includes('body incomplete (response body larger than 1 MiB (cut off: --max-body))'));
        expect(cutOff.length).toBeGreaterThan(0);
        const evidence = run.report.requirements.flatMap((r: any) => r.evidence);
        const truncated = evidence.filter((e: any) => e.response?.truncated);
        expect(truncated.length).toBeGreaterThan(0);
        // the evidence shows the start of each body, not the megabyte read
        for (const e of truncated) expect(e.response.body.length).toBeLessThanOrEqual(MAX_EVIDENCE_BODY_CHARS);
      },
    ),
  );

  it.concurrent('a redirect to another origin: never followed, the key never leaves, failures cite the 302, exit 1', () =>
    withServer(hostile.redirectsElsewhere, async (server) => {
      const run = await certify(server.baseUrl);
      const violated = expectNonCompliant(run);
      expect(server.elsewhere.requests, 'the other origin was contacted').toEqual([]);
      const carriesKey = (r: (typeof server.elsewhere.requests)[number]) =>
        JSON.stringify(r).includes(KEY) || JSON.stringify(r).includes(Buffer.from(KEY).toString('base64'));
      expect(server.elsewhere.requests.filter(carriesKey)).toEqual([]);
      expect(violated.filter((r) => r.outcome === 'failed' && r.message.includes('-> 302')).length).toBeGreaterThan(0);
      expect(run.stdout).toContain('-> 302');
      // the evidence shows where the server pointed, without going there
      expect(run.jsonText).toContain(server.elsewhere.origin);
    }),
  );

  it.concurrent('a server that resets every connection: exit 2', () =>
    withServer(hostile.resetsConnections, async (server) => {
      const run = await certify(server.baseUrl);
      expectPreflightAborted(run, /target unreachable: GET \/v1\/pets -> no response \(ECONNRESET/);
    }),
  );

  // the request timeout bounds the whole exchange however slowly bytes come: the
  // preflight ends at it, so the run (the report's own time: process start-up is the
  // machine's) ends within three times the timeout (room for a loaded machine), before the deadline
  it.concurrent('a byte a second: the request timeout covers the body, the preflight ends the run, exit 2', () =>
    withServer(hostile.dripsBytes, async (server) => {
      const run = await certify(server.baseUrl);
      expectPreflightAborted(
        run,
        /the target did not answer within 1 s \(REQUEST_TIMEOUT_MS\): GET \/v1\/pets -> 200, body incomplete \(timed out after 1000 ms\)/,
      );
      expect(run.report.durationMs).toBeLessThan(3 * TIMEOUT_MS);
    }),
  );

  it.concurrent('a status line dripping a byte at a time: the request timeout covers the headers, exit 2', () =>
    withServer(hostile.dripsStatusLine, async (server) => {
      const run = await certify(server.baseUrl);
      expectPreflightAborted(run, /the target did not answer within 1 s \(REQUEST_TIMEOUT_MS\): GET \/v1\/pets -> no response \(timed out after 1000 ms\)/);
      expect(run.report.durationMs).toBeLessThan(3 * TIMEOUT_MS);
    }),
  );

  it.concurrent('a rate limit that outlasts the deadline: waited out, never a failure; exit 2 with a remedy', () =>
    withServer(hostile.rateLimitsAfterPreflight, async (server) => {
      const run = await certify(server.baseUrl);
      expectOrderlyEnd(run, 'aborted');
      expect(run.report.rateLimited).toBeGreaterThan(0);
      const line = `the server rate-limited the run (${run.report.rateLimited} answers 429) until the deadline passed; try --rate 1 or a longer --deadline`;
      expect(run.report.abortReason).toBe(line);
      expect(run.stdout).toContain(`The run could not be made: ${line}`);
      // the reports say which requirements could not be carried out, and why; none failed for a 429
      const notDone = run.report.requirements.filter((r: any) => r.outcome === 'error');
      expect(notDone.length).toBeGreaterThan(0);
      for (const r of notDone) expect(r.message, r.id).toMatch(/still rate limited when the run deadline passed|run deadline has passed/);
      expect(run.report.requirements.filter((r: any) => r.outcome === 'failed' && /429/.test(r.message))).toEqual([]);
    }),
  );

  it.concurrent('500 with an Error body to everything: failures, exit 1', () =>
    withServer(hostile.internalError, async (server) => {
      const run = await certify(server.baseUrl);
      const violated = expectNonCompliant(run);
      expect(violated.map((r) => r.outcome)).not.toContain('error');
      expect(violated.filter((r) => r.message.includes('-> 500')).length).toBeGreaterThan(0);
    }),
  );

  it.concurrent('a server that hangs after the preflight: the target stopped answering, the run stops before its deadline, exit 2', () =>
    withServer(hostile.hangsAfterPreflight, async (server) => {
      // timed out in the pool, then alone, then the probe (two timeouts): four timeouts, not the deadline
      const deadlineMs = 2 * DEADLINE_MS;
      const run = await certify(server.baseUrl, { CONCURRENCY: '2', RUN_DEADLINE_MS: String(deadlineMs) });
      expectAborted(
        run,
        /the target stopped answering after answering 1 request: GET \/v1\/\S+ -> no answer within 1 s, also when sent again alone, and GET \/v1\/pets -> no answer within 2 s/,
      );
      expect(run.report.durationMs).toBeLessThan(deadlineMs);
      // the checks it cut short are not carried out, and print no progress line
      expect(run.report.requirements.every((r: any) => r.outcome === 'skipped')).toBe(true);
      expect(run.stderr).not.toMatch(/ERROR|FAIL/);
    }),
  );

  // every page a list check asks for answers FLOOD animals, each invalid four ways: each
  // page is judged by its first invalid items, and the run ends by its deadline
  it.concurrent('an error flood: pages judged by their first invalid items, messages quote at most three, exit 1', () =>
    withServer(
      () => hostile.errorFlood(FLOOD),
      async (server) => {
        const run = await certify(server.baseUrl, { MAX_BODY: '2MiB' });
        const violated = expectNonCompliant(run);
        await expectValidReports(run);
        const invalidPage =
          /is not a valid Pets: \/0\/name must be string; \/0\/categoryId must be integer; \/0\/status must be equal to one of the allowed values/;
        expect(violated.filter((r) => r.outcome === 'failed' && invalidPage.test(r.message)).length).toBeGreaterThan(0);
        // no message quotes an animal beyond the first three of a page
        for (const r of run.report.requirements) expect(r.message ?? '', r.id).not.toMatch(/\/(?:[3-9]|\d{2,})\/(?:id|name|categoryId|status)\b/);
      },
    ),
  );

  it.concurrent('an error flood stopped by SIGTERM: exit 143 within 5 s, valid reports that say so', () =>
    withServer(
      () => hostile.errorFlood(FLOOD),
      async (server) => {
        // a deadline far off: the signal, sent once a list check has failed (the pages are being judged), ends the run
        const run = await certify(server.baseUrl, { MAX_BODY: '2MiB', RUN_DEADLINE_MS: '60s' }, /^ {2}FAIL +LIST-/m);
        expect(run.signal, 'killed').toBeNull();
        expect(run.code, run.stderr).toBe(143);
        expect(run.stoppedWithinMs).toBeLessThan(5000);
        expect(run.report).toMatchObject({ verdict: 'aborted', abortReason: 'the run was interrupted (SIGTERM)' });
        await expectValidReports(run);
        expect(run.stderr).not.toMatch(/internal error|unhandled|\(node:\d+\)/i);
      },
    ),
  );

  it.concurrent('nothing listening: connection refused, exit 2', () =>
    withServer(hostile.closedPort, async (server) => {
      const run = await certify(server.baseUrl);
      expectPreflightAborted(run, /target unreachable: GET \/v1\/pets -> no response \(ECONNREFUSED/);
    }),
  );
});
