#!/usr/bin/env node
// Benchmark of the CLI (not a test: `npm test` does not run it). `npm run bench`
// after `npm run build`:
//
//   node dist/bench/run.js [--runs N] [--concurrency-runs M] [--concurrency-values 4,8,16]
//                          [--delay-ms D] [--no-concurrency] [--out FILE]
//
// Each case is run N times (default 7) as a fresh `node dist/cli/main.js`
// process with its own temporary REPORT_DIR; the wall time is measured from the
// spawn to the process's exit. The proxied cases point the CLI at a small reverse
// proxy that waits D ms (default 50) before forwarding every request to a reference
// server started here (a fresh one per run, so every certify starts from an empty
// store). The floor is the test runner running one empty test. The table goes to
// stdout and to bench/results.md.
//
// Built with the rest (`npm run build`, and `npm ci`'s prepare) into dist/bench/run.js,
// next to the reference server it imports; paths are taken from the package root, so
// they are the same from source and from dist/.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { PACKAGE_ROOT } from '../harness/model/paths.js';
import { startReferenceServer } from '../reference/server.js';
import { SETTINGS } from '../harness/config/settings.js';

/** The CLI's default, which the bounds are computed for. */
const DEFAULT_CONCURRENCY = Number(SETTINGS.concurrency.default);

const ROOT = PACKAGE_ROOT;
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    'concurrency-runs': { type: 'string', default: '3' },
    'delay-ms': { type: 'string', default: '50' },
    'concurrency-values': { type: 'string', default: '4,8,16' },
    'no-concurrency': { type: 'boolean', default: false },
    out: { type: 'string', default: join(ROOT, 'bench', 'results.md') },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});
if (opts.help) {
  console.log('Usage: node dist/bench/run.js [--runs N] [--concurrency-runs M] [--concurrency-values 4,8,16] [--delay-ms D] [--no-concurrency] [--out FILE]');
  process.exit(0);
}
function positive(name: string, v: string): number {
  if (!/^\d+$/.test(v) || Number(v) < 1) { console.error(`bench: --${name} must be a positive integer, got ${v}`); process.exit(2); }
  return Number(v);
}
const RUNS = positive('runs', opts.runs);
const C_RUNS = positive('concurrency-runs', opts['concurrency-runs']);
const C_VALUES = opts['concurrency-values'].split(',').map((v) => positive('concurrency-values', v.trim()));
const DELAY_MS = Number(opts['delay-ms']);
if (!Number.isFinite(DELAY_MS) || DELAY_MS < 0) { console.error('bench: --delay-ms must be a number ≥ 0'); process.exit(2); }

// ---------------------------------------------------------------------------
// The delaying reverse proxy

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization',
  'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** Raw headers without the hop-by-hop ones. */
function endToEnd(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (!HOP_BY_HOP.has(raw[i].toLowerCase())) out.push(raw[i], raw[i + 1]);
  }
  return out;
}

/** performance.now() of the first request in and the last answer out, over every proxy sharing it. */
interface Clock {
  first: number;
  last: number;
}

interface DelayProxy {
  origin: string;
  requests: () => number;
  close: () => Promise<void>;
}

/**
 * A reverse proxy on 127.0.0.1 that waits delayMs, then forwards the request
 * (method, path, headers, body streamed) to upstream and streams the answer back.
 * @param upstream origin, e.g. http://127.0.0.1:1234
 */
async function startDelayProxy(upstream: string, delayMs: number, clock: Clock): Promise<DelayProxy> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  let count = 0;
  const server = createServer((req, res) => {
    count++;
    clock.first = Math.min(clock.first, performance.now());
    res.on('finish', () => { clock.last = Math.max(clock.last, performance.now()); });
    req.pause();
    setTimeout(() => {
      const up = httpRequest({
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: endToEnd(req.rawHeaders),
        agent,
      }, (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, endToEnd(upRes.rawHeaders));
        upRes.pipe(res);
        upRes.on('error', () => res.destroy());
      });
      up.on('error', (err) => {
        if (!res.headersSent) { res.writeHead(502, { 'content-type': 'text/plain' }); res.end(`proxy: ${err.message}`); }
        else res.destroy();
      });
      req.on('error', () => up.destroy());
      req.pipe(up);
      req.resume();
    }, delayMs);
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((ok, fail) => { server.once('error', fail); server.listen(0, '127.0.0.1', () => ok()); });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests: () => count,
    close: () => new Promise<void>((ok) => {
      server.close(() => ok());
      server.closeAllConnections();
      agent.destroy();
    }),
  };
}

// ---------------------------------------------------------------------------
// Measuring one process

interface Sample {
  /** spawn to exit */
  wallMs: number;
  exitCode: number | null;
  /** the report's requestCount (the floor: tests run) */
  requests?: number;
  /** spawn to the report's startedAt */
  startupMs?: number;
  /** the report's durationMs */
  runMs?: number;
  /** the rest */
  tailMs?: number;
  /** proxied: spawn to the first request at the proxy */
  firstRequestMs?: number;
  /** proxied: the last answer sent by the proxy to exit */
  afterLastMs?: number;
  /** proxied: requests the proxies saw */
  proxied?: number;
  stdout: string;
  stderr: string;
}

interface TimedSample extends Sample {
  spawnEpochMs: number;
  spawnAt: number;
  exitAt: number;
}

/** Spawns `node args...` and measures the wall time from spawn to exit. */
function timeProcess(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<TimedSample> {
  return new Promise((ok, fail) => {
    const spawnEpochMs = Date.now();
    const spawnAt = performance.now();
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    child.on('error', fail);
    child.on('exit', (code) => {
      const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
      const exitAt = performance.now();
      // let the pipes drain before handing over the output
      setImmediate(() => ok({ wallMs, exitCode: code, stdout, stderr, spawnEpochMs, spawnAt, exitAt }));
    });
  });
}

/** Environment of a CLI run: this process's, without any configured target. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['BASE_URL', 'STAGING_BASE_URL', 'TARGET', 'API_KEY', 'QUICKSTART_BASE_URL', 'QUICKSTART_API_KEY',
    'PROFILE', 'REPORT_DIR', 'REQUEST_TIMEOUT_MS', 'RUN_DEADLINE_MS', 'CONCURRENCY', 'CONFORMANCE_NOW', 'ENV_FILE']) delete env[k];
  return env;
}

/** The fields of compliance.json read here. */
interface ReportFigures {
  startedAt: string;
  durationMs: number;
  requestCount: number;
}

/** One run of the CLI; reads requestCount and the run's own timing from the report. */
async function cliRun(c: { profile: 'certify' | 'health'; proxied: boolean; concurrency?: number }): Promise<Sample> {
  const reportDir = await mkdtemp(join(tmpdir(), 'bench-report-'));
  const env = cleanEnv();
  // an empty settings file, so a developer's .env cannot change what is measured
  const dotenv = join(reportDir, 'empty.env');
  await writeFile(dotenv, '');
  env.REPORT_DIR = reportDir;
  env.ENV_FILE = dotenv;
  const toClose: Array<{ close: () => Promise<void> }> = [];
  const clock: Clock = { first: Infinity, last: 0 };
  const proxies: Array<{ requests: () => number }> = [];
  try {
    if (c.proxied) {
      const apiKey = randomBytes(18).toString('base64url');
      const server = await startReferenceServer({ apiKey });
      toClose.push(server);
      const store = await startDelayProxy(new URL(server.baseUrl).origin, DELAY_MS, clock);
      toClose.push(store);
      const qs = await startDelayProxy(server.quickstartBaseUrl, DELAY_MS, clock);
      toClose.push(qs);
      proxies.push(store, qs);
      env.BASE_URL = `${store.origin}${new URL(server.baseUrl).pathname}`;
      env.API_KEY = apiKey;
      env.QUICKSTART_BASE_URL = qs.origin;
    }
    const args = [CLI, '--profile', c.profile];
    if (c.concurrency) args.push('--concurrency', String(c.concurrency));
    const s = await timeProcess(args, env, ROOT);
    const sample: Sample = { wallMs: s.wallMs, exitCode: s.exitCode, stdout: s.stdout, stderr: s.stderr };
    if (proxies.length && clock.last > 0) {
      sample.firstRequestMs = clock.first - s.spawnAt;
      sample.afterLastMs = s.exitAt - clock.last;
      sample.proxied = proxies.reduce((n, p) => n + p.requests(), 0);
    }
    try {
      const report = JSON.parse(await readFile(join(reportDir, 'compliance.json'), 'utf8')) as ReportFigures;
      const startupMs = Date.parse(report.startedAt) - s.spawnEpochMs;
      const runMs = Number(report.durationMs);
      Object.assign(sample, { requests: report.requestCount, startupMs, runMs, tailMs: s.wallMs - startupMs - runMs });
    } catch { /* reported below as a failed run */ }
    return sample;
  } finally {
    for (const x of toClose.reverse()) await x.close();
    await rm(reportDir, { recursive: true, force: true });
  }
}

/** The fields of Vitest's JSON report read here. */
interface VitestFigures {
  numTotalTests: number;
  numPassedTests: number;
}

/** The floor: the test runner running exactly one empty test. */
async function floorRun(): Promise<Sample> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-floor-'));
  try {
    await writeFile(join(dir, 'empty.test.js'), "test('empty', () => {});\n");
    const out = join(dir, 'result.json');
    const s = await timeProcess(
      [VITEST, 'run', '--root', dir, '--globals', '--reporter=json', `--outputFile=${out}`],
      cleanEnv(), dir);
    const sample: Sample = { wallMs: s.wallMs, exitCode: s.exitCode, stdout: s.stdout, stderr: s.stderr };
    try {
      const r = JSON.parse(await readFile(out, 'utf8')) as VitestFigures;
      if (r.numTotalTests !== 1 || r.numPassedTests !== 1) {
        sample.exitCode = sample.exitCode || 1;
        sample.stderr += `\nexpected exactly one passed test, got ${r.numPassedTests}/${r.numTotalTests}`;
      }
      sample.requests = r.numTotalTests;
    } catch { /* reported below */ }
    return sample;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------
// Statistics and the table

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
const sec = (ms: number): string => (ms / 1000).toFixed(2);

/** Medians (ms) of where the time goes; undefined where no run had the figure. */
interface Split {
  startup?: number;
  run?: number;
  tail?: number;
  firstRequest?: number;
  afterLast?: number;
}

interface Measured extends Split {
  label: string;
  runs: number;
  median: number;
  min: number;
  max: number;
  reqMin: number;
  reqMax: number;
  reqMedian: number;
}

async function measure(label: string, once: () => Promise<Sample>, runs: number): Promise<Measured> {
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    const s = await once();
    if (s.exitCode !== 0 || s.requests === undefined) {
      console.error(`bench: ${label}, run ${i + 1}: exit code ${s.exitCode}${s.requests === undefined ? ', no report' : ''}`);
      console.error((s.stdout + s.stderr).split('\n').slice(-30).join('\n'));
      process.exit(1);
    }
    if (s.proxied !== undefined && s.proxied !== s.requests) {
      process.stderr.write(`bench: ${label}, run ${i + 1}: the proxies saw ${s.proxied} requests, the report counts ${s.requests}\n`);
    }
    samples.push(s);
    process.stderr.write(`  ${label} #${i + 1}: ${sec(s.wallMs)} s, ${s.requests} requests\n`);
  }
  const walls = samples.map((s) => s.wallMs);
  const reqs = samples.map((s) => s.requests as number);
  const med = (f: (s: Sample) => number | undefined): number | undefined => {
    const v = samples.map(f).filter((x): x is number => x !== undefined);
    return v.length ? median(v) : undefined;
  };
  return {
    label,
    runs,
    median: median(walls),
    min: Math.min(...walls),
    max: Math.max(...walls),
    reqMin: Math.min(...reqs),
    reqMax: Math.max(...reqs),
    reqMedian: median(reqs),
    startup: med((s) => s.startupMs),
    run: med((s) => s.runMs),
    tail: med((s) => s.tailMs),
    firstRequest: med((s) => s.firstRequestMs),
    afterLast: med((s) => s.afterLastMs),
  };
}

// ---------------------------------------------------------------------------

const started = new Date();
const cores = availableParallelism();
const loadBefore = loadavg();
if (loadBefore[0] > cores / 2) {
  process.stderr.write(`bench: warning: load average ${loadBefore[0].toFixed(2)} on ${cores} cores: other work is running, the figures will be noisy\n`);
}
process.stderr.write(`bench: ${RUNS} runs per case, ${cores} cores, Node ${process.version}, proxy delay ${DELAY_MS} ms\n`);

// one warm-up of each kind, not measured (file cache, JIT of the spawning side)
await cliRun({ profile: 'health', proxied: false });
await floorRun();

const floor = await measure('floor (one empty test)', floorRun, RUNS);
const certLoop = await measure('certify, loopback', () => cliRun({ profile: 'certify', proxied: false }), RUNS);
const healthLoop = await measure('health, loopback', () => cliRun({ profile: 'health', proxied: false }), RUNS);
const certProxy = await measure(`certify, +${DELAY_MS} ms proxy`, () => cliRun({ profile: 'certify', proxied: true }), RUNS);
const healthProxy = await measure(`health, +${DELAY_MS} ms proxy`, () => cliRun({ profile: 'health', proxied: true }), RUNS);

const conc: Array<Measured & { concurrency: number }> = [];
if (!opts['no-concurrency']) {
  for (const n of C_VALUES) {
    const m = await measure(`certify, +${DELAY_MS} ms proxy, --concurrency ${n}`,
      () => cliRun({ profile: 'certify', proxied: true, concurrency: n }), C_RUNS);
    conc.push({ ...m, concurrency: n });
  }
}

const mark = (ok: boolean): string => (ok ? 'met' : '**not met**');
const reqText = (m: { reqMin: number; reqMax: number }): string => (m.reqMin === m.reqMax ? String(m.reqMin) : `${m.reqMin}–${m.reqMax}`);
const split = (m: Split): string => {
  if (m.run === undefined) return '—';
  const parts = [`startup ${sec(m.startup as number)}`];
  if (m.firstRequest !== undefined) parts.push(`1st request at ${sec(m.firstRequest)}`);
  parts.push(`checks ${sec(m.run)}`, `tail ${sec(m.tail as number)}`);
  if (m.afterLast !== undefined) parts.push(`last answer → exit ${sec(m.afterLast)}`);
  return parts.join(' · ');
};
/** The delay alone with n requests in flight all the time: ⌈requests / n⌉ × delay. */
const parallelBound = (m: { reqMedian: number }, n: number): string => `${sec(Math.ceil(m.reqMedian / n) * DELAY_MS)} s`;
const serial = (m: { reqMedian: number }): string => `${sec(m.reqMedian * DELAY_MS)} s`;

const S = 1000;
const targets = {
  certLoop: [
    `≤ 1.5 s: ${mark(certLoop.median <= 1.5 * S)}`,
    `≤ floor + 0.5 s (${sec(floor.median + 0.5 * S)} s): ${mark(certLoop.median <= floor.median + 0.5 * S)}`,
    `≤ 300 requests: ${mark(certLoop.reqMax <= 300)}`,
  ],
  healthLoop: [`≤ 1.2 s: ${mark(healthLoop.median <= 1.2 * S)}`, `≤ 80 requests: ${mark(healthLoop.reqMax <= 80)}`],
  certProxy: [`≤ 3 s: ${mark(certProxy.median <= 3 * S)}`, `≤ 300 requests: ${mark(certProxy.reqMax <= 300)}`],
  healthProxy: [`≤ 1.5 s: ${mark(healthProxy.median <= 1.5 * S)}`, `≤ 80 requests: ${mark(healthProxy.reqMax <= 80)}`],
};

const row = (m: Measured, proxied: boolean, t: string[]): string =>
  `| ${m.label} | ${sec(m.median)} s | ${sec(m.min)} s | ${sec(m.max)} s | ${sec(m.max - m.min)} s | ${reqText(m)} | ` +
  `${proxied ? serial(m) : '—'} | ${proxied ? parallelBound(m, DEFAULT_CONCURRENCY) : '—'} | ${split(m)} | ${t.join('<br>')} |`;

const cpuModel = cpus()[0]?.model?.trim() ?? 'unknown CPU';
const loadAfter = loadavg();
const loadText = (l: number[]): string => l.map((x) => x.toFixed(2)).join(' ');
const lines = [
  '# CLI benchmark',
  '',
  `- Date: ${started.toISOString()}`,
  `- Cores (os.availableParallelism()): ${cores} (${cpuModel})`,
  `- Node: ${process.version} (${process.platform}/${process.arch})`,
  `- Runs per case: ${RUNS} (after one unmeasured warm-up); --concurrency comparison: ${C_RUNS} runs each`,
  `- Load average (1/5/15 min) before: ${loadText(loadBefore)}; after: ${loadText(loadAfter)} (a 1-minute figure above ${cores / 2} means other work competed for the cores)`,
  `- Proxy delay: ${DELAY_MS} ms before every request is forwarded (reference server and proxies in the benchmark's process, a fresh reference server per run)`,
  '',
  'Wall time from spawning `node dist/cli/main.js` to its exit. *Where the time goes* (seconds, medians): *startup* is spawn →',
  "the report's `startedAt` (Node start, module loading, embedded server start); *checks* is the report's `durationMs`",
  '(spec and catalogue loading, every request, the checks); *tail* is the rest (reports written, server closed, exit).',
  'Proxied runs also show when the first request reached the proxy (from spawn) and the time from the last answer to exit.',
  '*One after another*: requests × the proxy delay, what the delay alone would cost if each request waited for the previous',
  `one; *at --concurrency ${DEFAULT_CONCURRENCY}*: ⌈requests / ${DEFAULT_CONCURRENCY}⌉ × the delay, what it costs with ${DEFAULT_CONCURRENCY} in flight all the time (the default).`,
  'For the floor, *requests* is the number of tests run.',
  '',
  `| Case | Median | Min | Max | Spread | Requests | One after another | At --concurrency ${DEFAULT_CONCURRENCY} | Where the time goes | Targets |`,
  '|---|---:|---:|---:|---:|---:|---:|---:|---|---|',
  row(certLoop, false, targets.certLoop),
  row(healthLoop, false, targets.healthLoop),
  row(certProxy, true, targets.certProxy),
  row(healthProxy, true, targets.healthProxy),
  row(floor, false, ['(reference)']),
];
if (conc.length) {
  const best = conc.reduce((a, b) => (b.median < a.median ? b : a));
  lines.push(
    '',
    `## --concurrency, certify through the +${DELAY_MS} ms proxy (${C_RUNS} runs each)`,
    '',
    '| --concurrency | Median | Min | Max | Requests | One after another | ⌈requests / n⌉ × delay | Where the time goes |',
    '|---:|---:|---:|---:|---:|---:|---:|---|',
    ...conc.map((m) => `| ${m.concurrency}${m === best ? ' (fastest)' : ''} | ${sec(m.median)} s | ${sec(m.min)} s | ${sec(m.max)} s | ` +
      `${reqText(m)} | ${serial(m)} | ${parallelBound(m, m.concurrency)} | ${split(m)} |`),
    '',
    `Fastest by median: --concurrency ${best.concurrency} (${sec(best.median)} s).`,
  );
}
const md = `${lines.join('\n')}\n`;
await writeFile(opts.out, md);
process.stdout.write(`\n${md}\nWritten to ${opts.out}\n`);
