#!/usr/bin/env node
// `npm run bench` after `npm run build` (node dist/bench/run.js [--runs N] [--out FILE]):
// each case a fresh process, the cases interleaved after one unmeasured round, medians.
// The external server is a fresh `serve` per run, so that every run starts from an empty
// store; the CLI's CPU is measured by a probe preloaded into it (probe.cts).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { PACKAGE_ROOT } from '../harness/model/paths.js';
import { withoutSettings } from '../harness/config/settings.js';
import type { ProbeFigures } from './probe.cjs';

const CLI = join(PACKAGE_ROOT, 'dist', 'cli', 'main.js');
const PROBE = join(PACKAGE_ROOT, 'dist', 'bench', 'probe.cjs');
const API_KEY = 'bench-key-0123456789';

const { values: opts } = parseArgs({
  options: { runs: { type: 'string', default: '9' }, out: { type: 'string', default: join(PACKAGE_ROOT, 'bench', 'results.md') } },
});
const RUNS = Number(opts.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs must be a positive integer, got ${opts.runs}`);

interface Case {
  name: string;
  /** None: Node's start (`node -e 0`). */
  args?: string[];
  external?: boolean;
  /** The target: wall time above Node's start (s), or CPU per request (ms). */
  aboveNodeS?: number;
  cpuPerRequestMs?: number;
}

const CASES: Case[] = [
  { name: 'Node start (`node -e 0`)' },
  { name: '`--version`', args: ['--version'], aboveNodeS: 0.05 },
  { name: 'certify, embedded server', args: ['--profile', 'certify'], aboveNodeS: 0.5 },
  { name: 'health, embedded server', args: ['--profile', 'health'], aboveNodeS: 0.3 },
  { name: 'certify, external server', args: ['--profile', 'certify'], external: true, cpuPerRequestMs: 0.6 },
];

type Run = { wallS: number; figures: ProbeFigures };

async function startServer(): Promise<{ env: Record<string, string>; stop: () => void }> {
  const server = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--quickstart-port', '0', '--api-key', API_KEY], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  for await (const line of createInterface({ input: server.stdout })) {
    const found = /BASE_URL=(\S+) QUICKSTART_BASE_URL=(\S+)/.exec(line);
    if (found) {
      server.stdout.resume();
      return { env: { BASE_URL: found[1], QUICKSTART_BASE_URL: found[2], API_KEY }, stop: () => server.kill() };
    }
  }
  throw new Error('bench: the reference server exited before it listened');
}

async function runOnce(c: Case): Promise<Run> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-'));
  const server = c.external ? await startServer() : undefined;
  try {
    const probeFile = join(dir, 'probe.json');
    const args = ['--require', PROBE, ...(c.args ? [CLI, ...c.args] : ['-e', '0'])];
    const env = { ...withoutSettings(process.env), REPORT_DIR: dir, ENV_FILE: '/dev/null', BENCH_PROBE_FILE: probeFile, ...server?.env };
    const started = performance.now();
    const code = await new Promise<number | null>((resolve) => spawn(process.execPath, args, { env, stdio: 'ignore' }).on('exit', resolve));
    const wallS = (performance.now() - started) / 1000;
    if (code !== 0) throw new Error(`bench: ${c.name} exited with ${code}`);
    return { wallS, figures: JSON.parse(await readFile(probeFile, 'utf8')) as ProbeFigures };
  } finally {
    server?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

const loadBefore = load();
const runs = new Map<Case, Run[]>(CASES.map((c) => [c, []]));
for (let round = 0; round <= RUNS; round++) {
  for (const c of CASES) {
    const run = await runOnce(c);
    if (round > 0) runs.get(c)!.push(run);
  }
}
const loadAfter = load();

const nodeStart = runs.get(CASES[0])!;
const nodeStartS = median(nodeStart.map((r) => r.wallS));
const nodeStartCpuMs = median(nodeStart.map((r) => r.figures.cpuTotalMs));
const seconds = (s: number) => `${s.toFixed(2)} s`;
const above = (n: number, unit: (n: number) => string) => `${n < 0 ? '−' : '+'} ${unit(Math.abs(n))}`;
const rows = CASES.map((c) => {
  const rs = runs.get(c)!;
  const wallS = median(rs.map((r) => r.wallS));
  const cpu = (pick: (f: ProbeFigures) => number) => median(rs.map((r) => pick(r.figures)));
  const totalMs = cpu((f) => f.cpuTotalMs);
  const perRequestMs = cpu((f) => (f.requests ? (f.cpuTotalMs - f.cpuAtFirstRequestMs) / f.requests : NaN));
  const requests = cpu((f) => f.requests);
  const met = (ok: boolean) => (ok ? 'met' : '**not met**');
  const target =
    c.aboveNodeS !== undefined
      ? `≤ Node start + ${c.aboveNodeS} s: ${met(wallS - nodeStartS <= c.aboveNodeS)}`
      : c.cpuPerRequestMs !== undefined
        ? `≤ ${c.cpuPerRequestMs} ms CPU per request: ${met(perRequestMs <= c.cpuPerRequestMs)}`
        : '';
  const ms = (n: number) => `${n.toFixed(0)} ms`;
  return [
    c.name,
    seconds(wallS),
    c.args ? above(wallS - nodeStartS, seconds) : '—',
    ms(totalMs),
    c.args ? above(totalMs - nodeStartCpuMs, ms) : '—',
    requests ? `${perRequestMs.toFixed(2)} ms` : '—',
    String(requests),
    target,
  ];
});

const report = [
  '# CLI benchmark',
  '',
  `- Date: ${new Date().toISOString()}`,
  `- Node ${process.version} (${process.platform}/${process.arch}), ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown'})`,
  `- ${RUNS} runs per case, interleaved, after one unmeasured round; medians`,
  `- Load average (1/5/15 min) before: ${loadBefore}; after: ${loadAfter} (a 1-minute figure above the cores means other work competed for them)`,
  '',
  'Wall time from spawn to exit. CPU: user + system of the process; *per request*: after its first request, over the',
  'requests (against the embedded server, its CPU is counted too). The external server is the reference server in a',
  'process of its own (`serve`). On a loaded machine wall times stretch far more than CPU times: the CPU above',
  "Node's start then tells best what the wall time above it would be on an idle one.",
  '',
  '| Case | Wall | Wall above Node start | CPU | CPU above Node start | CPU per request | Requests | Target |',
  '|---|---:|---:|---:|---:|---:|---:|---|',
  ...rows.map((cells) => `| ${cells.join(' | ')} |`),
  '',
].join('\n');
process.stdout.write(report);
await writeFile(opts.out, report);
