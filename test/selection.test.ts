// Selection (--only, --skip), strict mode, known deviations, the generated
// catalogue document and the GitHub Actions output.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../harness/api/catalogue.js';
import { ConfigError } from '../harness/config/values.js';
import { PACKAGE_ROOT } from '../harness/model/paths.js';
import { readExpectedFailures, selectRequirements } from '../harness/config/selection.js';
import { renderRequirementsDoc } from '../reporters/catalogue-doc.js';
import { githubAnnotations, githubSummary } from '../reporters/github.js';
import { formatSummary } from '../reporters/console.js';
import { API_KEY, certifyReference, referenceRun, storeOnly } from './support/run.js';
import { runConformance } from '../harness/run/runner.js';
import { startReferenceServer, type ReferenceServer } from '../reference/server.js';
import { renderComplianceJson } from '../reporters/compliance-json.js';
import { NOT_TESTED_TESTCASE, renderJunit } from '../reporters/junit.js';
import { renderHtml } from '../reporters/html.js';
import { reportValidator, validateJunit } from './support/validators.js';
import type { RunReport } from '../harness/model/types.js';

const catalogue = loadCatalogue();

describe.concurrent('selection', () => {
  it('selects by id, id prefix, area and level', () => {
    expect([...selectRequirements(catalogue, ['GET-OK'], [])]).toEqual(['GET-OK']);
    expect([...selectRequirements(catalogue, ['list'], ['LIST-PAGE-FULL'])].every((id) => id.startsWith('LIST-') && id !== 'LIST-PAGE-FULL')).toBe(true);
    const should = [...selectRequirements(catalogue, ['SHOULD'], [])];
    expect(should.length).toBeGreaterThan(0);
    expect(should.every((id) => catalogue.find((r) => r.id === id)!.level === 'SHOULD')).toBe(true);
    expect(selectRequirements(catalogue, [], ['QS-']).size).toBe(catalogue.filter((r) => !r.id.startsWith('QS-')).length);
  });

  it('rejects a selector that matches nothing', () => {
    expect(() => selectRequirements(catalogue, ['LIST-NOPE'], [])).toThrow(ConfigError);
  });

  it('runs only what is selected and reports the rest as skipped', async () => {
    const report = await certifyReference({}, { selected: selectRequirements(catalogue, ['auth'], []) });
    const ran = report.requirements.filter((r) => r.outcome !== 'skipped').map((r) => r.area);
    expect(new Set(ran)).toEqual(new Set(['auth']));
    expect(report.requirements.find((r) => r.id === 'LIST-OK')?.message).toMatch(/not selected/);
  });
});

/** The embedded reference server certified without a quickstart address. */
async function certifyWithoutQuickstart(selected?: Set<string>): Promise<RunReport> {
  const ref = await startReferenceServer({ apiKey: API_KEY });
  try {
    return await runConformance(referenceRun(ref, { target: storeOnly(ref), selected }));
  } finally {
    await ref.close();
  }
}

describe.concurrent('coverage: how much of the catalogue the verdict rests on', () => {
  it('--skip list,MUST: every output says how few were judged, and warns that the verdict covers those only', async () => {
    const selected = selectRequirements(catalogue, [], ['list', 'MUST']);
    const [judged, total] = [selected.size, catalogue.length]; // the SHOULDs outside list (none inconclusive)
    const report = await certifyReference({}, { selected });
    expect(report).toMatchObject({ verdict: 'compliant', exitCode: 0, coverage: { judged, total, error: 0, skipped: total - judged, inconclusive: 0 } });
    const line = `${judged} of ${total} requirements judged; ${total - judged} skipped`;
    const summary = formatSummary(report, []);
    expect(summary).toContain(`Verdict: COMPLIANT (${line}; exit code 0)`);
    expect(summary).toContain(`Warning: only ${judged} of ${total} requirements were judged: this verdict covers those only`);
    const json = JSON.parse(renderComplianceJson(report));
    expect(json.coverage).toEqual({ judged, total, error: 0, skipped: total - judged, inconclusive: 0 });
    const validate = reportValidator();
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    const junit = renderJunit(report);
    expect(junit).toContain(`<property name="run.coverage" value="${line}"/>`);
    expect(junit).toContain(`<property name="run.judged" value="${judged}"/>`);
    const html = renderHtml(report);
    expect(html).toContain(`<p id="coverage" class="reason">${line}.</p>`);
    expect(html).toContain(`Warning: only ${judged} of ${total} requirements were judged`);
    const github = githubSummary(report);
    expect(github).toContain(`## ✅ Animal Store conformance: compliant (${line})`);
    expect(github).toContain(`> **Warning:** only ${judged} of ${total} requirements were judged`);
  });

  it('without a quickstart address, the quickstart area reads "not tested" in every output, not compliant', async () => {
    const report = await certifyWithoutQuickstart();
    expect(report.verdict).toBe('compliant');
    const quickstart = catalogue.filter((r) => r.area === 'quickstart').length;
    expect(report.areas.find((a) => a.area === 'quickstart')).toMatchObject({ verdict: 'not-tested', counts: { skipped: quickstart } });
    expect(report.areas.find((a) => a.area === 'auth')?.verdict).toBe('compliant');
    expect(formatSummary(report, [])).toMatch(/Areas: .*quickstart not tested/);
    expect(formatSummary(report, [])).toMatch(new RegExp(`Verdict: COMPLIANT \\(\\d+ of ${catalogue.length} requirements judged; \\d+ skipped`));
    // most of the catalogue was judged: no warning
    expect(report.coverage.judged * 2).toBeGreaterThan(report.coverage.total);
    expect(formatSummary(report, [])).not.toContain('Warning:');
    expect(renderJunit(report)).toMatch(/<testsuite name="quickstart"[\s\S]*?<property name="area.verdict" value="not-tested"\/>/);
    expect(renderHtml(report)).toContain('<section class="area" id="area-quickstart" data-area="quickstart" data-verdict="not-tested">');
    const validate = reportValidator();
    expect(validate(JSON.parse(renderComplianceJson(report))), JSON.stringify(validate.errors)).toBe(true);
  });

  it('a run that judged nothing is "not tested" with exit code 2, never compliant; JUnit shows it as an error', async () => {
    const report = await certifyWithoutQuickstart(selectRequirements(catalogue, ['quickstart'], []));
    const total = catalogue.length;
    expect(report).toMatchObject({ verdict: 'not-tested', exitCode: 2, coverage: { judged: 0, total, skipped: total } });
    expect(report.abortReason).toBeUndefined();
    expect(formatSummary(report, [])).toContain(`Verdict: NOT TESTED (0 of ${total} requirements judged; ${total} skipped; exit code 2)`);
    expect(formatSummary(report, [])).toContain('Warning: no requirement was judged');
    expect(githubSummary(report)).toContain(`## ⚠️ Animal Store conformance: not tested (0 of ${total} requirements judged; ${total} skipped)`);
    const junit = renderJunit(report);
    expect((await validateJunit(junit)).errors).toEqual([]);
    expect(junit).toContain(`name="${NOT_TESTED_TESTCASE}"`);
    expect(junit).toMatch(/<error message="no requirement was judged [^"]*" type="not-tested">/);
    expect(junit).toMatch(/<testsuites [^>]* errors="1"/);
    const validate = reportValidator();
    expect(validate(JSON.parse(renderComplianceJson(report))), JSON.stringify(validate.errors)).toBe(true);
  });
});

describe.concurrent('strict mode and known deviations', () => {
  it('a failed SHOULD leaves the verdict compliant, unless strict', async () => {
    const lenient = await certifyReference({ faults: ['orders-missing'] });
    expect(lenient).toMatchObject({ verdict: 'compliant', exitCode: 0, counts: { shouldViolations: 1 } });
    const strict = await certifyReference({ faults: ['orders-missing'] }, { strict: true });
    expect(strict).toMatchObject({ verdict: 'non-compliant', exitCode: 1, strict: true });
  });

  it('listed failures do not count; a listed requirement that passes is reported', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'expected-'));
    const file = join(dir, 'expected.txt');
    await writeFile(file, '# known deviations\nAUTH-MISSING-HEADER list is public until ticket 42 lands\nGET-OK fixed already?\n');
    const expectedFailures = readExpectedFailures(file, catalogue);
    const report = await certifyReference({ faults: ['no-auth-on-list'] }, { expectedFailures });
    expect(report).toMatchObject({ verdict: 'compliant', exitCode: 0 });
    const auth = report.requirements.find((r) => r.id === 'AUTH-MISSING-HEADER')!;
    expect(auth).toMatchObject({ outcome: 'failed', expectedFailure: 'list is public until ticket 42 lands' });
    const passedAnyway = report.requirements.find((r) => r.id === 'GET-OK')!;
    expect(passedAnyway).toMatchObject({ outcome: 'passed', expectedFailure: 'fixed already?' });
    expect(formatSummary(report, [])).toMatch(/GET-OK \(now passed: remove it from the list\) — fixed already\?/);
  });

  it('rejects an unknown id in the known-deviations file', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'expected-')), 'x.txt');
    await writeFile(file, 'NOT-A-REQ because\n');
    expect(() => readExpectedFailures(file, catalogue)).toThrow(/x.txt:1: NOT-A-REQ is not a requirement id/);
  });
});

describe('latency budget', () => {
  it('PERF-LATENCY-P95 is skipped without a budget', async () => {
    const none = await certifyReference({}, { selected: new Set(['PERF-LATENCY-P95', 'LIST-OK']) });
    expect(none.requirements.find((r) => r.id === 'PERF-LATENCY-P95')?.outcome).toBe('skipped');
    expect(none.latency.listPets.count).toBeGreaterThan(0);
    expect(none.latencyQuiet).toBeUndefined();
  });

  // a single worker taking 15 ms a request: the run's 32 requests in flight queue for
  // hundreds of ms, one client alone waits 15 ms
  it('judges what one client sees: a server that queues requests passes a budget above its own time at the default concurrency, and fails one below it', async () => {
    const server = { oneAtATimeMs: 15, prefill: 10 };
    const run = { profile: 'health' as const, concurrency: 32 };
    const fits = await certifyReference(server, { ...run, maxLatencyMs: 150 });
    const perf = fits.requirements.find((r) => r.id === 'PERF-LATENCY-P95')!;
    expect(perf.outcome, perf.message).toBe('passed');
    expect(fits.latency.listPets.p95).toBeGreaterThan(150); // under the run's own load
    expect(fits.latencyQuiet!.listPets).toMatchObject({ count: 20 });
    expect(fits.latencyQuiet!.listPets.p95).toBeLessThan(150);
    expect(Object.keys(fits.latencyQuiet!).sort()).toEqual(['getPet', 'listOrders', 'listPets']); // health: reads only
    expect(perf.notes.join(' ')).toMatch(/^p95 one request at a time: .*listPets \d+(\.\d)? ms \(n=20\).*; under the run's own load \(--concurrency\): /);
    const tight = await certifyReference(server, { ...run, maxLatencyMs: 10, selected: new Set(['PERF-LATENCY-P95', 'LIST-OK']) });
    const failed = tight.requirements.find((r) => r.id === 'PERF-LATENCY-P95')!;
    expect(failed.outcome).toBe('failed');
    expect(failed.message).toMatch(/^p95 one request at a time over the budget of 10 ms: listPets \d+/);
  });

  it('with a budget, a server that answers nothing 2xx leaves nothing to time: inconclusive, never a pass', async () => {
    const server = createServer((_, res) => void res.writeHead(503, { 'content-type': 'application/json' }).end('{}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    try {
      const report = await runConformance(
        referenceRun({ baseUrl } as ReferenceServer, {
          target: { environment: 'staging', baseUrl, apiKey: API_KEY },
          maxLatencyMs: 60_000,
          selected: new Set(['PERF-LATENCY-P95']),
        }),
      );
      expect(report.requirements.find((r) => r.id === 'PERF-LATENCY-P95')).toMatchObject({
        outcome: 'inconclusive',
        message: expect.stringMatching(/nothing to time/),
      });
    } finally {
      server.close();
    }
  });
});

describe('docs/requirements.md', () => {
  it('is generated from the catalogue and up to date (npm run docs)', async () => {
    expect(await readFile(join(PACKAGE_ROOT, 'docs/requirements.md'), 'utf8')).toBe(renderRequirementsDoc(catalogue));
  });
});

describe('GitHub Actions output', () => {
  it('summarises a failing run in Markdown and annotates MUST as error, SHOULD as warning', async () => {
    const report = await certifyReference({ faults: ['no-auth-on-list', 'orders-missing'] });
    const summary = githubSummary(report, { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/suite', GITHUB_SHA: 'abc123' });
    expect(summary).toContain('Animal Store conformance: non-compliant');
    expect(summary).toContain('[AUTH-MISSING-HEADER](https://github.com/acme/suite/blob/abc123/docs/requirements.md#auth-missing-header)');
    expect(githubSummary(report)).toContain('[AUTH-MISSING-HEADER](docs/requirements.md#auth-missing-header)');
    const annotations = githubAnnotations(report);
    expect(annotations.find((a) => a.includes('AUTH-MISSING-HEADER'))).toMatch(/^::error title=AUTH-MISSING-HEADER \(MUST\)::/);
    expect(annotations.find((a) => a.includes('ORDERS-EXISTS'))).toMatch(/^::warning /);
    expect(annotations.every((a) => !a.slice(2).includes('\n'))).toBe(true);
  });
});
