// How the CLI's bundle (build/bundle.ts) loads a run: the project's code is one script,
// dist/cli/run.cjs, the packages' others (dist/cli/vendor*.cjs), and V8 compiles each from
// the code cache the build wrote beside it (.cache), made by a run of the built CLI: so a
// run neither parses its code nor compiles the functions it calls (that took a fifth of
// its CPU). Node 20 takes a code cache for scripts only (vm.Script), not for ES modules.
// A cache V8 rejects (another Node, another V8 flag) is ignored: the code is compiled as
// it runs, as without one.
//
// The scripts are linked by the three names each is handed: __vendor(specifier) is a
// package's module (its script read, and the module evaluated, when first asked for),
// __shared(path) one of the project's modules that --help and --version load too (so that
// there is one ConfigError, not one per script), __bundleUrl what import.meta.url is in
// the sources.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import { BUILTINS_FILE, BUNDLE_DIR, WRITE_CODE_CACHE } from '../harness/model/paths.js';
import { writeCacheAtomically } from '../harness/model/files.js';
import { scriptLineOffsets } from './stack-traces.js';

/** Runs one script of the bundle as a CommonJS module, with `scope` as further names it sees; returns its exports. */
function runScript(file: string, scope: Record<string, unknown>): Record<string, any> {
  const bytes = readFileSync(file);
  const source = bytes.toString('utf8');
  // V8 checks only the length of the source a cache was made from: the cache carries the
  // script's sha1 (1 ms), so that a script changed since is never run with another's code
  const digest = createHash('sha1').update(bytes).digest();
  const writing = process.env[WRITE_CODE_CACHE] === '1';
  let cachedData: Buffer | undefined;
  if (!writing) {
    try {
      const cache = readFileSync(`${file}.cache`);
      if (cache.subarray(0, digest.length).equals(digest)) cachedData = cache.subarray(digest.length);
    } catch {
      // no cache: compiled as it runs
    }
  }
  const module = { exports: {} as Record<string, any> };
  const names = { exports: module.exports, require: createRequire(file), module, __filename: file, ...scope };
  // the wrapper has a line of its own, so that the script's lines keep their numbers but for one (stack-traces.ts)
  const script = new Script(`(function (${Object.keys(names).join(', ')}) {\n${source}\n})`, { filename: file, cachedData });
  scriptLineOffsets.set(file, 1);
  if (writing) {
    process.once('exit', () => writeCacheAtomically(`${file}.cache`, Buffer.concat([digest, script.createCachedData()])));
  }
  (script.runInThisContext() as (...args: unknown[]) => void).apply(module.exports, Object.values(names));
  return module.exports;
}

/**
 * The V8 flags of a run, set before its code is loaded (a code cache holds for the flags it
 * was made with). A run is short (a few hundred requests in a second or two): V8's
 * optimizing compilers spent a quarter of its CPU on code that ran too briefly to pay the
 * compilation back. undici's HTTP parser is WebAssembly, and TurboFan recompiled it in the
 * background on every run: Liftoff's code, compiled as the module loads, serves a run as
 * well. And JavaScript is optimized only once it has run eight times as long as V8 waits by
 * default, so that what is hot for a long run (a large body parsed) still is. serve, the
 * one command that runs until stopped, uses no WebAssembly and is only optimized later.
 */
export const RUN_V8_FLAGS = ['--liftoff-only', '--interrupt-budget=1081344'];

/**
 * The run script's module (cli/commands.ts), with the project's modules the light part of the CLI
 * has loaded already, and which vendor script holds each package (by import specifier).
 */
export function loadRun(shared: Record<string, unknown>, vendorScripts: Record<string, string>): Record<string, any> {
  // Node compiles its own modules from a code cache made for its default V8 flags: one
  // first loaded after the flags change is compiled from its source (30 ms a run), so
  // each is loaded before
  const builtins = readBuiltins();
  for (const id of builtins) process.getBuiltinModule(id);
  if (process.env[WRITE_CODE_CACHE] === '1') recordLateBuiltins(builtins);
  for (const flag of RUN_V8_FLAGS) setFlagsFromString(flag);
  const vendors = new Map<string, Record<string, any>>();
  const vendor = (name: string) => vendors.get(name) ?? vendors.set(name, runScript(join(BUNDLE_DIR, `${name}.cjs`), {})).get(name)!;
  const runFile = join(BUNDLE_DIR, 'run.cjs');
  return runScript(runFile, {
    __vendor: (specifier: string) => vendor(vendorScripts[specifier])[specifier],
    __shared: (path: string) => shared[path],
    __bundleUrl: pathToFileURL(runFile).href,
  });
}

/** BUILTINS_FILE's list; none when it is missing or damaged: the run then loads them as it goes, as without a code cache. */
function readBuiltins(): string[] {
  try {
    const list: unknown = JSON.parse(readFileSync(BUILTINS_FILE, 'utf8'));
    return Array.isArray(list) ? list.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** For the build's run: adds the Node modules it loads from now on to BUILTINS_FILE as it exits. */
function recordLateBuiltins(builtins: string[]): void {
  // "NativeModule cluster", "NativeModule internal/..." and "Internal Binding ...", in the order loaded
  const loaded = () => (process as unknown as { moduleLoadList: string[] }).moduleLoadList;
  const before = loaded().length;
  process.once('exit', () => {
    const late = loaded()
      .slice(before)
      .map((entry) => /^NativeModule (.+)$/.exec(entry)?.[1])
      .filter((id): id is string => id !== undefined && isBuiltin(id) && !id.startsWith('internal/'))
      .map((id) => `node:${id}`);
    writeCacheAtomically(BUILTINS_FILE, Buffer.from(JSON.stringify([...new Set([...builtins, ...late])])));
  });
}
