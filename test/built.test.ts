// What the build (build/bundle.ts, run by npm test's pretest) makes of the project's
// files, held against them: the validators it generated judge every value as the
// compiler they replace does, a spec edited after the build is compiled again, and the bin runs the bundle from the code cache the
// build wrote, never from a cache of another script.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sha256 } from '../harness/api/documents.js';
import { ApiDescription, schemaCompiler } from '../harness/api/spec.js';
import { forValidation } from '../harness/model/json.js';
import { PACKAGE_ROOT, SPEC_DIR } from '../harness/model/paths.js';
import type { BuiltValidators } from '../harness/api/built-validators.js';
import { referenceCompiler } from '../reference/compiler.js';
import { newPetSchema } from '../reference/options.js';

const DIST = join(PACKAGE_ROOT, 'dist');
const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(join(DIST, file)).href)) as T;
const readDocument = (file: string) => parse(readFileSync(file, 'utf8'));

/** Values of every JSON type, valid and not for each schema: types, enums, int64's edges, nulls, extra and missing fields. */
const VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  2 ** 53 + 2,
  Infinity, // what JSON.parse makes of 1e400
  9223372036854775807n,
  9223372036854775808n,
  -9223372036854775808n,
  -9223372036854775809n,
  '',
  'available',
  'lost',
  [],
  [null],
  {},
  { name: 'Rex' },
  { name: 'Rex', categoryId: 1 },
  { name: 'Rex', categoryId: '1' },
  { name: 1, categoryId: 1.5 },
  { name: 'Rex', categoryId: 9223372036854775808n },
  { name: 'Rex', categoryId: -9223372036854775809n, status: 'lost' },
  { name: 'Rex', categoryId: 1, status: 'sold', extra: [1] },
  { name: 'Rex', categoryId: 1, status: null },
  { id: 1, name: 'Rex', categoryId: 1, status: 'pending' },
  { id: 9223372036854775807n, name: 'Rex', categoryId: 1 },
  { id: 'one', name: null, categoryId: 1 },
  [{ id: 1, name: 'Rex', categoryId: 1 }, { id: 2 }, 'x'],
  { code: 400, message: 'bad request' },
  { code: '400', message: 7, status: 400 },
  { message: 'hello' },
  { message: 1 },
  { id: 'm-1', message: 'hello', status: 'queued', createdAt: '2024-01-01T00:00:00Z' },
  { id: 7, message: 'hello', status: 'queued', createdAt: 'yesterday' },
];

describe('the validators the build generated', () => {
  it('exist for every component schema of both descriptions, and judge every value as the run-time compiler does', async () => {
    const { builtValidators } = await load<{ builtValidators: Record<string, BuiltValidators> }>('generated/validators.js');
    expect(Object.keys(builtValidators).sort()).toEqual(['openapi.yaml', 'quickstart.yaml']);
    for (const [name, { sha256: digest, schemas: validators }] of Object.entries(builtValidators)) {
      expect(digest, name).toBe(sha256(readFileSync(join(SPEC_DIR, name), 'utf8')));
      const doc = readDocument(join(SPEC_DIR, name));
      const schemas = Object.keys(doc.components.schemas);
      expect(Object.keys(validators).sort(), name).toEqual([...schemas].sort());
      const compiler = schemaCompiler(doc);
      const [built, compiled] = [new ApiDescription(doc, validators), new ApiDescription(doc)];
      for (const schema of schemas) {
        const compiledValidate = compiler.getSchema(`api#/components/schemas/${schema}`)!;
        for (const value of VALUES) {
          const what = `${name} ${schema} ${String(JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)))}`;
          const input = forValidation(value);
          expect(validators[schema](input), what).toBe(compiledValidate(input));
          expect(validators[schema].errors ?? null, what).toEqual(compiledValidate.errors ?? null);
          expect(built.errors(schema, value), what).toEqual(compiled.errors(schema, value));
        }
      }
    }
  });

  it("include the reference server's validator of the documented NewPet, which judges every value as the one it compiles", async () => {
    const { builtNewPetValidator: built } = await load<{ builtNewPetValidator: ValidateFunction }>('generated/reference-new-pet.js');
    const compiled = referenceCompiler().compile(newPetSchema());
    for (const value of VALUES) {
      const what = String(JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)));
      const input = forValidation(value);
      expect(built(input), what).toBe(compiled(input));
      expect(built.errors ?? null, what).toEqual(compiled.errors ?? null);
    }
    expect(VALUES.some((v) => compiled(forValidation(v)))).toBe(true);
    expect(VALUES.some((v) => !compiled(forValidation(v)))).toBe(true);
  });
});

describe('a document the build did not compile as it is now', () => {
  afterEach(() => {
    vi.doUnmock('../harness/api/built-validators.js');
    vi.resetModules();
  });

  /** spec.ts as the bundle has it: with these validators from the build for openapi.yaml. */
  async function withBuilt(digest: string) {
    vi.resetModules();
    vi.doMock('../harness/api/built-validators.js', () => ({ builtValidators: { 'openapi.yaml': { sha256: digest, schemas: { NewPet: fromTheBuild } } } }));
    return import('../harness/api/spec.js');
  }
  const digest = sha256(readFileSync(join(SPEC_DIR, 'openapi.yaml'), 'utf8'));
  const fromTheBuild = Object.assign(() => false, { errors: [{ instancePath: '', message: 'from the build' }] }) as unknown as ValidateFunction;

  it("is judged by the build's validators while its file is the text they were compiled from", async () => {
    const { loadSpecs } = await withBuilt(digest);
    expect(loadSpecs().store.errors('NewPet', {})).toEqual(['(body) from the build']);
  });

  it('is compiled at run time once the file changed: the spec stays the one source', async () => {
    const { loadSpecs } = await withBuilt(sha256('an older text'));
    expect(loadSpecs().store.errors('NewPet', {})).toEqual(["(body) must have required property 'name'", "(body) must have required property 'categoryId'"]);
  });

  it('given by the caller (a test description) is compiled at run time', async () => {
    const { loadSpecs } = await withBuilt(digest);
    const doc = readDocument(join(SPEC_DIR, 'openapi.yaml'));
    expect(loadSpecs({ store: doc }).store.errors('NewPet', { name: 'Rex', categoryId: 1 })).toEqual([]);
  });
});

describe('the bundle (dist/cli)', () => {
  const CLI = join(DIST, 'cli');

  it('is one CommonJS script of the project and its packages, without Vitest, the suites or the tests', () => {
    // the folder's own package.json: Node loads the bin without the ES module loader
    expect(JSON.parse(readFileSync(join(CLI, 'package.json'), 'utf8'))).toEqual({ type: 'commonjs' });
    // esbuild names each module it bundles in a comment
    const modules = readFileSync(join(CLI, 'run.cjs'), 'utf8').match(/^\/\/ \S+$/gm) ?? [];
    expect(modules).toContain('// harness/http/undici.ts');
    expect(modules.filter((line) => /vitest|^\/\/ (suites|test)\//.test(line))).toEqual([]);
  });

  /** What V8 made of each code cache the bin handed it, seen by a probe preloaded into the bin. */
  function cacheUse(bin: string, flag: string): Array<{ given: boolean; rejected: boolean }> {
    const folder = mkdtempSync(join(tmpdir(), 'built-test-'));
    try {
      const probe = join(folder, 'probe.cjs');
      writeFileSync(
        probe,
        "const vm = require('node:vm'); const Script = vm.Script; const seen = []; vm.Script = class extends Script { constructor(source, options) { super(source, options); seen.push({ given: Boolean(options.cachedData), rejected: this.cachedDataRejected === true }); } }; process.on('exit', () => process.stderr.write(JSON.stringify(seen)));",
      );
      const run = spawnSync(process.execPath, ['--require', probe, bin, flag], { encoding: 'utf8' });
      expect(run.status).toBe(0);
      return JSON.parse(run.stderr);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }

  it("runs the run's code from the build's code cache, which V8 takes under the bin's flags; --help and --version load none", () => {
    expect(cacheUse(join(CLI, 'main.js'), '--list')).toEqual([{ given: true, rejected: false }]);
    for (const flag of ['--help', '--version']) expect(cacheUse(join(CLI, 'main.js'), flag), flag).toEqual([]);
  });

  it('never with the cache of another script: a bundle changed since is compiled as it runs', () => {
    const root = mkdtempSync(join(tmpdir(), 'built-test-'));
    try {
      writeFileSync(join(root, 'package.json'), '{}');
      symlinkSync(join(PACKAGE_ROOT, 'spec'), join(root, 'spec'));
      mkdirSync(join(root, 'dist'));
      cpSync(CLI, join(root, 'dist', 'cli'), { recursive: true });
      appendFileSync(join(root, 'dist', 'cli', 'run.cjs'), '// changed\n');
      expect(cacheUse(join(root, 'dist', 'cli', 'main.js'), '--list')).toEqual([{ given: false, rejected: false }]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
