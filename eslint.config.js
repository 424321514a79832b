// ESLint (flat config): the recommended rules of ESLint and typescript-eslint (not the
// type-checked ones: those run the compiler and are slow on this machine; `npm run
// typecheck` covers types), and the import-layer rule. Formatting is
// Prettier's job (`npm run format`); these recommended sets hold no stylistic rules.
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

// The harness layers, lowest first: a file in harness/<layer> imports only from its own
// layer or lower ones. The verdict is below the run: the runner builds the report from
// it, and the reporters read it without the run.
const LAYERS = ['model', 'http', 'api', 'config', 'verdict', 'run'];

// Top-level folders a folder must not import from. harness/ is the base everything else
// builds on; checks are handed to the runner by cli/, suites/ and test/; reporters read
// the run's results only; the reference server stands alone. Folders not listed
// (cli/, suites/, test/, bench/) may import anything.
const FORBIDDEN = {
  harness: ['checks', 'reference', 'cli', 'suites', 'reporters', 'test', 'bench'],
  checks: ['reference', 'cli', 'suites', 'reporters', 'test', 'bench'],
  reporters: ['checks', 'reference', 'cli', 'suites', 'test', 'bench'],
  reference: ['harness', 'checks', 'cli', 'suites', 'reporters', 'test', 'bench'],
};

// A path as folders relative to the project ('harness/run/x.ts' -> ['harness', 'run', 'x.ts']),
// or undefined outside it (a package, node_modules).
function projectPath(cwd, file) {
  const rel = relative(cwd, file);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  const parts = rel.split(sep);
  return parts[0] === 'node_modules' ? undefined : parts;
}

// harness/<layer>/... -> the layer's name; a file directly in harness/ has none
const layerOf = (parts) => (parts.length > 2 ? parts[1] : parts.at(-1));

// Why `from` may not import `to` (both project paths), or undefined if it may.
export function violation(from, to) {
  const [fromTop, toTop] = [from[0], to[0]];
  if (FORBIDDEN[fromTop]?.includes(toTop)) return `${fromTop}/ must not import ${toTop}/`;
  if (fromTop !== 'harness' || toTop !== 'harness') return undefined;
  const [fromLayer, toLayer] = [layerOf(from), layerOf(to)];
  for (const layer of [fromLayer, toLayer]) {
    if (!LAYERS.includes(layer)) return `harness/${layer} is in no layer (harness files live in ${LAYERS.map((l) => `harness/${l}`).join(', ')})`;
  }
  if (LAYERS.indexOf(toLayer) > LAYERS.indexOf(fromLayer)) {
    return `harness/${fromLayer} must not import the higher layer harness/${toLayer} (layers, lowest first: ${LAYERS.join(' < ')})`;
  }
  return undefined;
}

// Resolves each relative module specifier by path (no file lookup, so './x.js' for x.ts
// is fine) and judges it. Covers static and type-only imports, re-exports, dynamic
// import() and import('...') types, which no-restricted-imports does not all see.
const layerImports = {
  meta: { type: 'problem', docs: { description: 'Imports follow the project layers' }, schema: [] },
  create(context) {
    const from = projectPath(context.cwd, context.filename);
    if (!from) return {};
    const check = (node, specifier) => {
      if (typeof specifier !== 'string' || !(specifier.startsWith('.') || isAbsolute(specifier))) return;
      const to = projectPath(context.cwd, resolve(dirname(context.filename), specifier));
      const why = to && violation(from, to);
      if (why) context.report({ node, message: `'${specifier}': ${why}` });
    };
    const withSource = (node) => node.source && check(node.source, node.source.value);
    return {
      ImportDeclaration: withSource,
      ExportNamedDeclaration: withSource,
      ExportAllDeclaration: withSource,
      ImportExpression: (node) => {
        const s = node.source;
        if (s.type === 'Literal') check(s, s.value);
        else if (s.type === 'TemplateLiteral' && s.expressions.length === 0) check(s, s.quasis[0].value.cooked);
      },
      TSImportType: (node) => check(node, (node.source ?? node.argument?.literal)?.value),
      TSExternalModuleReference: (node) => check(node.expression, node.expression.value),
    };
  },
};

export default defineConfig(
  globalIgnores(['dist/', 'reports/', 'node_modules/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // Server JSON is typed `any` on purpose (ex.json, Record<string, any>): the checks
      // probe bodies of unknown shape and validate them against the spec's schemas.
      '@typescript-eslint/no-explicit-any': 'off',
      // The sanitisers (XML/HTML escaping, the reference server's stored text) and their
      // tests match control characters on purpose.
      'no-control-regex': 'off',
      // `const { dropped: _x, ...rest } = value` is how a key is left out
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    files: ['**/*.ts'],
    plugins: { project: { rules: { 'layer-imports': layerImports } } },
    rules: { 'project/layer-imports': 'error' },
  },
);
