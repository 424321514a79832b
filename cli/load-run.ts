// How the built bin loads the run's code (dist/cli/run.cjs, the bundle of cli/commands.ts):
// with two V8 flags and from the code cache the build wrote beside it (docs/how-it-is-built.md,
// "The build"). Node 20 takes a code cache for scripts only (vm.Script); one V8 rejects is ignored.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import { WRITE_CODE_CACHE } from '../harness/model/paths.js';

export function loadRun(): Record<string, unknown> {
  for (const flag of ['--liftoff-only', '--interrupt-budget=1081344']) setFlagsFromString(flag);
  const file = join(dirname(fileURLToPath(import.meta.url)), 'run.cjs');
  const bytes = readFileSync(file);
  // V8 checks only the length of the source a cache was made from: the cache starts with
  // the script's sha1, so that a script changed since is never run with another's code
  const digest = createHash('sha1').update(bytes).digest();
  const writing = process.env[WRITE_CODE_CACHE] === '1';
  let cachedData: Buffer | undefined;
  try {
    const cache = writing ? undefined : readFileSync(`${file}.cache`);
    if (cache?.subarray(0, digest.length).equals(digest)) cachedData = cache.subarray(digest.length);
  } catch {
    // no cache
  }
  // the wrapper on the script's first line, so that its lines keep their numbers
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${bytes.toString('utf8')}\n})`, { filename: file, cachedData });
  if (writing) process.once('exit', () => writeFileSync(`${file}.cache`, Buffer.concat([digest, script.createCachedData()])));
  const run = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void)(run.exports, createRequire(file), run, file, dirname(file));
  return run.exports;
}
