// `animal-store-conformance serve` as a client team runs it (the built bin, spawned):
// the suite certifies what it serves compliant with allowed variants and non-compliant
// with faults, from the addresses and key it prints; it logs one line per request, never
// the key. `npm test` runs a representative set: every kind of variant and fault serve
// treats apart (a key of the variant's format, a date to certify on, the quickstart
// service on the store's port; a fault that breaks a SHOULD only, needs animals in the
// store, builds on a variant, shows with one seed, needs a latency budget), and all the
// variants of today's date but long-names at once. SERVE_MATRIX=all runs every variant and every fault.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conformanceSuite } from '../checks/index.js';
import { loadCatalogue } from '../harness/api/catalogue.js';
import { parseCommandLine, resolveConfig } from '../harness/config/resolve.js';
import type { RunReport } from '../harness/model/types.js';
import { runConformance } from '../harness/run/runner.js';
import { sessionOptionsFor } from '../harness/run/session.js';
import { FAULT_NAMES, faultSpec, type FaultName } from '../reference/faults.js';
import { VARIANT_NAMES, VARIANT_SPECS, type VariantName } from '../reference/variants.js';
import { BIN, runBin } from './support/cli.js';

const ALL = process.env.SERVE_MATRIX === 'all';
const LEVEL = new Map(loadCatalogue().map((r) => [r.id, r.level]));

interface Served {
  child: ChildProcess;
  baseUrl: string;
  quickstartBaseUrl: string;
  /** As printed (a key serve made up, or its variant's); undefined when one was given. */
  apiKey?: string;
  /** Everything it printed so far. */
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts `serve` on free ports; resolves once it has printed where it listens. */
function serve(args: string[], env: Record<string, string> = {}): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quickstart-port', '0', ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
  let output = '';
  const closed = new Promise<void>((r) => child.on('close', () => r()));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => (output += d));
    child.stdout.on('data', (d) => {
      output += d;
      if (!output.includes('Ctrl-C stops it')) return;
      const line = (label: string) => new RegExp(`^  ${label} +(\\S+)`, 'm').exec(output)?.[1];
      const key = line('API key');
      resolve({
        child,
        baseUrl: line('store')!,
        quickstartBaseUrl: line('quickstart')!,
        apiKey: key === 'the' ? undefined : key,
        output: () => output,
        stop: async () => {
          child.kill('SIGTERM');
          await closed;
        },
      });
    });
    child.on('close', (code) => reject(new Error(`serve exited with ${code} before it listened:\n${output}`)));
  });
}

/** The suite's run of a served store, configured by flags as a user configures it; short timeouts as every self-test's. */
async function certify(served: Served, flags: string[] = [], apiKey = served.apiKey!): Promise<RunReport> {
  const args = ['--base-url', served.baseUrl, '--quickstart-base-url', served.quickstartBaseUrl, '--timeout', '5s', '--deadline', '60s', '--concurrency', '8'];
  const config = resolveConfig(parseCommandLine([...args, ...flags]), { API_KEY: apiKey }, tmpdir());
  const target = { environment: config.environment, baseUrl: config.baseUrl!, apiKey, quickstartBaseUrl: config.quickstartBaseUrl, quickstartApiKey: apiKey };
  return runConformance({ ...conformanceSuite(), ...sessionOptionsFor(config, target) });
}

const failedIds = (report: RunReport) =>
  report.requirements
    .filter((r) => r.outcome === 'failed')
    .map((r) => r.id)
    .sort();
const messages = (report: RunReport) => report.requirements.filter((r) => r.outcome === 'failed' || r.outcome === 'error').map((r) => `${r.id}: ${r.message}`);

/** A variant served alone is certified compliant, failing no more than the SHOULDs its entry names. */
async function expectCompliant(variants: VariantName[]): Promise<void> {
  const served = await serve(variants.flatMap((v) => ['--variant', v]));
  try {
    const now = variants.map((v) => VARIANT_SPECS[v]?.now).find(Boolean) ?? '2026-11-22T00:00:00Z';
    const report = await certify(served, ['--now', now]);
    const allowed = new Set(variants.flatMap((v) => VARIANT_SPECS[v]?.shouldFail ?? []));
    expect(report.verdict, messages(report).join('\n')).toBe('compliant');
    expect(
      failedIds(report).filter((id) => !allowed.has(id)),
      messages(report).join('\n'),
    ).toEqual([]);
  } finally {
    await served.stop();
  }
}

/** Faults served together are certified non-compliant (--strict: also one that breaks a SHOULD only), failing every requirement each names. */
async function expectNonCompliant(faults: FaultName[]): Promise<void> {
  const specs = faults.map(faultSpec);
  const breaks = specs.flatMap((s) => s.expect);
  // served together, each must show on requirements of its own, with the one seed they share
  expect(new Set(breaks).size, 'faults served together break requirements of their own').toBe(breaks.length);
  const seeds = new Set(specs.flatMap((s) => (s.seed === undefined ? [] : [s.seed])));
  expect(seeds.size).toBeLessThanOrEqual(1);
  const [seed] = seeds;
  const maxLatencyMs = specs.find((s) => s.maxLatencyMs !== undefined)?.maxLatencyMs;
  const served = await serve(faults.flatMap((f) => ['--fault', f]));
  try {
    const flags = ['--strict', '--now', '2026-11-22T00:00:00Z', '--consistency-window', '500ms'];
    if (seed !== undefined) flags.push('--seed', String(seed));
    // a latency budget is judged on the quiet sample alone: the rest of a run against a slow server only takes time
    if (maxLatencyMs !== undefined) flags.push('--max-latency-ms', String(maxLatencyMs), ...(ALL ? [] : ['--only', 'PERF-LATENCY-P95']));
    const report = await certify(served, flags);
    expect(report.verdict, messages(report).join('\n')).toBe('non-compliant');
    expect(failedIds(report)).toEqual(expect.arrayContaining([...breaks]));
  } finally {
    await served.stop();
  }
}

// long-names stays out: its 1.2 MB pages, read again and again through the others' lag and
// rate limits, took three quarters of the run's CPU (the variant matrix serves it alone)
const TODAY = VARIANT_NAMES.filter((v) => !VARIANT_SPECS[v]?.now && !VARIANT_SPECS[v]?.apiKey && v !== 'long-names');
// lagging-list and the other slow ones are in the set of all at once; these three (a key of
// their own, a date of their own, a quickstart path of their own) are served together
const SOME_VARIANTS: VariantName[] = ['jwt-key', 'getpet-removed', 'quickstart-sibling-path'];
// one of each kind of fault serve treats apart (asserted below), served together where they
// break requirements of their own; list-names-ascii breaks those of private-use-stripped,
// and slow-responses' run judges the latency budget alone
const SOME_FAULTS: FaultName[] = ['no-maximum', 'private-use-stripped', 'qs-no-echo'];
const ALONE: FaultName[] = ['list-names-ascii', 'slow-responses'];

describe.concurrent('the suite certifies serve', () => {
  it(`compliant with ${TODAY.length} variants at once: all of today's date and the default key but long-names`, () => expectCompliant(TODAY));
  if (ALL) it.each(VARIANT_NAMES)('compliant with --variant %s', (variant) => expectCompliant([variant]));
  else it(`compliant with ${SOME_VARIANTS.join(', ')} at once`, () => expectCompliant(SOME_VARIANTS));
  if (ALL) it.each(FAULT_NAMES)('non-compliant with --fault %s', (fault) => expectNonCompliant([fault]));
  else {
    it(`non-compliant with ${SOME_FAULTS.join(', ')} at once, on each one's requirements`, () => expectNonCompliant(SOME_FAULTS));
    it.each(ALONE)('non-compliant with --fault %s', (fault) => expectNonCompliant([fault]));
  }

  it('the set above covers every kind of fault serve treats apart', () => {
    const kinds = (f: FaultName) => {
      const s = faultSpec(f);
      return [
        s.expect.every((id) => LEVEL.get(id) === 'SHOULD') && 'should-only',
        s.prefill && 'prefill',
        s.variants && 'variants',
        s.seed !== undefined && 'seed',
        s.maxLatencyMs && 'latency',
        f.startsWith('qs-') && 'quickstart',
      ].filter(Boolean);
    };
    expect(new Set([...SOME_FAULTS, ...ALONE].flatMap(kinds))).toEqual(new Set(FAULT_NAMES.flatMap(kinds)));
  });
});

describe.concurrent('serve', () => {
  it('logs one line per request, as many as the run sent (exchanges.har, requestCount), and never the key', async () => {
    const served = await serve([]);
    try {
      const reportDir = await mkdtemp(join(tmpdir(), 'serve-'));
      const run = await runBin([], { BASE_URL: served.baseUrl, QUICKSTART_BASE_URL: served.quickstartBaseUrl, API_KEY: served.apiKey!, REPORT_DIR: reportDir });
      expect(run.code, run.stdout).toBe(0);
      await served.stop();
      const log = served.output().split('Ctrl-C stops it.\n')[1];
      const lines = log.split('\n').filter((l) => / ms$/.test(l));
      const report = JSON.parse(await readFile(join(reportDir, 'compliance.json'), 'utf8'));
      const har = JSON.parse(await readFile(join(reportDir, 'exchanges.har'), 'utf8'));
      expect(lines).toHaveLength(report.requestCount);
      expect(har.log.entries).toHaveLength(report.requestCount);
      expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} store +GET \/v1\/pets 200 \d+\.\d ms$/);
      // the key sent in the query (AUTH-NO-QUERY-TOKEN) is shown as ***
      expect(log).toMatch(/GET \/v1\/pets\?api_key=\*\*\* 401/);
      const key = served.apiKey!;
      for (let i = 0; i + 8 <= key.length; i++) expect(log.includes(key.slice(i, i + 8))).toBe(false);
      expect(log).toContain('SIGTERM: stopped');
    } finally {
      await served.stop();
    }
  });

  it('prints how to certify and call it; a given key is used and never printed', async () => {
    const served = await serve(['--variant', 'clamp-limit', '--prefill', '5'], { API_KEY: 'a-key-given-by-the-team-42' });
    try {
      const out = served.output();
      expect(out).not.toContain('a-key-given-by-the-team-42');
      expect(out).toContain('Animal Store reference server (variants: clamp-limit)');
      expect(out).toContain(`BASE_URL=${served.baseUrl} QUICKSTART_BASE_URL=${served.quickstartBaseUrl} API_KEY=$API_KEY npm run conformance`);
      expect(out).toContain(`curl -H "Authorization: Bearer $API_KEY" ${served.baseUrl}/pets`);
      const list = await fetch(`${served.baseUrl}/pets`, { headers: { authorization: 'Bearer a-key-given-by-the-team-42' } });
      expect(((await list.json()) as unknown[]).length).toBe(5);
    } finally {
      await served.stop();
    }
  });

  it('--list names every variant and fault with what it does', async () => {
    const { code, stdout } = await runBin(['serve', '--list']);
    expect(code).toBe(0);
    for (const name of [...VARIANT_NAMES, ...FAULT_NAMES]) expect(stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    expect(stdout).toMatch(/^ {2}jwt-key +.*\[serves a key of its own format\]$/m);
    expect(stdout).toMatch(/^ {2}getpet-removed +.*\[certify with --now 2031-01-01T00:00:00Z\]$/m);
  });

  it('bad input is exit 2 in one line', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const { port } = busy.address() as { port: number };
    try {
      const cases: Array<[string[], RegExp]> = [
        [['--variant', 'clamp-limt'], /unknown variant clamp-limt: did you mean clamp-limit\?/],
        [['--fault', 'no-such-fault'], /unknown fault no-such-fault/],
        [['--variant', 'jwt-key', '--api-key', 'mine'], /a key-format variant serves its own key/],
        [['--variant', 'jwt-key', '--variant', 'uuid-key'], /jwt-key and uuid-key each serve a key of their own format/],
        [['--port', '70000'], /--port must be a port from 0 to 65535/],
        [['--port', String(port)], /a port is in use/],
        [['--bogus'], /Unknown option '--bogus'/],
      ];
      const runs = await Promise.all(cases.map(([args]) => runBin(['serve', '--quickstart-port', '0', ...args])));
      for (const [i, { code, stderr }] of runs.entries()) {
        expect([code, stderr.trim().split('\n').length], stderr).toEqual([2, 1]);
        expect(stderr).toMatch(cases[i][1]);
      }
    } finally {
      busy.close();
    }
  });
});
