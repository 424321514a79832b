// Preloaded into the CLI the benchmark measures; CommonJS, so that Node's own start is measured as `node -e 0` starts. undici publishes
// requests on its diagnostics channel only while someone listens.
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';

/** CPU times in ms from the process's start. */
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
