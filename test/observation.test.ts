// A requirement fails only on an answer that shows the server breaking the description.
// What the run could not observe (a timeout, a dropped connection, a body cut at the
// cap) is never a violation: the client backs off and observes again (alone, then a
// probe); a kind of request the server never answers while it answers others is its
// failure; a target that stops answering, or an address that is not the API, ends the
// run with exit 2 and one line; what still cannot be observed makes the run incomplete.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceOptions } from '../reference/server.js';
import { runConformance } from '../harness/run/runner.js';
import { API_KEY, certifyReference, referenceRun, violations } from './support/run.js';
import { runBin } from './support/cli.js';
import { closedPort, forbidsEverything, servesWebSite } from './support/hostile-servers.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const result = (report: Awaited<ReturnType<typeof certifyReference>>, id: string) => report.requirements.find((r) => r.id === id)!;

/** The CLI against a base address, as a user runs it; the reports read back. */
async function cli(baseUrl: string, env: Record<string, string> = {}) {
  const reportDir = await mkdtemp(join(tmpdir(), 'observation-'));
  dirs.push(reportDir);
  const run = await runBin([], { BASE_URL: baseUrl, API_KEY, REPORT_DIR: reportDir, REQUEST_TIMEOUT_MS: '2s', ...env }, { killAfterMs: 60_000 });
  const read = (name: string) => readFile(join(reportDir, name), 'utf8');
  return { ...run, report: JSON.parse(await read('compliance.json')), metrics: await read('metrics.prom') };
}

/** The CLI against a reference server started with these options. */
async function cliAgainst(options: Omit<ReferenceOptions, 'apiKey'>, env: Record<string, string> = {}, baseUrl = (url: string) => url) {
  const ref = await startReferenceServer({ apiKey: API_KEY, ...options });
  try {
    return await cli(baseUrl(ref.baseUrl), env);
  } finally {
    await ref.close();
  }
}

describe.concurrent('what the run could not observe is never a violation', () => {
  // the real case: 120 ms each with --timeout 3s (32 x 120 ms = 3.84 s); scaled down, the same
  // ratio (not below 40 ms: a loaded machine's timers slip by milliseconds, and the ratio with them)
  it('a store serving one request at a time certifies compliant at the default concurrency, with a timeout shorter than 32 times its request', async () => {
    const report = await certifyReference({ oneAtATimeMs: 40 }, { concurrency: 32, timeoutMs: 1000, deadlineMs: 60_000 });
    expect(violations(report)).toEqual([]);
    expect(report.verdict).toBe('compliant');
    // requests did time out, and were answered when sent again alone
    expect(report.retries).toBeGreaterThan(0);
    expect(report.durationMs).toBeLessThan(40_000);
  });

  it('a server that never answers one kind of valid request (getPet), but everything else: non-compliant on that requirement', async () => {
    // a timeout with room for a loaded machine: a probe starved of CPU past it would end the run as "stopped answering"
    const report = await certifyReference({ neverAnswers: 'getPet' }, { timeoutMs: 1000, concurrency: 32, deadlineMs: 110_000 });
    expect([report.verdict, report.exitCode]).toEqual(['non-compliant', 1]);
    const getOk = result(report, 'GET-OK');
    expect(getOk.outcome).toBe('failed');
    expect(getOk.message).toMatch(
      /GET \/v1\/pets\/\d+ -> no answer within 1 s, like GET \/v1\/pets\/\S+ before it \(no answer within 1 s, also when sent again alone\), while GET \/v1\/pets was answered \(200\) in \d+ ms/,
    );
    // judged once: later getPets got no resend and no probe (each resent alone, twice, around
    // a probe, one after the other, would take minutes; about 20 s on a busy machine)
    expect(report.durationMs).toBeLessThan(60_000);
    // the rest of the store was judged as usual
    expect(result(report, 'LIST-OK').outcome).toBe('passed');
    expect(result(report, 'CREATE-OK').outcome).toBe('passed');
    expect(report.requirements.filter((r) => r.outcome === 'error')).toEqual([]);
    // the error-body checks, run alone, provoke a 404 through getPet: they judge the other answers, not the silence
    const observers = ['ERR-BODY-SHAPE', 'MEDIA-JSON', 'STORE-NO-5XX'];
    const alone = await certifyReference({ neverAnswers: 'getPet' }, { timeoutMs: 1000, concurrency: 32, selected: new Set(observers) });
    for (const id of observers) expect(result(alone, id).outcome, id).toBe('passed');
  }, 150_000);

  it('1 request in 20 answered 503 with Retry-After: 1, any method: waited out and sent again, compliant', async () => {
    const report = await certifyReference({ loadShedding: { every: 20, retryAfterSeconds: 1 } }, { profile: 'health' });
    expect(violations(report)).toEqual([]);
    expect(report.verdict).toBe('compliant');
    expect(report.rateLimited).toBeGreaterThan(0);
    expect(report.durationMs).toBeGreaterThanOrEqual(report.rateLimited * 900); // each paused the client for its Retry-After
  });

  it('a flaky backend (1 GET in 7 answered 500): with --retries, a recovered 5xx is no failure and is said; without, it is one', async () => {
    const flaky = { failsEvery: 7 };
    const retried = await certifyReference(flaky, { retries: 2, profile: 'health' });
    expect(violations(retried)).toEqual([]);
    const noted = result(retried, 'STORE-NO-5XX').notes.find((n) => n.includes('recovered'));
    expect(noted).toMatch(/^\d+ 5xx answers? (was|were) recovered by a retry \(--retries\)$/);
    const once = await certifyReference(flaky, { profile: 'health' });
    expect(result(once, 'STORE-NO-5XX').outcome).toBe('failed');
    expect(once.verdict).toBe('non-compliant');
  });

  it("a quickstart service at the store's origin root: each service's checks judge that service's answers only", async () => {
    const report = await certifyReference({ variants: ['quickstart-at-store-root'] });
    expect(violations(report)).toEqual([]);
    const judged = (id: string, service: string) =>
      Number(
        result(report, id)
          .notes.find((n) => n.endsWith(`${service} responses judged`))!
          .split(' ')[0],
      );
    const [store, quickstart] = [judged('STORE-NO-5XX', 'animal-store'), judged('QS-NO-5XX', 'quickstart')];
    // by URL prefix, every store answer (under the quickstart's base address, the origin) was the quickstart's too
    expect(quickstart).toBeGreaterThan(0);
    expect(quickstart).toBeLessThan(store);
    expect(store + quickstart).toBeLessThanOrEqual(report.requestCount);
  });

  it('120 stored animals with 12,000-character names: a page of 100 is 1.2 MB, over 1 MiB: compliant under the default cap, incomplete under --max-body 1MiB', async () => {
    const compliant = await certifyReference({ variants: ['long-names'] }, { profile: 'health' });
    expect(violations(compliant)).toEqual([]);
    const capped = await certifyReference({ variants: ['long-names'] }, { profile: 'health', maxBodyBytes: 1024 * 1024 });
    expect([capped.verdict, capped.exitCode, capped.counts.failed]).toEqual(['incomplete', 2, 0]);
    expect(capped.incompleteReason).toMatch(/^\d+ MUST requirements? could not be judged: a response body was cut off at 1 MiB; try --max-body 4MiB/);
  });
});

describe.concurrent('exit 2 with one clear line', () => {
  it('a server killed after the preflight: the target stopped answering', async () => {
    const { code, stdout, stderr, report } = await cliAgainst({ killedAfter: 1 });
    expect(code, stdout + stderr).toBe(2);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(stdout).toMatch(
      /^The run could not be made: the target stopped answering after answering 1 request: [A-Z]+ \/v1\/\S+ and GET \/v1\/pets(\?limit=1)? got no answer \(ECONNREFUSED/,
    );
    expect(report.verdict).toBe('aborted');
    expect(stderr).not.toMatch(/ECONNREFUSED|ERROR|FAIL/);
  });

  it('both services down: the reason names each, with its address setting', async () => {
    const [store, quickstart] = await Promise.all([closedPort(), closedPort()]);
    const { code, stdout, report } = await cli(store.baseUrl, { QUICKSTART_BASE_URL: quickstart.baseUrl.replace(/\/v1$/, '') });
    expect(code).toBe(2);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(stdout).toMatch(
      /^The run could not be made: target unreachable: GET \/v1\/pets -> no response \(ECONNREFUSED.* \(address: BASE_URL\); quickstart service unreachable: POST \/messages -> no response \(ECONNREFUSED.* \(address: QUICKSTART_BASE_URL\) \(exit code 2/,
    );
    expect(report.unreachable).toHaveLength(2);
  });

  it('a web front end answering 200 HTML to every path: the address serves a web site, not the API', async () => {
    const site = await servesWebSite();
    try {
      const { code, stdout, report } = await cli(site.baseUrl);
      expect(code).toBe(2);
      expect(stdout.trim().split('\n')).toHaveLength(1);
      expect(stdout).toMatch(
        /^The run could not be made: BASE_URL serves a web site, not the Animal Store API: GET http:\/\/127\.0\.0\.1:\d+\/v1\/pets with the key -> 200, a text\/html body of \d+ bytes, titled "Acme Pets: find your new friend"; GET \S+\/v1\/conformance-\S+-no-such-path, a path no API has, -> 200 text\/html too \(check BASE_URL\)/,
      );
      expect(report.requirements.every((r: any) => r.outcome === 'skipped')).toBe(true);
    } finally {
      await site.close();
    }
  });

  it('a target killed mid-run: what was judged stands, the rest was not carried out, nothing counts as violated', async () => {
    const { code, stdout, stderr, report, metrics } = await cliAgainst({ killedAfter: 60 });
    expect(code, stdout + stderr).toBe(2);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(stdout).toMatch(/^The run could not be made: the target stopped answering after answering \d+ requests: /);
    expect(report.abortReason).toMatch(/^the target stopped answering after answering \d+ requests: /);
    const notCarriedOut = report.requirements.filter((r: any) => r.message === `not carried out: ${report.abortReason}`);
    expect(notCarriedOut.length).toBeGreaterThan(0);
    expect(report.requirements.filter((r: any) => r.outcome === 'passed').length).toBeGreaterThan(0);
    expect([report.counts.mustViolations, report.counts.shouldViolations]).toEqual([0, 0]);
    expect(metrics).not.toMatch(/^animal_store_conformance_requirement_violated\{.*\} 1$/m);
    // no progress line for the checks it cut short: no connection errors printed, and no verdicts on them
    expect(stderr).not.toMatch(/ECONNREFUSED|ECONNRESET|other side closed/);
    const judgedBefore = report.requirements.filter((r: any) => r.outcome !== 'skipped').length;
    expect(stderr.split('\n').filter((l) => /^ {2}(PASS|FAIL|ERROR|INCONCLUSIVE) /.test(l))).toHaveLength(judgedBefore);
  });

  it('a base address one segment off, where the server answers 404 JSON to everything', async () => {
    const { code, stdout, report } = await cliAgainst({}, {}, (url) => url.replace(/\/v1$/, '/api/v1'));
    expect(code).toBe(2);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(stdout).toMatch(
      /^The run could not be made: BASE_URL does not look like the Animal Store API: GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/pets with the key -> 404 application\/json \(exit code 2/,
    );
    expect(report.requirements.every((r: any) => r.outcome === 'skipped')).toBe(true);
  });

  it('a firewall answering 403 HTML to everything', async () => {
    const firewall = await forbidsEverything();
    try {
      const { code, stdout } = await cli(firewall.baseUrl);
      expect(code).toBe(2);
      expect(stdout.trim().split('\n')).toHaveLength(1);
      expect(stdout).toMatch(
        /^The run could not be made: BASE_URL does not look like the Animal Store API, or API_KEY has no access to it: GET http:\/\/127\.0\.0\.1:\d+\/v1\/pets with the key -> 403 text\/html \(exit code 2/,
      );
    } finally {
      await firewall.close();
    }
  });

  it('a 200 that breaks the rules is judged, not taken for a wrong address', async () => {
    const ref = await startReferenceServer({ apiKey: API_KEY, faults: ['list-envelope'] });
    try {
      const report = await runConformance(referenceRun(ref));
      expect(report.verdict).toBe('non-compliant');
      expect(result(report, 'LIST-OK').outcome).toBe('failed');
    } finally {
      await ref.close();
    }
  });
});

describe.concurrent('each service is judged on its own', () => {
  /** The quickstart's requirements that were run, and the store's, by outcome. */
  const outcomes = (report: Awaited<ReturnType<typeof certifyReference>>, quickstart: boolean) =>
    new Set(report.requirements.filter((r) => (r.area === 'quickstart') === quickstart && r.outcome !== 'skipped').map((r) => r.outcome));

  it('the quickstart service down from the start, the store correct (health): the store is judged, the run incomplete, the reason names the quickstart', async () => {
    const report = await certifyReference({ quickstartKilledAfter: 0 }, { profile: 'health', timeoutMs: 1000 });
    expect([report.verdict, report.exitCode]).toEqual(['incomplete', 2]);
    expect(outcomes(report, false)).toContain('passed');
    expect(violations(report).filter((v) => !v.startsWith('QS-'))).toEqual([]);
    expect(outcomes(report, true)).toEqual(new Set(['error']));
    expect(report.unreachable).toEqual([expect.stringMatching(/^quickstart service unreachable: POST \/messages -> .* \(address: QUICKSTART_BASE_URL\)$/)]);
    expect(report.incompleteReason).toMatch(/^\d+ MUST requirements could not be judged: quickstart service unreachable: .* \(address: QUICKSTART_BASE_URL\)$/);
  });

  // the liveness probe goes to the service that fell silent: the store answering says nothing of the quickstart service
  it('the quickstart service killed mid-run while the store answers: the store is judged, no quickstart requirement fails', async () => {
    const report = await certifyReference({ quickstartKilledAfter: 2 }, { timeoutMs: 1000 });
    expect([report.verdict, report.exitCode]).toEqual(['incomplete', 2]);
    expect(report.incompleteReason).toMatch(
      /could not be judged: the quickstart service stopped answering after answering 2 requests: .*POST \/messages.* \(address: QUICKSTART_BASE_URL\)$/,
    );
    expect(outcomes(report, false)).toContain('passed');
    expect(violations(report).filter((v) => !v.startsWith('QS-'))).toEqual([]);
    expect(outcomes(report, true)).not.toContain('failed');
  });
});
