import { describe, it, expect } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderComplianceJson } from '../reporters/compliance-json.js';
import { writeAtomically } from '../harness/model/files.js';
import { ABORTED_TESTCASE, renderJunit, stripInvalidXmlChars } from '../reporters/junit.js';
import { buildReportFixture, countOf, HOSTILE_BODY } from './report-fixture.js';
import { buildReport } from '../harness/verdict/report.js';
import { formatSummary } from '../reporters/console.js';
import { githubAnnotations, githubSummary } from '../reporters/github.js';
import { reportValidator, validateJunit } from './support/validators.js';
import { certifyReference } from './support/run.js';
import { selectRequirements } from '../harness/config/selection.js';
import { loadCatalogue } from '../harness/api/catalogue.js';

/** The text XML carries for an escaped string (enough for what renderJunit escapes). */
const unescapeXml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#13;/g, '\r')
    .replace(/&#10;/g, '\n')
    .replace(/&#9;/g, '\t')
    .replace(/&amp;/g, '&');

/** The element <tag ...>...</tag> of the testcase whose name starts with id. */
function elementOf(xml: string, id: string, tag: string): string {
  const start = xml.indexOf(`name="${id} `);
  expect(start).toBeGreaterThan(-1);
  const end = xml.indexOf('</testcase>', start);
  const m = xml.slice(start, end).match(new RegExp(`<${tag}[ >/][\\s\\S]*?(</${tag}>|/>)`));
  expect(m, `${tag} of ${id}`).not.toBeNull();
  return m![0];
}

/** The testcase element (self-closing or not) whose name starts with id. */
function testcaseOf(xml: string, id: string): string {
  const m = xml.match(new RegExp(`<testcase [^>]*name="${id} [^"]*"[^>]*?(/>|>[\\s\\S]*?</testcase>)`));
  expect(m, `testcase ${id}`).not.toBeNull();
  return m![0];
}

interface Suite {
  name: string;
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  time: string;
  body: string;
}

/** Every <testsuite> with its counts and body. */
function suitesOf(xml: string): Suite[] {
  return [
    ...xml.matchAll(
      /<testsuite name="([^"]*)" tests="(\d+)" failures="(\d+)" errors="(\d+)" skipped="(\d+)" time="([\d.]+)" timestamp="[^"]*">([\s\S]*?)<\/testsuite>/g,
    ),
  ].map((m) => ({ name: m[1], tests: +m[2], failures: +m[3], errors: +m[4], skipped: +m[5], time: m[6], body: m[7] }));
}

/** Every suite's counts are what its testcases hold, and <testsuites> is their sum. */
function expectConsistentCounts(xml: string) {
  const suites = suitesOf(xml);
  expect(suites.length).toBe(xml.match(/<testsuite /g)?.length ?? 0);
  const n = (body: string, re: RegExp) => body.match(re)?.length ?? 0;
  for (const s of suites) {
    expect([s.tests, s.failures, s.errors, s.skipped], `suite ${s.name}`).toEqual([
      n(s.body, /<testcase /g),
      n(s.body, /<failure /g),
      n(s.body, /<error /g),
      n(s.body, /<skipped /g),
    ]);
  }
  const root = xml.match(/<testsuites [^>]*tests="(\d+)" failures="(\d+)" errors="(\d+)"/)!;
  const sum = (k: 'tests' | 'failures' | 'errors') => suites.reduce((t, s) => t + s[k], 0);
  expect([+root[1], +root[2], +root[3]]).toEqual([sum('tests'), sum('failures'), sum('errors')]);
}

describe('compliance.json', () => {
  it('validates against spec/compliance-report.schema.json (Ajv 2020, strict, formats)', () => {
    const validate = reportValidator();
    const json = renderComplianceJson(buildReportFixture());
    expect(json.endsWith('}\n')).toBe(true);
    expect(json).toContain('\n  "tool": {');
    const ok = validate(JSON.parse(json));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('keeps evidence bodies exactly, hostile characters included', () => {
    const parsed = JSON.parse(renderComplianceJson(buildReportFixture()));
    expect(parsed.requirements[1].evidence[0].response.body).toBe(HOSTILE_BODY);
  });

  it('rejects invalid reports', () => {
    const validate = reportValidator();
    const cases: [string, (r: any) => void][] = [
      ['missing verdict', (r) => delete r.verdict],
      ['unknown outcome', (r) => (r.requirements[0].outcome = 'flaky')],
      ['unknown level', (r) => (r.requirements[0].level = 'MAY')],
      ['unknown profile', (r) => (r.profile = 'smoke')],
      ['unknown environment', (r) => (r.target.environment = 'dev')],
      ['exit code 3', (r) => (r.exitCode = 3)],
      ['fractional count', (r) => (r.counts.passed = 1.5)],
      ['bad date-time', (r) => (r.startedAt = 'yesterday')],
      ['extra root property', (r) => (r.extra = true)],
      ['extra exchange property', (r) => (r.requirements[0].evidence[0].secret = 'x')],
      ['exchange without curl', (r) => delete r.requirements[0].evidence[0].curl],
      ['non-string header', (r) => (r.requirements[0].evidence[0].request.headers.x = 1)],
      ['missing coverage', (r) => delete r.coverage],
      ['coverage without judged', (r) => delete r.coverage.judged],
      ['unknown area verdict', (r) => (r.areas[0].verdict = 'untested')],
    ];
    for (const [name, breakIt] of cases) {
      const report = JSON.parse(renderComplianceJson(buildReportFixture()));
      breakIt(report);
      expect(validate(report), name).toBe(false);
    }
  });

  it('writes compliance.json into a new directory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reporters-'));
    try {
      const file = await writeAtomically(join(dir, 'a', 'b'), 'compliance.json', renderComplianceJson(buildReportFixture()));
      expect(file).toBe(join(dir, 'a', 'b', 'compliance.json'));
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(JSON.parse(JSON.stringify(buildReportFixture())));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('junit.xml', () => {
  it('of a compliant run with one SHOULD violation has failures="0" errors="0" (CI stays green); with --strict the SHOULD is a <failure>', async () => {
    const selected = selectRequirements(loadCatalogue(), ['auth'], []);
    for (const strict of [false, true]) {
      const run = await certifyReference({ faults: ['scheme-case-sensitive'] }, { selected, strict });
      expect([run.verdict, run.counts.shouldViolations]).toEqual([strict ? 'non-compliant' : 'compliant', 1]);
      const out = renderJunit(run);
      expect((await validateJunit(out)).errors).toEqual([]);
      expect(out.match(/<testsuites [^>]*>/)![0]).toContain(strict ? 'failures="1" errors="0"' : 'failures="0" errors="0"');
      expect(testcaseOf(out, 'AUTH-SCHEME-CASE')).toContain(strict ? '<failure message=' : '<skipped message="SHOULD not met');
    }
  });

  const report = buildReportFixture();
  const xml = renderJunit(report);

  it('validates against the Jenkins junit-10.xsd', async () => {
    const result = await validateJunit(xml);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('is rejected by the validator when broken (the validator is live)', async () => {
    const broken = xml.replace('</testcase>', '<properties><property name="a" value="b"/></properties></testcase>');
    expect(broken).not.toBe(xml);
    const result = await validateJunit(broken);
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => e.message).join('\n')).toContain("Element 'properties': This element is not expected");
    // a raw NUL (what an unstripped evidence body would give) makes it not even well-formed
    expect((await validateJunit(xml.replace('</failure>', '\u0000</failure>'))).valid).toBe(false);
    // junit-10.xsd has no skipped/timestamp on <testsuites>, which is why renderJunit leaves them out
    expect((await validateJunit(xml.replace('<testsuites ', '<testsuites skipped="1" '))).valid).toBe(false);
  });

  it('has no character XML 1.0 forbids', () => {
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/);
    expect(xml).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    expect(xml).toContain('🐾 Zürich 猫');
  });

  it('counts match the report, per run and per area in report order', () => {
    const rootTag = xml.match(/<testsuites [^>]*>/)![0];
    expect(rootTag).toContain('name="animal-store-conformance"');
    expect(rootTag).toContain(`tests="${report.counts.total}"`);
    // only what decides the verdict colours CI: a failed or unjudged SHOULD (not --strict) is <skipped>
    const shoulds = (outcome: string, area?: string) =>
      report.requirements.filter((r) => r.level === 'SHOULD' && r.outcome === outcome && (area === undefined || r.area === area)).length;
    expect(rootTag).toContain(`failures="${report.counts.failed - shoulds('failed')}"`);
    expect(rootTag).toContain(`errors="${report.counts.error - shoulds('error')}"`);

    const suites = [
      ...xml.matchAll(
        /<testsuite name="([^"]*)" tests="(\d+)" failures="(\d+)" errors="(\d+)" skipped="(\d+)" time="([\d.]+)" timestamp="([^"]*)">([\s\S]*?)<\/testsuite>/g,
      ),
    ];
    expect(suites.map((m) => m[1])).toEqual(report.areas.map((a) => a.area));
    for (const [i, area] of report.areas.entries()) {
      const [, , tests, failures, errors, skipped, , timestamp, body] = suites[i];
      const c = area.counts;
      const [failed, errored] = [c.failed - shoulds('failed', area.area), c.error - shoulds('error', area.area)];
      const skips = c.skipped + c.inconclusive + shoulds('failed', area.area) + shoulds('error', area.area);
      expect([+tests, +failures, +errors, +skipped]).toEqual([c.total, failed, errored, skips]);
      expect(timestamp).toBe(report.startedAt);
      expect(body.match(/<testcase /g)?.length).toBe(c.total);
      expect(body.match(/<failure /g)?.length ?? 0).toBe(failed);
      expect(body.match(/<error /g)?.length ?? 0).toBe(errored);
      expect(body.match(/<skipped /g)?.length ?? 0).toBe(skips);
      expect(body).toContain(`<property name="area.verdict" value="${area.verdict}"/>`);
      expect(body).toContain(`<property name="target.baseUrl" value="${report.target.baseUrl}"/>`);
      expect(body).toContain('<property name="target.environment" value="staging"/>');
      expect(body).toContain('<property name="profile" value="certify"/>');
      expect(body).toContain('<property name="spec.version" value="1.0.0"/>');
      expect(body).toContain('<property name="tool.version" value="0.1.0"/>');
      expect(body).toMatch(new RegExp(`classname="animal-store\\.${area.area}"`));
    }
  });

  it('counts on every <testsuite> and on <testsuites> agree with the testcases', () => {
    expectConsistentCounts(xml);
    expect(xml).not.toContain('<testsuite name="run"');
  });

  it("a suite's time is its longest check (they run concurrently), not the sum; testcases and run keep theirs", async () => {
    // the fixture: every suite's time is the longest of its testcases
    for (const s of suitesOf(xml)) {
      const times = [...s.body.matchAll(/<testcase [^>]*time="([\d.]+)"/g)].map((m) => +m[1]);
      expect(+s.time, s.name).toBe(Math.max(...times));
    }
    const timed = buildReportFixture();
    const set = (id: string, ms: number) => (timed.requirements.find((r) => r.id === id)!.durationMs = ms);
    set('AUTH-MISSING-HEADER', 120);
    set('AUTH-INVALID-KEY', 312);
    set('LIST-OK', 5);
    set('LIST-PAGE-FULL', 250);
    set('LIST-STATUS-COMPLETE', 99.9);
    const out = renderJunit(timed);
    expect((await validateJunit(out)).errors).toEqual([]);
    const time = (area: string) => suitesOf(out).find((s) => s.name === area)!.time;
    expect(time('auth')).toBe('0.312'); // the sum would be 0.432
    expect(time('list')).toBe('0.250'); // the sum would be 0.355
    expect(time('orders')).toBe('0.000');
    expect(testcaseOf(out, 'AUTH-MISSING-HEADER')).toContain('time="0.120"');
    expect(testcaseOf(out, 'AUTH-INVALID-KEY')).toContain('time="0.312"');
    expect(out.match(/<testsuites [^>]*>/)![0]).toContain(`time="${(timed.durationMs / 1000).toFixed(3)}"`);
    expect(out).toContain('time="11.323">');
  });

  it('names test cases "<ID> <LEVEL> <title>" with escaped attributes', () => {
    expect(xml).toContain('name="AUTH-INVALID-KEY MUST A bearer token that is not a valid key gets 401 &lt;&amp;&gt;"');
    expect(xml).toContain('name="LIST-PAGE-FULL SHOULD Title of LIST-PAGE-FULL" time="0.040"');
  });

  it('a failure holds the message, notes, every exchange and its curl line', () => {
    const failure = elementOf(xml, 'AUTH-INVALID-KEY', 'failure');
    expect(failure).toMatch(/^<failure message="expected 401, got 500 &amp; an HTML page" type="MUST">/);
    const text = unescapeXml(failure.replace(/^<failure[^>]*>/, '').replace(/<\/failure>$/, ''));
    const [violating, second] = report.requirements[1].evidence;
    expect(text).toContain('expected 401, got 500 & an HTML page');
    expect(text).toContain('the server answered with "text/html"');
    expect(text).toContain(`POST ${violating.request.url}`);
    expect(text).toContain('content-type: application/json');
    expect(text).toContain('{"name":"Rex","categoryId":1}');
    expect(text).toContain('HTTP 500 (body truncated)');
    expect(text).toContain('content-type: text/html; charset=utf-8');
    expect(text).toContain(stripInvalidXmlChars(HOSTILE_BODY));
    expect(text).toContain(`curl: ${violating.curl}`);
    expect(text).toContain(`curl: ${second.curl}`);
    expect(text).toContain('exchange 2 of 2');
  });

  it('a failed SHOULD is <skipped> with its message and evidence, a <failure> of type SHOULD with --strict; an error is an <error> with the exchange error', () => {
    expect(elementOf(xml, 'LIST-PAGE-FULL', 'skipped')).toMatch(
      /^<skipped message="SHOULD not met \(does not decide the verdict without --strict\): limit=1 returned 0 animals[^"]*"\/>/,
    );
    expect(elementOf(xml, 'LIST-PAGE-FULL', 'system-out')).toContain('SHOULD not met; it does not decide the verdict without --strict.');
    expect(xml).toContain(`<property name="run.shouldViolations" value="${report.counts.shouldViolations}"/>`);
    const strict = renderJunit({ ...report, strict: true });
    expect(elementOf(strict, 'LIST-PAGE-FULL', 'failure')).toMatch(/^<failure message="limit=1 returned 0 animals[^"]*" type="SHOULD">/);
    expectConsistentCounts(strict);
    const error = elementOf(xml, 'ERR-BODY-SHAPE', 'error');
    expect(error).toMatch(/^<error message="timeout after 10000 ms" type="MUST">/);
    expect(error).toContain('error: timeout after 10000 ms');
    expect(error).toContain('attempt 2');
    expect(error).toContain("curl: curl -sS -X GET 'https://api.example.test/v1/pets/1'");
  });

  it('skipped and inconclusive are <skipped>; notes of a pass go to system-out', () => {
    expect(elementOf(xml, 'LIST-LIMIT-MAX', 'skipped')).toBe('<skipped message="deadline of the operation reached"/>');
    expect(elementOf(xml, 'LIST-STATUS-COMPLETE', 'skipped')).toBe('<skipped message="inconclusive: the store holds no animal with status sold"/>');
    expect(elementOf(xml, 'LIST-STATUS-COMPLETE', 'system-out')).toContain('only available animals were seen');
    expect(elementOf(xml, 'AUTH-MISSING-HEADER', 'system-out')).toBe('<system-out>GET /store/orders answered 404, judged as missing</system-out>');
    expect(xml).toMatch(/<testcase [^>]*name="ERR-STATUS-MATCHES MUST [^"]*" time="0.040"\/>/);
  });

  it('an aborted run adds a "run" suite with one <error> carrying the reason; valid, counts consistent', async () => {
    const reason = 'target unreachable: connect ECONNREFUSED <127.0.0.1:1> & "retry"';
    const aborted = buildReportFixture({ abortReason: reason });
    expect(aborted.verdict).toBe('aborted');
    expect(aborted.requirements.every((r) => r.outcome === 'skipped' && r.message === `not run: ${reason}`)).toBe(true);
    const out = renderJunit(aborted);
    const result = await validateJunit(out);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expectConsistentCounts(out);

    const rootTag = out.match(/<testsuites [^>]*>/)![0];
    expect(rootTag).toContain(`tests="${aborted.requirements.length + 1}" failures="0" errors="1"`);
    const suites = suitesOf(out);
    expect(suites.map((s) => s.name)).toEqual(['run', ...aborted.areas.map((a) => a.area)]);
    const [run, ...areas] = suites;
    expect([run.tests, run.failures, run.errors, run.skipped]).toEqual([1, 0, 1, 0]);
    expect(run.body).toContain('<property name="run.verdict" value="aborted"/>');
    expect(run.body).toContain(`<testcase classname="animal-store.run" name="${ABORTED_TESTCASE}" time="11.323">`);
    expect(ABORTED_TESTCASE).toBe('RUN the conformance run could not be made');
    const error = elementOf(out, 'RUN', 'error');
    expect(error).toMatch(/^<error message="target unreachable: connect ECONNREFUSED &lt;127\.0\.0\.1:1&gt; &amp; &quot;retry&quot;" type="aborted">/);
    expect(unescapeXml(error)).toContain(`The conformance run could not be made: ${reason}`);
    for (const s of areas) {
      expect([s.failures, s.errors, s.skipped]).toEqual([0, 0, s.tests]);
      expect(s.body).toContain('<property name="area.verdict" value="aborted"/>');
    }

    // aborted before any requirement was listed (bad configuration): the run suite alone
    const empty = renderJunit({ ...aborted, areas: [], requirements: [], counts: countOf([]), abortReason: 'bad configuration' });
    expect((await validateJunit(empty)).errors).toEqual([]);
    expectConsistentCounts(empty);
    expect(suitesOf(empty).map((s) => s.name)).toEqual(['run']);
    expect(empty).toContain('<error message="bad configuration" type="aborted">');
    expect(empty.match(/<testsuites [^>]*>/)![0]).toContain('tests="1" failures="0" errors="1"');
  });

  it('a run aborted after some results counts no <failure>: what failed before the abort is <skipped>, not counted, with its evidence; errors stay <error>', async () => {
    const fixture = buildReportFixture();
    const reason = 'the target stopped answering after 40 requests: GET /v1/pets/7 and GET /v1/pets got no answer (ECONNREFUSED)';
    const stopped = buildReport({ ...fixture, abortReason: reason }, fixture.requirements);
    expect([stopped.verdict, stopped.counts.failed, stopped.counts.mustViolations, stopped.counts.shouldViolations]).toEqual(['aborted', 2, 0, 0]);
    const out = renderJunit(stopped);
    expect((await validateJunit(out)).errors).toEqual([]);
    expectConsistentCounts(out);
    expect(out).not.toContain('<failure');
    expect(out.match(/<testsuites [^>]*>/)![0]).toContain(`failures="0" errors="2"`); // ERR-BODY-SHAPE and the run suite
    expect(elementOf(out, 'AUTH-INVALID-KEY', 'skipped')).toBe(
      '<skipped message="not counted, the run was aborted: failed before the abort: expected 401, got 500 &amp; an HTML page"/>',
    );
    // an unjudged SHOULD in an aborted run: its tag is the kind it is counted as
    const should = fixture.requirements.map((r) => (r.id === 'ERR-BODY-SHAPE' ? { ...r, level: 'SHOULD' as const } : r));
    const withShould = renderJunit(buildReport({ ...fixture, abortReason: reason }, should));
    expectConsistentCounts(withShould);
    expect(elementOf(withShould, 'ERR-BODY-SHAPE', 'skipped')).toMatch(/^<skipped message="SHOULD could not be judged/);
    expect(unescapeXml(elementOf(out, 'AUTH-INVALID-KEY', 'system-out'))).toContain(`curl: ${fixture.requirements[1].evidence[0].curl}`);
    expect(elementOf(out, 'ERR-BODY-SHAPE', 'error')).toMatch(/^<error message="timeout after 10000 ms" type="MUST">/);
    expect(unescapeXml(elementOf(out, 'RUN', 'error'))).toContain(`The conformance run could not be made: ${reason}`);
  });

  it('an incomplete run: the reason as a property, the unjudged MUST an <error> with its cause; the JSON validates', async () => {
    const fixture = buildReportFixture();
    const judged = fixture.requirements.map((r) => (r.outcome === 'failed' ? { ...r, outcome: 'passed' as const } : r));
    const incomplete = buildReport(fixture, judged);
    expect(incomplete.incompleteReason).toBe(
      '1 MUST requirement could not be judged: no answer within 10 s, also when sent again alone; try --timeout 30s or --concurrency 8',
    );
    const validate = reportValidator();
    expect(validate(JSON.parse(renderComplianceJson(incomplete))), JSON.stringify(validate.errors)).toBe(true);
    const out = renderJunit(incomplete);
    expect((await validateJunit(out)).errors).toEqual([]);
    expect(out).toContain('<property name="run.verdict" value="incomplete"/>');
    expect(out).toContain(`<property name="run.incompleteReason" value="${incomplete.incompleteReason}"/>`);
    expect(unescapeXml(elementOf(out, 'ERR-BODY-SHAPE', 'error'))).toContain(`could not be judged: ${incomplete.incompleteReason!.split(': ')[1]}`);
    expect(out).not.toContain('<testsuite name="run"');
  });

  it('an incomplete run in the console and on GitHub: the verdict, the one line, what could not be judged apart from violations', () => {
    const fixture = buildReportFixture();
    const incomplete = buildReport(
      fixture,
      fixture.requirements.map((r) => (r.outcome === 'failed' ? { ...r, outcome: 'passed' as const } : r)),
    );
    const summary = formatSummary(incomplete, []);
    expect(summary).toContain('Verdict: INCOMPLETE (5 of 9 requirements judged; 1 could not be judged, 2 skipped, 1 inconclusive; exit code 2)');
    expect(summary).toContain(`\nIncomplete: ${incomplete.incompleteReason}\n`);
    expect(summary).not.toContain('Violations');
    expect(summary).toMatch(/Could not be judged \(no answer could be observed: not a violation\):\n {2}ERROR ERR-BODY-SHAPE \(MUST\)/);
    const github = githubSummary(incomplete);
    expect(github).toContain('## ⚠️ Animal Store conformance: incomplete (5 of 9 requirements judged; 1 could not be judged, 2 skipped, 1 inconclusive)');
    expect(github).toContain(`The run is incomplete: ${incomplete.incompleteReason}`);
    expect(github).toMatch(/\| \[ERR-BODY-SHAPE\]\([^)]*\) \| MUST \| could not be judged \| timeout after 10000 ms \|/);
    expect(githubAnnotations(incomplete)).toEqual([
      '::warning title=ERR-BODY-SHAPE (MUST) could not be judged::Title of ERR-BODY-SHAPE: timeout after 10000 ms',
    ]);
    // the fixture as it is: a violated MUST is an error annotation, the unjudged one a warning
    expect(githubAnnotations(fixture).map((a) => a.split(' title=')[0])).toEqual(['::error', '::warning', '::warning']);
  });

  it('a listed known deviation that failed or errored is <skipped> with its evidence in system-out; one that passed says so', async () => {
    const listed = buildReportFixture({
      expectedFailures: {
        'AUTH-INVALID-KEY': 'tracked in <ISSUE-12>',
        'ERR-BODY-SHAPE': 'upstream timeout, ticket 7',
        'LIST-OK': 'was broken in 0.9',
      },
    });
    expect(listed.counts.mustViolations).toBe(0);
    expect(listed.verdict).toBe('compliant');
    const out = renderJunit(listed);
    const result = await validateJunit(out);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expectConsistentCounts(out);

    // the unlisted failed SHOULD is <skipped> too (not --strict): no <failure>, no <error>
    expect(out.match(/<testsuites [^>]*>/)![0]).toContain(`tests="${listed.counts.total}" failures="0" errors="0"`);
    const auth = suitesOf(out).find((s) => s.name === 'auth')!;
    expect([auth.tests, auth.failures, auth.errors, auth.skipped]).toEqual([2, 0, 0, 1]);
    const errors = suitesOf(out).find((s) => s.name === 'errors')!;
    expect([errors.tests, errors.failures, errors.errors, errors.skipped]).toEqual([2, 0, 0, 1]);
    expect(out).toContain('<property name="run.verdict" value="compliant"/>');

    const failed = testcaseOf(out, 'AUTH-INVALID-KEY');
    expect(failed).not.toMatch(/<failure|<error/);
    expect(elementOf(out, 'AUTH-INVALID-KEY', 'skipped')).toBe(
      '<skipped message="expected failure: tracked in &lt;ISSUE-12&gt;: expected 401, got 500 &amp; an HTML page"/>',
    );
    const evidence = unescapeXml(elementOf(out, 'AUTH-INVALID-KEY', 'system-out'));
    expect(evidence).toContain('failed, listed as an expected failure (not counted): tracked in <ISSUE-12>');
    expect(evidence).toContain('expected 401, got 500 & an HTML page');
    expect(evidence).toContain(stripInvalidXmlChars(HOSTILE_BODY));
    for (const x of listed.requirements[1].evidence) expect(evidence).toContain(`curl: ${x.curl}`);

    expect(testcaseOf(out, 'ERR-BODY-SHAPE')).not.toMatch(/<failure|<error/);
    expect(elementOf(out, 'ERR-BODY-SHAPE', 'skipped')).toBe('<skipped message="expected failure: upstream timeout, ticket 7: timeout after 10000 ms"/>');
    expect(elementOf(out, 'ERR-BODY-SHAPE', 'system-out')).toContain('error: timeout after 10000 ms');

    const passed = testcaseOf(out, 'LIST-OK');
    expect(passed).not.toMatch(/<failure|<error|<skipped/);
    expect(elementOf(out, 'LIST-OK', 'system-out')).toBe(
      '<system-out>listed as an expected failure (was broken in 0.9) but passed: remove it from the expected-failures file</system-out>',
    );
  });

  it('strips exactly the characters XML 1.0 forbids', () => {
    expect(stripInvalidXmlChars('a\u0000b\u0009c\u000Ad\u000De\u001Ff\uFFFEg\uFFFFh\uD800i\uDC00j')).toBe('ab\tc\nd\refghij');
    expect(stripInvalidXmlChars('🐾\u007F\u0085é')).toBe('🐾\u007F\u0085é');
  });

  it('writes junit.xml into a new directory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reporters-'));
    try {
      const file = await writeAtomically(join(dir, 'out'), 'junit.xml', renderJunit(report));
      expect(file).toBe(join(dir, 'out', 'junit.xml'));
      expect(await readFile(file, 'utf8')).toBe(xml);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
