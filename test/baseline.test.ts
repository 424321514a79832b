// --baseline: three consecutive runs against the reference server, which breaks
// for the second: the second names the requirement that newly fails, the third
// names it as recovered; every output renders the same comparison; a chain of
// baselines carries how long a requirement has been failing; a bad baseline is
// bad input (exit 2).
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareWithBaseline, readBaseline } from '../harness/verdict/baseline.js';
import { loadCatalogue } from '../harness/api/catalogue.js';
import { ConfigError } from '../harness/config/values.js';
import { selectRequirements } from '../harness/config/selection.js';
import type { RunReport } from '../harness/model/types.js';
import { githubSummary } from '../reporters/github.js';
import { formatSummary } from '../reporters/console.js';
import { renderComplianceJson } from '../reporters/compliance-json.js';
import { renderHtml } from '../reporters/html.js';
import { buildReportFixture } from './report-fixture.js';
import { certifyReference } from './support/run.js';
import { reportValidator } from './support/validators.js';
import { runBin } from './support/cli.js';
import { API_KEY } from './support/run.js';
import { closedPort } from './support/hostile-servers.js';
import { startReferenceServer } from '../reference/server.js';
import type { FaultName } from '../reference/faults.js';

const dir = await mkdtemp(join(tmpdir(), 'baseline-'));
let n = 0;

/** The report as the CLI would have written it, read back as a baseline. */
async function asBaseline(report: RunReport) {
  const file = join(dir, `compliance-${++n}.json`);
  await writeFile(file, renderComplianceJson(report));
  return readBaseline(file);
}

/** A lean run (three areas) against the reference server, compared with the previous report when given. */
async function run(faults: Array<'no-auth-on-list'>, previous?: RunReport): Promise<RunReport> {
  const report = await certifyReference({ faults }, { selected: selectRequirements(loadCatalogue(), ['auth', 'errors', 'media'], []) });
  if (previous) report.sinceBaseline = compareWithBaseline(report, await asBaseline(previous));
  return report;
}

const ids = (changes: Array<{ id: string }>) => changes.map((c) => c.id);

describe('--baseline', () => {
  it('names what newly fails after the server breaks, and what recovered after the fix, in every output', async () => {
    const first = await run([]);
    const second = await run(['no-auth-on-list'], first);
    const third = await run([], second);
    const validate = reportValidator();

    const broke = second.sinceBaseline!;
    expect(second.exitCode).toBe(1); // the exit code is the run's, whatever the baseline
    expect(ids(broke.newlyFailing)).toEqual(['AUTH-MISSING-HEADER']);
    expect(broke).toMatchObject({ recovered: [], stillFailing: [], compared: loadCatalogue().length });
    // each reference server listens on its own port
    expect(broke.notes).toEqual([`the baseline certified another address: ${first.target.baseUrl}`]);
    expect(broke.newlyFailing[0]).toMatchObject({ outcome: 'failed', baselineOutcome: 'passed', failingSince: second.startedAt });
    expect(broke.baseline).toMatchObject({ finishedAt: first.finishedAt, verdict: 'compliant' });
    const when = new Date(first.finishedAt)
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, ' UTC');
    expect(formatSummary(second, [])).toMatch(
      new RegExp(
        `Since the baseline \\(run finished ${when}, compliant; ${loadCatalogue().length} requirements compared\\):\\n  Newly failing:\\n    AUTH-MISSING-HEADER \\(MUST\\) .* — failed; was passed`,
      ),
    );
    expect(githubSummary(second)).toMatch(
      /### Since the baseline[^\n]*\n\n\*\*Newly failing:\*\*\n- \[AUTH-MISSING-HEADER\]\(docs\/requirements.md#auth-missing-header\) \(MUST\)/,
    );
    const html = renderHtml(second);
    expect(html).toMatch(
      /<div class="changes changes-newly-failing"><b>Newly failing<\/b><ul><li data-requirement="AUTH-MISSING-HEADER"><a href="#req-auth-missing-header">/,
    );
    expect(html).toContain('<div class="changes changes-recovered"><b>Recovered</b> <span class="none">none</span></div>');
    const json = JSON.parse(renderComplianceJson(second));
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json.sinceBaseline.newlyFailing[0]).toMatchObject({ id: 'AUTH-MISSING-HEADER', failingSince: second.startedAt });

    const fixed = third.sinceBaseline!;
    expect(third.exitCode).toBe(0);
    expect(fixed).toMatchObject({ newlyFailing: [], stillFailing: [] });
    expect(ids(fixed.recovered)).toEqual(['AUTH-MISSING-HEADER']);
    expect(fixed.recovered[0]).toMatchObject({ outcome: 'passed', baselineOutcome: 'failed', failingSince: second.startedAt });
    expect(formatSummary(third, [])).toMatch(/ {2}Recovered:\n {4}AUTH-MISSING-HEADER \(MUST\) .* — had failed since /);
    expect(githubSummary(third)).toMatch(/\*\*Recovered:\*\*\n- \[AUTH-MISSING-HEADER\]/);
    expect(renderHtml(third)).toMatch(/<div class="changes changes-recovered"><b>Recovered<\/b><ul><li data-requirement="AUTH-MISSING-HEADER">/);
    expect(validate(JSON.parse(renderComplianceJson(third))), JSON.stringify(validate.errors)).toBe(true);
    // with no change at all, the section says so
    expect(formatSummary({ ...first, sinceBaseline: compareWithBaseline(first, await asBaseline(first)) }, [])).toContain(
      'Nothing newly fails, recovered or still fails.',
    );
  });

  it('a chain of baselines keeps when a requirement started failing; another version is compared where ids match, and says so', async () => {
    const at = (startedAt: string, over: Partial<RunReport> = {}): RunReport => ({ ...buildReportFixture(), startedAt, finishedAt: startedAt, ...over });
    const monday = at('2025-01-06T10:00:00.000Z');
    const tuesday = at('2025-01-07T10:00:00.000Z');
    tuesday.sinceBaseline = compareWithBaseline(tuesday, await asBaseline(monday));
    const wednesday = at('2025-01-08T10:00:00.000Z');
    wednesday.sinceBaseline = compareWithBaseline(wednesday, await asBaseline(tuesday));
    // the fixture's violations: failing since Monday, the first run known to fail them; one
    // that could not be judged (ERR-BODY-SHAPE) is neither failing nor recovered
    expect(ids(wednesday.sinceBaseline.stillFailing)).toEqual(['AUTH-INVALID-KEY', 'LIST-PAGE-FULL']);
    for (const c of wednesday.sinceBaseline.stillFailing) expect(c.failingSince).toBe(monday.startedAt);
    expect(formatSummary(wednesday, [])).toContain(
      'AUTH-INVALID-KEY (MUST) A bearer token that is not a valid key gets 401 <&> — failed, failing since 2025-01-06 10:00:00 UTC',
    );
    expect(ids(wednesday.sinceBaseline.recovered)).toEqual([]);

    // a baseline from another tool and spec version, holding one id this run lacks and lacking one it has
    const older = at('2025-01-05T10:00:00.000Z', {
      tool: { name: 'animal-store-conformance', version: '0.0.9' },
      spec: { title: 'Animal Store', version: '0.9.0' },
    });
    older.requirements = [...older.requirements.filter((r) => r.id !== 'ORDERS-EXISTS'), { ...older.requirements[0], id: 'AUTH-RETIRED' }];
    const since = compareWithBaseline(wednesday, await asBaseline(older));
    expect(since.compared).toBe(8);
    expect(since.notes).toEqual([
      'the baseline was written by animal-store-conformance 0.0.9 for spec 0.9.0 (this run: 0.1.0, spec 1.0.0): compared where requirement ids match',
      '8 requirements compared: 1 only in this run, 1 only in the baseline',
    ]);
    expect(formatSummary({ ...wednesday, sinceBaseline: since }, [])).toContain('  Note: the baseline was written by animal-store-conformance 0.0.9');
    expect(renderHtml({ ...wednesday, sinceBaseline: since })).toContain(
      '<p class="note">Note: 8 requirements compared: 1 only in this run, 1 only in the baseline</p>',
    );
    // an expected failure is not failing
    const listed = buildReportFixture({ expectedFailures: { 'LIST-PAGE-FULL': 'ticket 9' } });
    expect(ids(compareWithBaseline(listed, await asBaseline(wednesday)).stillFailing)).toEqual(['AUTH-INVALID-KEY']);
    // nor is what failed before an abort: the aborted run counts no violation
    const aborted = { ...buildReportFixture(), abortReason: 'the target stopped answering', verdict: 'aborted' as const };
    const outage = compareWithBaseline(aborted, await asBaseline(wednesday));
    expect(ids(outage.stillFailing)).toEqual([]);
    // but it keeps what was failing, and since when, for the run after it
    expect(ids(outage.unjudged)).toEqual(['AUTH-INVALID-KEY', 'LIST-PAGE-FULL']);
    expect(outage.unjudged[0]).toMatchObject({ baselineOutcome: 'failed', failingSince: monday.startedAt });
    const thursday = at('2025-01-10T10:00:00.000Z');
    const after = compareWithBaseline(thursday, await asBaseline({ ...aborted, sinceBaseline: outage }));
    expect(after).toMatchObject({ newlyFailing: [], recovered: [] });
    expect(after.stillFailing.map((c) => [c.id, c.baselineOutcome, c.failingSince])).toEqual([
      ['AUTH-INVALID-KEY', 'failed', monday.startedAt],
      ['LIST-PAGE-FULL', 'failed', monday.startedAt],
    ]);
    expect(after.notes).toContain('the baseline run judged nothing (aborted): compared with the failing state it carried from the runs before it (2 failing)');
  });

  it('a scheduled chain from the CLI, each run given the last report whatever it was: fail, target down, fail, pass', async () => {
    const reportDir = await mkdtemp(join(tmpdir(), 'chain-'));
    const last = join(reportDir, 'compliance.json');
    const health = async (baseUrl: string) => {
      const args = ['--profile', 'health', '--report-dir', reportDir, '--base-url', baseUrl, '--timeout', '2s'];
      const { code, stdout } = await runBin([...args, ...(runs++ ? ['--baseline', last] : [])], { API_KEY });
      return { code, stdout, report: JSON.parse(await readFile(last, 'utf8')) as RunReport };
    };
    let runs = 0;
    const serve = async (faults: FaultName[], send: (url: string) => ReturnType<typeof health>) => {
      const ref = await startReferenceServer({ apiKey: API_KEY, faults });
      try {
        return await send(ref.baseUrl);
      } finally {
        await ref.close();
      }
    };
    const first = await serve(['no-auth-on-list'], health);
    expect(first.code).toBe(1);
    const down = await closedPort();
    const outage = await health(down.baseUrl);
    expect(outage.code).toBe(2);
    expect(outage.report.verdict).toBe('aborted');
    const third = await serve(['no-auth-on-list'], health);
    expect(third.code).toBe(1);
    expect(ids(third.report.sinceBaseline!.newlyFailing)).toEqual([]);
    expect(third.report.sinceBaseline!.stillFailing.map((c) => [c.id, c.failingSince])).toEqual([['AUTH-MISSING-HEADER', first.report.startedAt]]);
    expect(third.stdout).not.toContain('Newly failing');
    const fourth = await serve([], health);
    expect(fourth.code).toBe(0);
    expect(fourth.report.sinceBaseline!.recovered.map((c) => [c.id, c.failingSince])).toEqual([['AUTH-MISSING-HEADER', first.report.startedAt]]);
    expect(fourth.stdout).toMatch(/Recovered:\n {4}AUTH-MISSING-HEADER \(MUST\) .* — had failed since /);
  });

  it('a baseline that cannot be read, is not JSON, or is not a compliance report is a configuration error', async () => {
    const write = async (name: string, text: string) => {
      const f = join(dir, name);
      await writeFile(f, text);
      return f;
    };
    await expect(readBaseline(join(dir, 'missing.json'))).rejects.toThrow(/cannot read the baseline .*missing.json: ENOENT/);
    await expect(readBaseline(await write('bad.json', '{"verdict":'))).rejects.toThrow(/the baseline .*bad.json is not valid JSON/);
    await expect(readBaseline(await write('junit.json', '[1]'))).rejects.toThrow(/is not a compliance report .*: not a JSON object/);
    const noOutcome = JSON.parse(renderComplianceJson(buildReportFixture()));
    noOutcome.requirements[2].outcome = 'flaky';
    await expect(readBaseline(await write('flaky.json', JSON.stringify(noOutcome)))).rejects.toThrow(/requirements\[2\] has no id, level or known outcome/);
    await expect(readBaseline(join(dir, 'missing.json'))).rejects.toBeInstanceOf(ConfigError);
  });

  it('from the CLI: a bad baseline exits 2 before the run; REPORT_DIR/compliance.json can be its own baseline', async () => {
    const cli = (args: string[]) => runBin(args);
    const bad = await cli(['--baseline', join(dir, 'missing.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toEqual([expect.stringMatching(/cannot read the baseline .*missing.json: ENOENT/)]);

    // the fixture fails AUTH-INVALID-KEY; the embedded server passes it
    const reportDir = await mkdtemp(join(tmpdir(), 'reports-'));
    await writeFile(join(reportDir, 'compliance.json'), renderComplianceJson(buildReportFixture()));
    const good = await cli(['--only', 'auth', '--report-dir', reportDir, '--baseline', join(reportDir, 'compliance.json')]);
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(
      /Since the baseline \(run finished 2025-01-02 03:04:17 UTC, non-compliant; 9 requirements compared\):\n {2}Recovered:\n {4}AUTH-INVALID-KEY \(MUST\)/,
    );
    const written = JSON.parse(await readFile(join(reportDir, 'compliance.json'), 'utf8'));
    expect(written.sinceBaseline.recovered.map((c: { id: string }) => c.id)).toEqual(['AUTH-INVALID-KEY']);
  });
});
