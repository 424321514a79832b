#!/usr/bin/env node
// The package's bin: runs the CLI and exits with its code. process.exit, not
// exitCode: a hostile server's half-open socket must not keep the process alive.
import { main } from './cli.js';

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(`animal-store-conformance: internal error: ${(err as Error).message}`);
    process.exit(2);
  },
);
