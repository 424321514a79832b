// Preloaded into the CLI the benchmark measures (node --require dist/bench/probe.cjs ...;
// CommonJS, so that Node's own start is measured as `node -e 0` starts): as the process
// exits, writes to BENCH_PROBE_FILE its CPU time (user + system) up to its first HTTP
// request and up to its exit, and how many requests it made. The requests are seen on
// undici's diagnostics channel, which undici publishes to only while someone listens.
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';

/** What the probe writes (JSON): CPU times in ms from the process's start. */
export interface ProbeFigures {
  cpuAtFirstRequestMs: number;
  cpuTotalMs: number;
  requests: number;
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const figures: ProbeFigures = { cpuAtFirstRequestMs: 0, cpuTotalMs: 0, requests: 0 };
subscribe('undici:request:create', () => {
  if (figures.requests++ === 0) figures.cpuAtFirstRequestMs = cpuMs();
});
process.on('exit', () => writeFileSync(process.env.BENCH_PROBE_FILE!, JSON.stringify({ ...figures, cpuTotalMs: cpuMs() })));
