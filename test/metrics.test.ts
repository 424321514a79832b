// metrics.prom: read back with a real parser of the Prometheus text format, never a
// regular expression, and compared with the report it was made from.
import { describe, it, expect, vi, afterEach } from 'vitest';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderMetrics } from '../reporters/metrics.js';
import { writeAtomically } from '../harness/model/files.js';

const writeMetrics = (report: RunReport, dir: string) => writeAtomically(dir, 'metrics.prom', renderMetrics(report));
import ComplianceReporter from '../reporters/vitest-compliance.js';
import { main } from '../cli/cli.js';
import { buildReport, countedViolations } from '../harness/verdict/report.js';
import { loadCatalogue } from '../harness/api/catalogue.js';
import type { RunReport } from '../harness/model/types.js';
import { buildReportFixture } from './report-fixture.js';
import { parsePrometheusText, type MetricFamily } from './support/prometheus.js';

const P = 'animal_store_conformance_';
const FAMILIES = [
  'verdict',
  'exit_code',
  'run_duration_seconds',
  'run_requests',
  'run_writes_accepted',
  'last_run_timestamp_seconds',
  'requirement_violated',
  'latency_seconds',
].map((n) => P + n);

/** Parses the text and checks what holds for every file: HELP and TYPE per family, run labels on every series. */
function parsed(text: string, report: RunReport): Map<string, MetricFamily> {
  const families = parsePrometheusText(text);
  const names = families.map((f) => f.name);
  expect(names).toEqual(FAMILIES); // each family once, in one block
  for (const f of families) {
    expect(f.name).toMatch(/^[a-zA-Z_:][a-zA-Z0-9_:]*$/);
    expect(f.help, `HELP of ${f.name}`).not.toBe('');
    expect(f.type, `TYPE of ${f.name}`).toBe('GAUGE');
    for (const m of f.metrics) {
      expect(Number.isFinite(Number(m.value)), `${f.name} ${m.value}`).toBe(true);
      expect(m.labels).toMatchObject({ target: report.target.baseUrl, profile: report.profile });
    }
  }
  return new Map(families.map((f) => [f.name, f]));
}

const valueOf = (f: MetricFamily | undefined) => {
  expect(f?.metrics).toHaveLength(1);
  return Number(f!.metrics[0].value);
};

/** Every figure in the metrics is the report's. */
function expectMatchesReport(metrics: Map<string, MetricFamily>, report: RunReport) {
  expect(Object.fromEntries(metrics.get(`${P}verdict`)!.metrics.map((m) => [m.labels!.verdict, Number(m.value)]))).toEqual({
    compliant: report.verdict === 'compliant' ? 1 : 0,
    'non-compliant': report.verdict === 'non-compliant' ? 1 : 0,
    incomplete: report.verdict === 'incomplete' ? 1 : 0,
    aborted: report.verdict === 'aborted' ? 1 : 0,
    'not-tested': report.verdict === 'not-tested' ? 1 : 0,
  });
  expect(valueOf(metrics.get(`${P}exit_code`))).toBe(report.exitCode);
  expect(valueOf(metrics.get(`${P}run_duration_seconds`))).toBeCloseTo(report.durationMs / 1000, 6);
  expect(valueOf(metrics.get(`${P}run_requests`))).toBe(report.requestCount);
  expect(valueOf(metrics.get(`${P}last_run_timestamp_seconds`))).toBe(Date.parse(report.finishedAt) / 1000);

  // exactly one outcome series per requirement, with its labels and whether it counts as violated
  const series = metrics.get(`${P}requirement_violated`)!.metrics;
  expect(series.map((m) => m.labels!.id).sort()).toEqual(report.requirements.map((r) => r.id).sort());
  expect(new Set(series.map((m) => m.labels!.id)).size).toBe(series.length);
  const violated = new Set(countedViolations(report));
  for (const r of report.requirements) {
    const m = series.find((s) => s.labels!.id === r.id)!;
    expect(m.labels, r.id).toEqual({ id: r.id, level: r.level, area: r.area, outcome: r.outcome, target: report.target.baseUrl, profile: report.profile });
    expect(Number(m.value), r.id).toBe(violated.has(r) ? 1 : 0);
  }
  const sum = (level: string) => series.filter((m) => m.labels!.level === level).reduce((t, m) => t + Number(m.value), 0);
  expect([sum('MUST'), sum('SHOULD')]).toEqual([report.counts.mustViolations, report.counts.shouldViolations]);

  const latency = metrics.get(`${P}latency_seconds`)!.metrics;
  expect(latency).toHaveLength(2 * Object.keys(report.latency).length);
  for (const [operation, stats] of Object.entries(report.latency)) {
    const at = (quantile: string) => Number(latency.find((m) => m.labels!.operation === operation && m.labels!.quantile === quantile)?.value);
    expect(at('0.5'), operation).toBeCloseTo(stats.p50 / 1000, 6);
    expect(at('0.95'), operation).toBeCloseTo(stats.p95 / 1000, 6);
  }
}

describe('renderMetrics', () => {
  it('parses, with HELP and TYPE per family, and holds the verdict, exit code, duration, requests, time, requirements and latency of the report', () => {
    const report = buildReportFixture();
    const text = renderMetrics(report);
    expect(text.endsWith('\n')).toBe(true);
    expectMatchesReport(parsed(text, report), report);
  });

  it('a listed known deviation keeps its outcome and is not counted as violated; an aborted run says aborted, exit code 2', () => {
    const listed = buildReportFixture({ expectedFailures: { 'AUTH-INVALID-KEY': 'ticket 12' } });
    const metrics = parsed(renderMetrics(listed), listed);
    expectMatchesReport(metrics, listed);
    const m = metrics.get(`${P}requirement_violated`)!.metrics.find((s) => s.labels!.id === 'AUTH-INVALID-KEY')!;
    expect([m.labels!.outcome, m.value]).toEqual(['failed', '0']);

    // no response at all: the latency family has no series, and still parses
    const aborted = { ...buildReportFixture({ abortReason: 'target unreachable' }), latency: {} };
    expect([aborted.verdict, aborted.exitCode]).toEqual(['aborted', 2]);
    expectMatchesReport(parsed(renderMetrics(aborted), aborted), aborted);
  });

  it('an aborted run counts no requirement as violated, also what failed before the abort; an incomplete run says incomplete, exit code 2', () => {
    const fixture = buildReportFixture();
    const stopped = buildReport({ ...fixture, abortReason: 'the target stopped answering after 12 requests' }, fixture.requirements);
    expect(stopped.requirements.filter((r) => r.outcome === 'failed').length).toBeGreaterThan(0);
    const metrics = parsed(renderMetrics(stopped), stopped);
    expectMatchesReport(metrics, stopped);
    const series = metrics.get(`${P}requirement_violated`)!.metrics;
    expect(series.filter((m) => m.value !== '0')).toEqual([]);
    expect(series.find((m) => m.labels!.id === 'AUTH-INVALID-KEY')!.labels!.outcome).toBe('failed');
    expect([stopped.counts.mustViolations, stopped.counts.shouldViolations]).toEqual([0, 0]);

    const judged = fixture.requirements.map((r) => (r.outcome === 'failed' ? { ...r, outcome: 'passed' as const } : r));
    const incomplete = buildReport(fixture, judged);
    expect([incomplete.verdict, incomplete.exitCode]).toEqual(['incomplete', 2]);
    const verdicts = parsed(renderMetrics(incomplete), incomplete).get(`${P}verdict`)!.metrics;
    expect(verdicts.filter((m) => m.value === '1').map((m) => m.labels!.verdict)).toEqual(['incomplete']);
  });

  it('escapes label values: a hostile target URL and requirement id come back unchanged, on one line each', () => {
    const report = buildReportFixture();
    report.target.baseUrl = 'https://evil.example/v1?a="b"\\c\nanimal_store_conformance_exit_code 0\n# TYPE x counter';
    report.requirements[0].id = 'X"} 1\n\\"\\n';
    report.latency['op"\\\n'] = { count: 1, p50: 1, p95: 2, max: 2 };
    const text = renderMetrics(report);
    expect(text.split('\n').filter((l) => l.startsWith(`${P}exit_code`))).toHaveLength(1);
    const metrics = parsed(text, report); // every series carries the hostile target intact
    expectMatchesReport(metrics, report);
  });
});

describe('metrics.prom, written atomically as every report is', () => {
  it('writes metrics.prom into a new folder, replaces an older one, and leaves no temporary file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'metrics-'));
    try {
      const report = buildReportFixture();
      const target = join(dir, 'a', 'b');
      expect(await writeMetrics({ ...report, requestCount: 1 }, target)).toBe(join(target, 'metrics.prom'));
      const file = await writeMetrics(report, target);
      expect(await readFile(file, 'utf8')).toBe(renderMetrics(report));
      expect(await readdir(target)).toEqual(['metrics.prom']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a reader never sees a partial file while it is rewritten (what a textfile collector may do)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'metrics-'));
    try {
      // a big file, so that a write in place would be caught half done
      const report = buildReportFixture();
      report.requirements = Array.from({ length: 5_000 }, (_, i) => ({ ...report.requirements[i % 9], id: `R-${i}` }));
      const texts = [renderMetrics(report), renderMetrics({ ...report, requestCount: 7 })];
      await writeMetrics(report, dir);
      let writing = true;
      const seen: string[] = [];
      const reader = (async () => {
        while (writing) seen.push(await readFile(join(dir, 'metrics.prom'), 'utf8'));
      })();
      for (let i = 1; i <= 6; i++) await writeMetrics(i % 2 ? { ...report, requestCount: 7 } : report, dir);
      writing = false;
      await reader;
      expect(seen.length).toBeGreaterThan(0);
      for (const text of seen) expect(texts.includes(text), `a read of ${text.length} characters`).toBe(true);
      expect(await readdir(dir)).toEqual(['metrics.prom']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('metrics.prom beside the other reports', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Runs the CLI in-process (quietly) and returns its exit code and the parsed reports. */
  async function cli(env: Record<string, string>) {
    const dir = await mkdtemp(join(tmpdir(), 'metrics-cli-'));
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const code = await main(['--report-dir', dir, '--dotenv', '/dev/null'], env);
    vi.restoreAllMocks();
    const report = JSON.parse(await readFile(join(dir, 'compliance.json'), 'utf8')) as RunReport;
    const text = await readFile(join(dir, 'metrics.prom'), 'utf8');
    await rm(dir, { recursive: true, force: true });
    return { code, report, text };
  }

  it('the CLI writes it on every run: a full certify run of the embedded server', async () => {
    const { code, report, text } = await cli({});
    expect(code).toBe(0);
    expect(report.requirements.map((r) => r.id).sort()).toEqual(
      loadCatalogue()
        .map((r) => r.id)
        .sort(),
    );
    expectMatchesReport(parsed(text, report), report);
  });

  it('the CLI writes it for an aborted run too, without the key', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    await new Promise((r) => server.close(r));
    const key = 'metrics-secret-key-4b7e1f';
    const { code, report, text } = await cli({ BASE_URL: `http://127.0.0.1:${port}/v1`, API_KEY: key });
    expect(code).toBe(2);
    expect(report.verdict).toBe('aborted');
    expectMatchesReport(parsed(text, report), report);
    expect(text).not.toContain(key);
  });

  it('the Vitest reporter writes it with the other reports (a judged run: the badge and the certificate too)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'metrics-vitest-'));
    try {
      const { verdict, exitCode, counts, areas, requirements, ...run } = buildReportFixture();
      // what the conformance suites leave in each test's meta, and the context the project provides
      const tests = requirements.map((requirement) => ({ meta: () => ({ requirement, run }) }));
      const module = {
        children: { allTests: () => tests },
        project: { getProvidedContext: () => ({ conformance: { reportDir: dir, session: { target: { apiKey: 'k' } } } }) },
      };
      vi.spyOn(console, 'log').mockImplementation(() => {});
      await new ComplianceReporter().onTestRunEnd([module] as any);
      // exchanges.har is the worker's to write (it holds the exchanges): none was handed over here
      expect((await readdir(dir)).sort()).toEqual(['badge.svg', 'certificate.json', 'compliance.json', 'junit.xml', 'metrics.prom', 'report.html']);
      const report = JSON.parse(await readFile(join(dir, 'compliance.json'), 'utf8')) as RunReport;
      expect([report.verdict, report.exitCode, report.counts]).toEqual([verdict, exitCode, counts]);
      expect(report.areas).toEqual(areas);
      expectMatchesReport(parsed(await readFile(join(dir, 'metrics.prom'), 'utf8'), report), report);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
