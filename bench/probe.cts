// Preloaded into each process the benchmark measures (node --require dist/bench/probe.cjs
// ...; CommonJS, so that Node's own start is measured without the ES module loader, as
// `node -e 0` starts): when the process exits, writes to the file BENCH_PROBE_FILE the
// CPU time (user + system) it used up to its first HTTP request and up to its exit, how
// many requests it made, and whether the schema compiler was loaded. The requests are
// seen on undici's diagnostics channel, which undici publishes to only while someone
// listens; the probe changes nothing else in the process.
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';

/** What the probe writes (JSON). CPU times in ms, counted from the process's start. */
export interface ProbeFigures {
  /** CPU time before the first request was created: Node's start, loading, setting up (the embedded server too). */
  cpuAtFirstRequestMs?: number;
  /** When the first request was created: ms since the process started. */
  firstRequestAtMs?: number;
  cpuTotalMs: number;
  requests: number;
  /** Ajv's schema compiler was loaded as a module of its own: a schema was compiled at run time. */
  schemaCompilerLoaded: boolean;
}

const out = process.env.BENCH_PROBE_FILE;
if (out) {
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const figures: ProbeFigures = { cpuTotalMs: 0, requests: 0, schemaCompilerLoaded: false };
  subscribe('undici:request:create', () => {
    if (figures.requests++ === 0) {
      figures.cpuAtFirstRequestMs = cpuMs();
      figures.firstRequestAtMs = performance.now();
    }
  });
  process.on('exit', () => {
    figures.cpuTotalMs = cpuMs();
    figures.schemaCompilerLoaded = Object.keys(require.cache).some((file) => /[\\/]node_modules[\\/]ajv[\\/]dist[\\/]compile[\\/]/.test(file));
    writeFileSync(out, JSON.stringify(figures));
  });
}
