#!/usr/bin/env node
// Benchmark of the CLI (not a test: `npm test` does not run it). `npm run bench`
// after `npm run build`:
//
//   node dist/bench/run.js [--runs N] [--concurrency-runs M] [--concurrency-values 16,32,64,128]
//                          [--delay-ms D] [--chain-delay-ms C] [--chain-runs K] [--no-concurrency] [--out FILE]
//
// Each case is run N times (default 7), the cases interleaved, as a fresh `node dist/cli/main.js`
// process with its own temporary REPORT_DIR; the wall time is measured from the
// spawn to the process's exit, and the process's CPU time (user + system) by a probe
// preloaded into it (probe.cts): in all, before its first request, and after it per
// request. The external cases certify a reference server in a process of its own
// (reference.ts, a fresh one per run), so that the CPU per request is the suite's
// alone, the server's not counted. The proxied cases point the CLI at a small reverse
// proxy that waits D ms (default 50) before forwarding every request to a reference
// server started here (a fresh one per run, so every certify starts from an empty
// store). The floors: Node's own start (`node -e 0`) for the cases that need no
// network, and that plus the longest dependency chain x D for the proxied ones. The
// chain is measured K times per profile (default 1) through a proxy that waits C ms
// (default 1000) with the concurrency far above any wave: a request's depth is one more
// than the deepest request whose answer had left the proxy before it arrived (see
// chainDepths). The table goes to stdout and to bench/results.md.
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
import { createInterface } from 'node:readline';
import { PACKAGE_ROOT } from '../harness/model/paths.js';
import { startReferenceServer } from '../reference/server.js';
import { DEFAULT_CONCURRENCY, EMBEDDED_CONCURRENCY, withoutSettings } from '../harness/config/settings.js';
import type { ProbeFigures } from './probe.cjs';

const ROOT = PACKAGE_ROOT;
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const PROBE = join(ROOT, 'dist', 'bench', 'probe.cjs');
const REFERENCE = join(ROOT, 'dist', 'bench', 'reference.js');

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    'concurrency-runs': { type: 'string', default: '3' },
    'delay-ms': { type: 'string', default: '50' },
    'chain-delay-ms': { type: 'string', default: '1000' },
    'chain-runs': { type: 'string', default: '1' },
    'concurrency-values': { type: 'string', default: '16,32,64,128' },
    'no-concurrency': { type: 'boolean', default: false },
    out: { type: 'string', default: join(ROOT, 'bench', 'results.md') },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});
if (opts.help) {
  console.log(
    'Usage: node dist/bench/run.js [--runs N] [--concurrency-runs M] [--concurrency-values 16,32,64,128] [--delay-ms D] [--chain-delay-ms C] [--chain-runs K] [--no-concurrency] [--out FILE]',
  );
  process.exit(0);
}
function positive(name: string, v: string): number {
  if (!/^\d+$/.test(v) || Number(v) < 1) {
    console.error(`bench: --${name} must be a positive integer, got ${v}`);
    process.exit(2);
  }
  return Number(v);
}
const RUNS = positive('runs', opts.runs);
const C_RUNS = positive('concurrency-runs', opts['concurrency-runs']);
const C_VALUES = opts['concurrency-values'].split(',').map((v) => positive('concurrency-values', v.trim()));
const DELAY_MS = Number(opts['delay-ms']);
if (!Number.isFinite(DELAY_MS) || DELAY_MS < 0) {
  console.error('bench: --delay-ms must be a number ≥ 0');
  process.exit(2);
}
const CHAIN_DELAY_MS = positive('chain-delay-ms', opts['chain-delay-ms']);
const CHAIN_RUNS = positive('chain-runs', opts['chain-runs']);
/** Above the widest wave of any run (certify sends about 170 requests at once after the preflight). */
const UNBOUNDED_CONCURRENCY = 1000;

// ---------------------------------------------------------------------------
// The delaying reverse proxy

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

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
  /** When given: every request, when it arrived and when its answer had been sent. */
  log?: Passage[];
}

interface Passage {
  /** "GET /v1/pets/{id}", for the waves' description */
  what: string;
  arrived: number;
  answered: number;
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
    const arrived = performance.now();
    clock.first = Math.min(clock.first, arrived);
    res.on('finish', () => {
      const answered = performance.now();
      clock.last = Math.max(clock.last, answered);
      clock.log?.push({ what: `${req.method} ${route(req.url ?? '')}`, arrived, answered });
    });
    req.pause();
    setTimeout(() => {
      const up = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: endToEnd(req.rawHeaders),
          agent,
        },
        (upRes) => {
          res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, endToEnd(upRes.rawHeaders));
          upRes.pipe(res);
          upRes.on('error', () => res.destroy());
        },
      );
      up.on('error', (err) => {
        if (!res.headersSent) {
          res.writeHead(502, { 'content-type': 'text/plain' });
          res.end(`proxy: ${err.message}`);
        } else res.destroy();
      });
      req.on('error', () => up.destroy());
      req.pipe(up);
      req.resume();
    }, delayMs);
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests: () => count,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}

/** A request's path for the waves' description: ids and queries elided, the run's own routes named so. */
function route(url: string): string {
  const path = url.split('?')[0];
  if (/\/conformance-[^/]*$/.test(path)) return `${path.replace(/\/conformance-[^/]*$/, '')}/(a route no API has)`;
  return path.replace(/\/pets\/[^/]+/, '/pets/{id}') + (url.includes('?') ? '?…' : '');
}

// ---------------------------------------------------------------------------
// The longest dependency chain

/**
 * Each request's depth: 1 for one that arrived before any answer had left the proxy,
 * else one more than the deepest request whose answer had left before it arrived. A
 * request can depend only on answers already sent, so this is at least its depth in
 * the chain of requests waiting on each other, and with a delay far above the CPU time
 * between the requests of one wave (and a concurrency above the widest wave) it is that
 * depth: every request that waits on nothing new arrives before its wave's first answer.
 */
function chainDepths(log: Passage[]): Array<Passage & { depth: number }> {
  const byArrival = [...log].sort((a, b) => a.arrived - b.arrived);
  const byAnswer = [...log].sort((a, b) => a.answered - b.answered);
  const depth = new Map<Passage, number>();
  let deepestAnswered = 0;
  let next = 0;
  for (const p of byArrival) {
    // answers that left before this request arrived: their requests arrived earlier, so their depth is known
    while (next < byAnswer.length && byAnswer[next].answered < p.arrived) deepestAnswered = Math.max(deepestAnswered, depth.get(byAnswer[next++]) ?? 0);
    depth.set(p, deepestAnswered + 1);
  }
  return byArrival.map((p) => ({ ...p, depth: depth.get(p)! }));
}

interface Chain {
  length: number;
  /** Requests per depth, and the most frequent kinds among them. */
  waves: string[];
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
  /** proxied, when asked for: every request's passage through the proxies */
  log?: Passage[];
  /** the process's CPU time (user + system), ms: in all, and before its first request */
  cpuMs?: number;
  cpuAtFirstRequestMs?: number;
  /** CPU time after the first request per request (the requests the probe saw) */
  cpuPerRequestMs?: number;
  /** a schema was compiled at run time (Ajv's compiler loaded) */
  schemaCompiler?: boolean;
  stdout: string;
  stderr: string;
}

interface TimedSample extends Sample {
  spawnEpochMs: number;
  spawnAt: number;
  exitAt: number;
}

/** Spawns `node args...` with the probe and measures the wall time from spawn to exit, and the CPU time the probe saw. */
async function timeProcess(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<TimedSample> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-probe-'));
  const probeFile = join(dir, 'probe.json');
  try {
    const s = await spawnTimed(['--require', PROBE, ...args], { ...env, BENCH_PROBE_FILE: probeFile }, cwd);
    try {
      const p = JSON.parse(await readFile(probeFile, 'utf8')) as ProbeFigures;
      s.cpuMs = p.cpuTotalMs;
      s.schemaCompiler = p.schemaCompilerLoaded;
      if (p.cpuAtFirstRequestMs !== undefined) {
        s.cpuAtFirstRequestMs = p.cpuAtFirstRequestMs;
        s.cpuPerRequestMs = (p.cpuTotalMs - p.cpuAtFirstRequestMs) / p.requests;
      }
    } catch {
      /* no figures: the process died before its exit handlers ran */
    }
    return s;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function spawnTimed(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<TimedSample> {
  return new Promise((ok, fail) => {
    const spawnEpochMs = Date.now();
    const spawnAt = performance.now();
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', fail);
    child.on('exit', (code) => {
      const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
      const exitAt = performance.now();
      // let the pipes drain before handing over the output
      setImmediate(() => ok({ wallMs, exitCode: code, stdout, stderr, spawnEpochMs, spawnAt, exitAt }));
    });
  });
}

/** The fields of compliance.json read here. */
interface ReportFigures {
  startedAt: string;
  durationMs: number;
  requestCount: number;
}

/** The reference server in a process of its own (reference.ts), until close(). */
async function startExternalReference(): Promise<{ baseUrl: string; quickstartBaseUrl: string; apiKey: string; close: () => Promise<void> }> {
  const child = spawn(process.execPath, [REFERENCE], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  const line = await new Promise<string>((ok, fail) => {
    createInterface({ input: child.stdout! }).once('line', ok);
    child.once('exit', (code) => fail(new Error(`bench: the reference server exited (${code}) before it listened`)));
  });
  const addresses = JSON.parse(line) as { baseUrl: string; quickstartBaseUrl: string; apiKey: string };
  return { ...addresses, close: () => (child.stdin!.end(), exited) };
}

/** One run of the CLI; reads requestCount and the run's own timing from the report. */
async function cliRun(c: {
  profile: 'certify' | 'health';
  proxied: boolean;
  /** against the reference server in another process (no proxy) */
  external?: boolean;
  concurrency?: number;
  delayMs?: number;
  log?: boolean;
}): Promise<Sample> {
  const reportDir = await mkdtemp(join(tmpdir(), 'bench-report-'));
  const env = withoutSettings(process.env);
  // an empty settings file, so a developer's .env cannot change what is measured
  const dotenv = join(reportDir, 'empty.env');
  await writeFile(dotenv, '');
  env.REPORT_DIR = reportDir;
  env.ENV_FILE = dotenv;
  const toClose: Array<{ close: () => Promise<void> }> = [];
  const clock: Clock = { first: Infinity, last: 0, ...(c.log && { log: [] }) };
  const proxies: Array<{ requests: () => number }> = [];
  const delayMs = c.delayMs ?? DELAY_MS;
  try {
    if (c.proxied) {
      const apiKey = randomBytes(18).toString('base64url');
      const server = await startReferenceServer({ apiKey });
      toClose.push(server);
      const store = await startDelayProxy(new URL(server.baseUrl).origin, delayMs, clock);
      toClose.push(store);
      const qs = await startDelayProxy(server.quickstartBaseUrl, delayMs, clock);
      toClose.push(qs);
      proxies.push(store, qs);
      env.BASE_URL = `${store.origin}${new URL(server.baseUrl).pathname}`;
      env.API_KEY = apiKey;
      env.QUICKSTART_BASE_URL = qs.origin;
    } else if (c.external) {
      const server = await startExternalReference();
      toClose.push(server);
      env.BASE_URL = server.baseUrl;
      env.API_KEY = server.apiKey;
      env.QUICKSTART_BASE_URL = server.quickstartBaseUrl;
    }
    const args = [CLI, '--profile', c.profile];
    if (c.concurrency) args.push('--concurrency', String(c.concurrency));
    const s = await timeProcess(args, env, ROOT);
    const sample: Sample = { ...cpuOf(s), wallMs: s.wallMs, exitCode: s.exitCode, stdout: s.stdout, stderr: s.stderr };
    if (proxies.length && clock.last > 0) {
      sample.firstRequestMs = clock.first - s.spawnAt;
      sample.afterLastMs = s.exitAt - clock.last;
      sample.proxied = proxies.reduce((n, p) => n + p.requests(), 0);
      sample.log = clock.log;
    }
    try {
      const report = JSON.parse(await readFile(join(reportDir, 'compliance.json'), 'utf8')) as ReportFigures;
      const startupMs = Date.parse(report.startedAt) - s.spawnEpochMs;
      const runMs = Number(report.durationMs);
      Object.assign(sample, { requests: report.requestCount, startupMs, runMs, tailMs: s.wallMs - startupMs - runMs });
    } catch {
      /* reported below as a failed run */
    }
    return sample;
  } finally {
    for (const x of toClose.reverse()) await x.close();
    await rm(reportDir, { recursive: true, force: true });
  }
}

const cpuOf = (s: Sample): Partial<Sample> => ({
  cpuMs: s.cpuMs,
  cpuAtFirstRequestMs: s.cpuAtFirstRequestMs,
  cpuPerRequestMs: s.cpuPerRequestMs,
  schemaCompiler: s.schemaCompiler,
});

/** A process that needs no network: Node's own start (`node -e 0`), or the CLI with arguments that answer at once. */
async function plainRun(args: string[], expect: RegExp): Promise<Sample> {
  const s = await timeProcess(args, withoutSettings(process.env), ROOT);
  const sample: Sample = { ...cpuOf(s), wallMs: s.wallMs, exitCode: s.exitCode, stdout: s.stdout, stderr: s.stderr, requests: 0 };
  if (!expect.test(s.stdout)) {
    sample.exitCode = sample.exitCode || 1;
    sample.stderr += `\nthe output does not match ${expect}`;
  }
  return sample;
}

/** The longest dependency chain of a profile (see chainDepths), from a run through the slow proxy. */
async function chainRun(profile: 'certify' | 'health'): Promise<Chain & { requests: number }> {
  const s = await cliRun({ profile, proxied: true, concurrency: UNBOUNDED_CONCURRENCY, delayMs: CHAIN_DELAY_MS, log: true });
  if (s.exitCode !== 0 || !s.log) {
    console.error(`bench: chain of ${profile}: exit code ${s.exitCode}`);
    console.error((s.stdout + s.stderr).split('\n').slice(-30).join('\n'));
    process.exit(1);
  }
  const depths = chainDepths(s.log);
  const length = Math.max(...depths.map((d) => d.depth));
  const waves = Array.from({ length }, (_, i) => {
    const kinds = new Map<string, number>();
    for (const d of depths.filter((d) => d.depth === i + 1)) kinds.set(d.what, (kinds.get(d.what) ?? 0) + 1);
    const n = [...kinds.values()].reduce((a, b) => a + b, 0);
    const shown = [...kinds]
      .sort((a, b) => b[1] - a[1])
      .map(([k, m]) => `${m}× ${k}`)
      .join(', ');
    return `${n}: ${shown}`;
  });
  process.stderr.write(`  chain of ${profile}: ${length} round trips (${s.log.length} requests)\n`);
  return { length, waves, requests: s.log.length };
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
  /** medians of the CPU figures (ms), when the probe gave them */
  cpu?: number;
  cpuAtFirstRequest?: number;
  cpuPerRequest?: number;
  /** some run compiled a schema at run time */
  schemaCompiler: boolean;
}

type Case = [label: string, once: () => Promise<Sample>];

/** One run of a case, checked (a failed run ends the bench) and logged. */
async function sample([label, once]: Case, i: number): Promise<Sample> {
  const s = await once();
  if (s.exitCode !== 0 || s.requests === undefined) {
    console.error(`bench: ${label}, run ${i + 1}: exit code ${s.exitCode}${s.requests === undefined ? ', no report' : ''}`);
    console.error((s.stdout + s.stderr).split('\n').slice(-30).join('\n'));
    process.exit(1);
  }
  if (s.proxied !== undefined && s.proxied !== s.requests) {
    process.stderr.write(`bench: ${label}, run ${i + 1}: the proxies saw ${s.proxied} requests, the report counts ${s.requests}\n`);
  }
  const cpu =
    s.cpuMs === undefined
      ? ''
      : `, ${sec(s.cpuMs)} s CPU${s.cpuPerRequestMs === undefined ? '' : ` (${s.cpuPerRequestMs.toFixed(2)} ms per request after the first)`}`;
  process.stderr.write(`  ${label} #${i + 1}: ${sec(s.wallMs)} s, ${s.requests} requests${cpu}\n`);
  return s;
}

/**
 * Each case `runs` times, interleaved: one run of every case per round, so that a
 * machine that slows down for a while (a neighbour on the host) slows every case alike,
 * Node's start (the floor the targets are set from) too.
 */
async function measureInterleaved(cases: Case[], runs: number): Promise<Measured[]> {
  const samples: Sample[][] = cases.map(() => []);
  for (let i = 0; i < runs; i++) for (const [c, one] of cases.entries()) samples[c].push(await sample(one, i));
  return cases.map(([label], c) => summarize(label, samples[c]));
}

function summarize(label: string, samples: Sample[]): Measured {
  const runs = samples.length;
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
    cpu: med((s) => s.cpuMs),
    cpuAtFirstRequest: med((s) => s.cpuAtFirstRequestMs),
    cpuPerRequest: med((s) => s.cpuPerRequestMs),
    schemaCompiler: samples.some((s) => s.schemaCompiler),
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
await plainRun([CLI, '--version'], /\d+\.\d+\.\d+/);

const [nodeStart, version, help, certLoop, healthLoop, certExternal, healthExternal, certProxy, healthProxy] = await measureInterleaved(
  [
    ['Node start (`node -e 0`)', () => plainRun(['-e', '0'], /^$/)],
    ['`--version`', () => plainRun([CLI, '--version'], /\d+\.\d+\.\d+/)],
    ['`--help`', () => plainRun([CLI, '--help'], /^Usage:/)],
    ['certify, loopback', () => cliRun({ profile: 'certify', proxied: false })],
    ['health, loopback', () => cliRun({ profile: 'health', proxied: false })],
    ['certify, external server on loopback', () => cliRun({ profile: 'certify', proxied: false, external: true })],
    ['health, external server on loopback', () => cliRun({ profile: 'health', proxied: false, external: true })],
    [`certify, +${DELAY_MS} ms proxy`, () => cliRun({ profile: 'certify', proxied: true })],
    [`health, +${DELAY_MS} ms proxy`, () => cliRun({ profile: 'health', proxied: true })],
  ],
  RUNS,
);

// the longest chain: the largest of CHAIN_RUNS measurements (each is an upper bound that is met when the machine keeps up)
const chains: Record<'certify' | 'health', Chain & { requests: number }> = { certify: await chainRun('certify'), health: await chainRun('health') };
for (let i = 1; i < CHAIN_RUNS; i++) {
  for (const profile of ['certify', 'health'] as const) {
    const c = await chainRun(profile);
    if (c.length < chains[profile].length) chains[profile] = c;
  }
}

const conc: Array<Measured & { concurrency: number; profile: string }> = [];
if (!opts['no-concurrency']) {
  for (const profile of ['certify', 'health'] as const) {
    const cases = C_VALUES.map((n): Case => [
      `${profile}, +${DELAY_MS} ms proxy, --concurrency ${n}`,
      () => cliRun({ profile, proxied: true, concurrency: n }),
    ]);
    (await measureInterleaved(cases, C_RUNS)).forEach((m, i) => conc.push({ ...m, concurrency: C_VALUES[i], profile }));
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
const poolBound = (m: { reqMedian: number }, n: number): number => Math.ceil(m.reqMedian / n) * DELAY_MS;

const S = 1000;
/** The floors: Node's start, and through the proxy that plus the longest chain × the delay. */
const floors = {
  plain: nodeStart.median,
  certProxy: nodeStart.median + chains.certify.length * DELAY_MS,
  healthProxy: nodeStart.median + chains.health.length * DELAY_MS,
};
const floorText = {
  plain: `${sec(floors.plain)} s (Node start)`,
  certProxy: `${sec(floors.certProxy)} s (Node start + ${chains.certify.length} × ${DELAY_MS} ms)`,
  healthProxy: `${sec(floors.healthProxy)} s (Node start + ${chains.health.length} × ${DELAY_MS} ms)`,
};
// wall-time targets: above Node's own start (measured here), so that they hold on a machine of any speed, and the
// request budgets of each profile (every dimension of every request probed); the proxied ones were written for a
// machine where Node starts in about 0.05 s
const aboveStart = (m: Measured, limit: number): string => `≤ Node start + ${sec(limit)} s: ${mark(m.median - floors.plain <= limit)}`;
/** The most CPU time per request, after the first one, that a run against an external server may use (ms). */
const CPU_PER_REQUEST_BUDGET = 0.6;
const cpuTarget = (m: Measured): string =>
  `≤ ${CPU_PER_REQUEST_BUDGET} ms CPU per request: ${mark(m.cpuPerRequest !== undefined && m.cpuPerRequest <= CPU_PER_REQUEST_BUDGET)}`;
const targets = {
  version: [aboveStart(version, 0.03 * S)],
  help: [aboveStart(help, 0.03 * S)],
  certLoop: [aboveStart(certLoop, 0.3 * S), `≤ 450 requests: ${mark(certLoop.reqMax <= 450)}`],
  healthLoop: [aboveStart(healthLoop, 0.2 * S), `≤ 110 requests: ${mark(healthLoop.reqMax <= 110)}`],
  certExternal: [cpuTarget(certExternal), `≤ 450 requests: ${mark(certExternal.reqMax <= 450)}`],
  healthExternal: [`≤ 110 requests: ${mark(healthExternal.reqMax <= 110)}`],
  certProxy: [`≤ 0.9 s: ${mark(certProxy.median <= 0.9 * S)}`, `≤ 450 requests: ${mark(certProxy.reqMax <= 450)}`],
  healthProxy: [`≤ 0.5 s: ${mark(healthProxy.median <= 0.5 * S)}`, `≤ 110 requests: ${mark(healthProxy.reqMax <= 110)}`],
};

/** CPU time in ms, to one decimal below 10 ms and whole above. */
const ms = (x: number | undefined): string => (x === undefined ? '—' : `${x < 10 ? x.toFixed(1) : Math.round(x)} ms`);
/** Where the CPU time goes: module load (--version's CPU above Node's start), before the first request, per request after it. */
const cpuRow = (m: Measured, t: string[] = []): string =>
  `| ${m.label} | ${ms(m.cpu)} | ${ms(m.cpuAtFirstRequest)} | ${m.cpuPerRequest === undefined ? '—' : `${m.cpuPerRequest.toFixed(2)} ms`} | ` +
  `${m.cpuPerRequest === undefined ? '—' : ms(m.cpuPerRequest * m.reqMedian)} | ${reqText(m)} | ${m.label.startsWith('Node') ? '—' : m.schemaCompiler ? '**yes**' : 'none'} | ${t.join('<br>') || '—'} |`;

const row = (m: Measured, floor: number | undefined, floorLabel: string, proxied: boolean, t: string[]): string =>
  `| ${m.label} | ${sec(m.median)} s | ${sec(m.min)} s | ${sec(m.max)} s | ${sec(m.max - m.min)} s | ${reqText(m)} | ` +
  `${floorLabel} | ${floor === undefined ? '—' : `${sec(m.median - floor)} s`} | ` +
  `${proxied ? `${sec(poolBound(m, DEFAULT_CONCURRENCY))} s` : '—'} | ${split(m)} | ${t.join('<br>')} |`;

const cpuModel = cpus()[0]?.model?.trim() ?? 'unknown CPU';
const loadAfter = loadavg();
const loadText = (l: number[]): string => l.map((x) => x.toFixed(2)).join(' ');
const lines = [
  '# CLI benchmark',
  '',
  `- Date: ${started.toISOString()}`,
  `- Cores (os.availableParallelism()): ${cores} (${cpuModel})`,
  `- Node: ${process.version} (${process.platform}/${process.arch})`,
  `- Runs per case: ${RUNS}, interleaved (a round runs every case once; after one unmeasured warm-up); --concurrency comparison: ${C_RUNS} runs each, interleaved; default --concurrency: ${DEFAULT_CONCURRENCY} (${EMBEDDED_CONCURRENCY} against the embedded server: certify and health on loopback, not the external server's cases)`,
  `- Load average (1/5/15 min) before: ${loadText(loadBefore)}; after: ${loadText(loadAfter)} (a 1-minute figure above ${cores / 2} means other work competed for the cores)`,
  `- Proxy delay: ${DELAY_MS} ms before every request is forwarded (reference server and proxies in the benchmark's process, a fresh reference server per run)`,
  '',
  'Wall time from spawning the process to its exit. *Where the time goes* (seconds, medians): *startup* is spawn →',
  "the report's `startedAt` (Node start, module loading, embedded server start); *checks* is the report's `durationMs`",
  '(spec and catalogue loading, every request, the checks); *tail* is the rest (reports written, server closed, exit).',
  'Proxied runs also show when the first request reached the proxy (from spawn) and the time from the last answer to exit.',
  "*Floor*: what no change to the suite can go below on this machine: Node's own start (`node -e 0`, measured here), and",
  `through the proxy that plus the longest dependency chain × the delay (below). *Pool bound*: ⌈requests / ${DEFAULT_CONCURRENCY}⌉ × the delay,`,
  `what the delay costs with ${DEFAULT_CONCURRENCY} requests (the default --concurrency) in flight all the time. *Targets*: wall times`,
  "above Node's start (the proxied ones set for a machine where Node starts in about 0.05 s), and the request budget of each",
  'profile; the CPU target is in the next section. The external cases certify a reference server in another process.',
  '',
  `| Case | Median | Min | Max | Spread | Requests | Floor | Above the floor | Pool bound | Where the time goes | Targets |`,
  '|---|---:|---:|---:|---:|---:|---|---:|---:|---|---|',
  row(version, floors.plain, floorText.plain, false, targets.version),
  row(help, floors.plain, floorText.plain, false, targets.help),
  row(certLoop, floors.plain, floorText.plain, false, targets.certLoop),
  row(healthLoop, floors.plain, floorText.plain, false, targets.healthLoop),
  row(certExternal, floors.plain, floorText.plain, false, []),
  row(healthExternal, floors.plain, floorText.plain, false, []),
  row(certProxy, floors.certProxy, floorText.certProxy, true, targets.certProxy),
  row(healthProxy, floors.healthProxy, floorText.healthProxy, true, targets.healthProxy),
  row(nodeStart, undefined, '—', false, ['(the floor)']),
  '',
  `What the floors leave out is the run's own CPU time: on loopback, with no delay at all, the checks take ${sec(certLoop.run ?? 0)} s`,
  `(certify) and ${sec(healthLoop.run ?? 0)} s (health) here (loading the spec and catalogue, building, sending and reading every request,`,
  'judging); much of it lies on the chain, between an answer and the requests that wait on it.',
  '',
  '## Where the CPU time goes',
  '',
  "The CPU time (user + system) of the CLI's process, medians, as a probe preloaded into it saw it (`dist/bench/probe.cjs`:",
  "at the process's exit, and when undici created its first request). *Before the 1st request*: Node's start, loading the",
  'modules, reading the configuration, the spec and the catalogue, setting up the run (in the loopback cases, starting the',
  `embedded reference server too); module load alone shows in \`--version\` (${ms(version.cpu)}) against Node's start (${ms(nodeStart.cpu)},`,
  '`node -e 0`, which evaluates a script of its own). *Per request*: everything after the first',
  'request (sending, reading, judging, the reports) over the requests made. In the loopback cases the embedded server answers',
  'in the same process, so its CPU time is counted too; the external cases start the reference server in a process of its',
  "own (a fresh one per run), so their figures are the suite's alone. *Schemas compiled at run time*: whether Ajv's",
  'compiler was loaded (the build generates the validators: `none` means no schema was compiled).',
  '',
  '| Case | CPU | Before the 1st request | Per request after it | After the 1st request | Requests | Schemas compiled at run time | Targets |',
  '|---|---:|---:|---:|---:|---:|---|---|',
  cpuRow(nodeStart),
  cpuRow(version),
  cpuRow(help),
  cpuRow(certLoop),
  cpuRow(healthLoop),
  cpuRow(certExternal, targets.certExternal),
  cpuRow(healthExternal, targets.healthExternal),
  cpuRow(certProxy),
  cpuRow(healthProxy),
  '',
  '## The longest dependency chain',
  '',
  `Measured through a proxy that waits ${CHAIN_DELAY_MS} ms before forwarding, with --concurrency ${UNBOUNDED_CONCURRENCY} (above the widest wave),`,
  `${CHAIN_RUNS === 1 ? 'once' : `${CHAIN_RUNS} times (the shortest kept)`} per profile. A request's depth is 1 when it arrived before any answer had left the proxy, else one more`,
  'than the deepest request whose answer had left before it arrived. A request can only wait on answers already sent, so',
  'this is at least its place in the chain of requests that wait on each other; with a delay far above the CPU time between',
  'the requests of one wave it is exactly that. The chain is the largest depth; each wave below lists its requests by kind.',
  '',
  ...(['certify', 'health'] as const).flatMap((profile) => [
    `**${profile}: ${chains[profile].length} round trips** (${chains[profile].requests} requests)`,
    '',
    '| Depth | Requests |',
    '|---:|---|',
    ...chains[profile].waves.map((w, i) => `| ${i + 1} | ${w} |`),
    '',
  ]),
];
if (conc.length) {
  lines.push(
    `## --concurrency through the +${DELAY_MS} ms proxy (${C_RUNS} runs each)`,
    '',
    '| Profile | --concurrency | Median | Min | Max | Requests | ⌈requests / n⌉ × delay | Chain × delay | Where the time goes |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
  );
  for (const profile of ['certify', 'health'] as const) {
    const runs = conc.filter((m) => m.profile === profile);
    const best = runs.reduce((a, b) => (b.median < a.median ? b : a));
    lines.push(
      ...runs.map(
        (m) =>
          `| ${profile} | ${m.concurrency}${m === best ? ' (fastest)' : ''} | ${sec(m.median)} s | ${sec(m.min)} s | ${sec(m.max)} s | ` +
          `${reqText(m)} | ${sec(poolBound(m, m.concurrency))} s | ${sec(chains[profile].length * DELAY_MS)} s | ${split(m)} |`,
      ),
    );
  }
}
const md = `${lines.join('\n')}\n`;
await writeFile(opts.out, md);
process.stdout.write(`\n${md}\nWritten to ${opts.out}\n`);
