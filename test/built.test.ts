// What the build (build/bundle.ts, run by npm test's pretest) makes of the project's
// files, held against them: the documents it parsed are the YAML's, the validators it
// generated judge every value as the compiler they replace does, a spec edited after the
// build is read and compiled again, and the bundle loads what each command needs only:
// --version nothing of a run, a run against a server neither the schema compiler, the
// reporters nor fast-check before it needs them; its stack traces name the sources.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { build } from 'esbuild';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readDocument, sha256 } from '../harness/api/documents.js';
import { ApiDescription, schemaCompiler } from '../harness/api/spec.js';
import { forValidation } from '../harness/model/json.js';
import { PACKAGE_ROOT, SPEC_DIR } from '../harness/model/paths.js';
import type { BuiltDocument } from '../harness/api/built-documents.js';
import { referenceCompiler } from '../reference/compiler.js';
import { newPetSchema } from '../reference/options.js';

const DIST = join(PACKAGE_ROOT, 'dist');
const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(join(DIST, file)).href)) as T;

describe('the documents the build parsed', () => {
  it('are the YAML files, each with the hash of its text', async () => {
    const { builtDocuments } = await load<{ builtDocuments: Record<string, BuiltDocument> }>('generated/documents.js');
    expect(Object.keys(builtDocuments).sort()).toEqual(['openapi.yaml', 'quickstart.yaml', 'requirements.yaml']);
    for (const [name, built] of Object.entries(builtDocuments)) {
      const file = join(SPEC_DIR, name);
      expect(JSON.parse(built.json), name).toEqual(readDocument(file));
      expect(built.sha256, name).toBe(sha256(readFileSync(file, 'utf8')));
    }
  });
});

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
    const { builtValidators } = await load<{ builtValidators: Record<string, Record<string, ValidateFunction>> }>('generated/validators.js');
    expect(Object.keys(builtValidators).sort()).toEqual(['openapi.yaml', 'quickstart.yaml']);
    for (const [name, validators] of Object.entries(builtValidators)) {
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

describe('a document the build did not parse as it is now', () => {
  afterEach(() => {
    vi.doUnmock('../harness/api/built-documents.js');
    vi.doUnmock('../harness/api/built-validators.js');
    vi.resetModules();
  });

  /** documents.ts and spec.ts as the bundle has them: with these built documents and validators. */
  async function withBuilt(documents: Record<string, BuiltDocument>, validators: Record<string, Record<string, ValidateFunction>>) {
    vi.resetModules();
    vi.doMock('../harness/api/built-documents.js', () => ({ builtDocuments: documents }));
    vi.doMock('../harness/api/built-validators.js', () => ({ builtValidators: validators }));
    return { ...(await import('../harness/api/documents.js')), ...(await import('../harness/api/spec.js')) };
  }
  const text = (name: string) => readFileSync(join(SPEC_DIR, name), 'utf8');
  const fromTheBuild = Object.assign(() => false, { errors: [{ instancePath: '', message: 'from the build' }] }) as unknown as ValidateFunction;

  it('is taken as built, validators and all, while its file is the text it was parsed from', async () => {
    const doc = readDocument(join(SPEC_DIR, 'openapi.yaml'));
    const { readSpecDocument, loadSpecs } = await withBuilt(
      { 'openapi.yaml': { sha256: sha256(text('openapi.yaml')), json: JSON.stringify({ ...doc, built: true }) } },
      { 'openapi.yaml': { NewPet: fromTheBuild } },
    );
    expect(readSpecDocument(join(SPEC_DIR, 'openapi.yaml')).built).toBe(true);
    expect(loadSpecs().store.errors('NewPet', {})).toEqual(['(body) from the build']);
  });

  it('is parsed and compiled at run time once the file changed: the spec stays the one source', async () => {
    const { readSpecDocument, loadSpecs } = await withBuilt(
      { 'openapi.yaml': { sha256: sha256('an older text'), json: JSON.stringify({ built: true }) } },
      { 'openapi.yaml': { NewPet: fromTheBuild } },
    );
    expect(readSpecDocument(join(SPEC_DIR, 'openapi.yaml'))).toEqual(readDocument(join(SPEC_DIR, 'openapi.yaml')));
    expect(loadSpecs().store.errors('NewPet', {})).toEqual(["(body) must have required property 'name'", "(body) must have required property 'categoryId'"]);
  });

  it('given by the caller (a test description) is compiled at run time', async () => {
    const doc = readDocument(join(SPEC_DIR, 'openapi.yaml'));
    const { loadSpecs } = await withBuilt(
      { 'openapi.yaml': { sha256: sha256(text('openapi.yaml')), json: JSON.stringify(doc) } },
      { 'openapi.yaml': { NewPet: fromTheBuild } },
    );
    expect(loadSpecs({ store: doc }).store.errors('NewPet', { name: 'Rex', categoryId: 1 })).toEqual([]);
  });
});

interface Metafile {
  inputs: Record<string, { imports: Array<{ path: string; kind: string; external?: boolean }> }>;
  outputs: Record<string, { inputs: Record<string, unknown>; imports: Array<{ path: string; kind: string; external?: boolean }> }>;
}

describe('the bundle (dist/cli)', () => {
  const meta = JSON.parse(readFileSync(join(DIST, 'cli', 'meta.json'), 'utf8')) as {
    light: Metafile;
    run: Metafile;
    vendors: Record<string, Metafile>;
    vendorScripts: Record<string, string>;
    builtins: string[];
  };
  /** The project's and the packages' files the bin holds. */
  const light = Object.keys(meta.light.outputs['dist/cli/main.js'].inputs);
  /** The modules of the run script that evaluate with `input`: those it imports, not with import(). */
  function evaluatedFirst(input: string, seen = new Set<string>()): string[] {
    if (seen.has(input) || !meta.run.inputs[input]) return [];
    seen.add(input);
    return [input, ...meta.run.inputs[input].imports.filter((i) => i.kind !== 'dynamic-import' && !i.external).flatMap((i) => evaluatedFirst(i.path, seen))];
  }
  const all = [meta.light, meta.run, ...Object.values(meta.vendors)].flatMap((m) => Object.keys(m.inputs));

  it('is dist/cli/main.js, the bin, one CommonJS script, and holds no Vitest', () => {
    expect(Object.keys(meta.light.outputs).filter((file) => file.endsWith('.js'))).toEqual(['dist/cli/main.js']);
    // the folder's own package.json: Node loads its .js files without the ES module loader
    expect(JSON.parse(readFileSync(join(DIST, 'cli', 'package.json'), 'utf8'))).toEqual({ type: 'commonjs' });
    expect(all.filter((input) => /vitest|^suites\/|^test\//.test(input))).toEqual([]);
  });

  it('--version and --help load no part of a run, and no package', () => {
    expect(light).toContain('cli/cli.ts');
    expect(light).toContain('harness/config/settings.ts');
    expect(light.filter((file) => /^(harness\/(run|http|api)|reporters|reference|checks)\/|node_modules\//.test(file))).toEqual([]);
    // and read none of the scripts a command loads: seen by a probe preloaded into the bin
    const folder = mkdtempSync(join(tmpdir(), 'built-test-'));
    try {
      const probe = join(folder, 'probe.cjs');
      writeFileSync(
        probe,
        "const fs = require('node:fs'); const read = fs.readFileSync; const seen = []; fs.readFileSync = function (file, ...rest) { seen.push(String(file)); return read.call(this, file, ...rest); }; process.on('exit', () => process.stderr.write(JSON.stringify(seen)));",
      );
      const scriptsRead = (flag: string) => {
        const run = spawnSync(process.execPath, ['--require', probe, join(DIST, 'cli', 'main.js'), flag], { encoding: 'utf8' });
        expect(run.status, flag).toBe(0);
        return (JSON.parse(run.stderr) as string[]).filter((file) => /\.cjs$/.test(file));
      };
      for (const flag of ['--version', '--help']) expect(scriptsRead(flag), flag).toEqual([]);
      expect(scriptsRead('--list')).toContain(join(DIST, 'cli', 'run.cjs'));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("the run script evaluates no command's module before the command is called", () => {
    expect(evaluatedFirst('cli/commands.ts')).toEqual(['cli/commands.ts']);
    for (const input of ['cli/certify.ts', 'cli/serve.ts', 'cli/verify.ts', 'reporters/catalogue-doc.ts'])
      expect(meta.run.inputs, input).toHaveProperty([input]);
  });

  it("a run is the project's code in run.cjs and the packages' in vendor scripts, each package evaluated when first asked for", () => {
    expect(Object.keys(meta.run.inputs).filter((input) => input.includes('node_modules/'))).toEqual([]);
    for (const [name, vendor] of Object.entries(meta.vendors)) {
      expect(
        Object.keys(vendor.inputs).filter((input) => !input.includes('node_modules/') && input !== `${name}-entry.js` && input !== 'badge-font:anafanafo'),
        name,
      ).toEqual([]);
    }
    const packages = Object.keys(meta.run.inputs).filter((input) => input.startsWith('vendor:'));
    expect(packages).toContain('vendor:undici/lib/dispatcher/agent.js');
    for (const input of packages) {
      const specifier = input.slice('vendor:'.length);
      const script = readFileSync(join(DIST, 'cli', `${meta.vendorScripts[specifier]}.cjs`), 'utf8');
      expect(script, input).toContain(`Object.defineProperty(exports, ${JSON.stringify(specifier)}, { enumerable: true, get: () =>`);
    }
    // what a run needs only sometimes is in a script of its own, read when first asked for
    expect(meta.vendorScripts['fast-check']).toBe('vendor-examples');
    expect(meta.vendorScripts['ajv/dist/2020.js']).toBe('vendor-compiler');
    expect(meta.vendorScripts['undici/lib/dispatcher/agent.js']).toBe('vendor');
  });

  it('a run evaluates neither the reporters, the embedded server, fast-check nor Ajv before it needs them', () => {
    const first = evaluatedFirst('cli/certify.ts');
    expect(first).toContain('harness/run/runner.ts');
    // but the console's progress lines, printed as the results come in
    expect(first.filter((input) => /^reporters\/(?!console\.ts$)|^reference\/|^vendor:(fast-check|ajv\/|ajv-formats$)/.test(input))).toEqual([]);
    // each is in the run, evaluated by an import() when it is needed
    for (const input of ['reporters/html.ts', 'reference/server.ts', 'harness/run/examples.ts', 'vendor:fast-check'])
      expect(meta.run.inputs, input).toHaveProperty([input]);
  });

  it("holds the one table of font metrics the badge measures with: its badges are badge-maker's own", async () => {
    const bundled = createRequire(import.meta.url)(join(DIST, 'cli', 'vendor-badge.cjs'))['badge-maker'] as typeof import('badge-maker');
    const { makeBadge } = await import('badge-maker');
    // measured with the ranges below U+0800 alone, with the whole table (✗ is U+2717; CJK, an astral emoji), and alone again
    for (const format of [
      { label: 'Animal Store API 1.0.0', message: 'compliant · 65/66 judged', color: 'brightgreen' },
      { label: 'Tierladen-API 2.1.0-β', message: 'non-compliant · 7/66 judged · ✗', color: 'red' },
      { label: '動物店 API 1.0.0 🐾', message: 'incomplete · 12/66 judged', color: 'orange' },
      { label: 'Animal Store API 1.0.0', message: 'compliant · 65/66 judged', color: 'brightgreen' },
    ])
      expect(bundled.makeBadge(format)).toBe(makeBadge(format));
    expect(() => bundled.makeBadge({ message: 'm', style: 'for-the-badge' })).toThrow(/Unknown font "bold 10px Verdana"/);
    expect(statSync(join(DIST, 'cli', 'vendor-badge.cjs')).size).toBeLessThan(400 * 1024);
  });

  it("names the Node modules a run imports, loaded before the run's V8 flags are set", () => {
    expect(meta.builtins).toEqual(expect.arrayContaining(['node:http', 'node:net', 'node:zlib', 'node:crypto']));
    // and those the build's run loaded besides: the embedded server's listen() loads node:cluster
    expect(meta.builtins).toContain('node:cluster');
    expect(JSON.parse(readFileSync(join(DIST, 'cli', 'builtins.json'), 'utf8'))).toEqual(meta.builtins);
    // undici's HTTP/2 client is loaded when first used (never, but with allowH2)
    expect(meta.builtins).not.toContain('node:http2');
  });

  it('comes with code caches, and stack traces name the TypeScript sources', async () => {
    // every script the build's run loaded; Ajv's compiler only compiles a spec edited since the build
    for (const file of ['run.cjs', ...Object.keys(meta.vendors).map((name) => `${name}.cjs`)])
      expect(existsSync(join(DIST, 'cli', `${file}.cache`)), file).toBe(file !== 'vendor-compiler.cjs');
    for (const file of ['dist/cli/main.js', 'dist/cli/run.cjs']) expect(existsSync(join(PACKAGE_ROOT, `${file}.map`)), file).toBe(true);
    // a package's frames stay as they are
    for (const name of Object.keys(meta.vendors)) expect(existsSync(join(DIST, 'cli', `${name}.cjs.map`)), name).toBe(false);
    // the run script, loaded as the bin loads it (its loader bundled from the same sources),
    // fails on a bad setting: its frames are mapped to the sources
    const shared = Object.keys(meta.run.inputs)
      .filter((input) => input.startsWith('shared:'))
      .map((input) => input.slice('shared:'.length));
    const entry = [
      "import { mapStackTraces } from './cli/stack-traces.ts';",
      "import { loadRun } from './cli/bundle-loader.ts';",
      ...shared.map((path, i) => `import * as shared${i} from './${path}';`),
      'mapStackTraces();',
      `const run = loadRun({ ${shared.map((path, i) => `${JSON.stringify(path)}: shared${i}`).join(', ')} }, ${JSON.stringify(meta.vendorScripts)});`,
      "run.certify({ values: {} }, { BASE_URL: 'not a url', ENV_FILE: '/dev/null' }).catch((err) => console.log(err.stack));",
    ].join('\n');
    const loader = await build({
      stdin: { contents: entry, resolveDir: PACKAGE_ROOT, loader: 'ts' },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      write: false,
      // its modules find the package where the bin does
      define: { 'import.meta.url': JSON.stringify(pathToFileURL(join(DIST, 'cli', 'main.js')).href) },
    });
    const stack = execFileSync(process.execPath, ['-e', loader.outputFiles[0].text], { encoding: 'utf8' });
    expect(stack).toMatch(/^ConfigError|^Error/);
    expect(stack).toMatch(/at prepareRun \(.*harness\/run\/prepare\.ts:\d+:\d+\)/);
    expect(stack).toMatch(/at (Object\.)?certify \(.*cli\/certify\.ts:\d+:\d+\)/);
  });
});
