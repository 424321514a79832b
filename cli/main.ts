#!/usr/bin/env node
// The package's bin: runs the CLI and exits with its code. process.exit, not
// exitCode: a hostile server's half-open socket must not keep the process alive.
import { setFlagsFromString } from 'node:v8';
import { mapStackTraces } from './stack-traces.js';

// A run is short (a few hundred requests in a second or two): V8's optimizing compilers
// spent a third of its CPU on code that ran too briefly to pay the compilation back.
// undici's HTTP parser is WebAssembly, and TurboFan recompiled it in the background on
// every run: Liftoff's code, compiled as the module loads, serves a run as well. And
// JavaScript is optimized only once it has run eight times as long as V8 waits by
// default, so that what is hot for a long run (a large body parsed) still is.
setFlagsFromString('--liftoff-only');
setFlagsFromString('--interrupt-budget=1081344');

// stack traces name the TypeScript sources (the CLI is a bundle, build/bundle.ts)
mapStackTraces();
const { main } = await import('./cli.js');

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(`animal-store-conformance: internal error: ${(err as Error).message}`);
    process.exit(2);
  },
);
