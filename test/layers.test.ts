// The import-layer rule of eslint.config.js: it fires on imports against the
// layers, passes those along them, and the real tree's import graph keeps to it, so `npm
// test` fails on a violation even where `npm run lint` is not run.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../harness/model/paths.js';
// @ts-expect-error: the ESLint config is JavaScript, without types
import { violation as untypedViolation } from '../eslint.config.js';

const RULE = 'project/layer-imports';
/** Why `from` may not import `to` (project paths as folders), or undefined if it may. */
const violation: (from: string[], to: string[]) => string | undefined = untypedViolation;
// the project's own config, with only the layer rule switched on
const eslint = new ESLint({ cwd: PACKAGE_ROOT, ruleFilter: ({ ruleId }) => ruleId === RULE });

/** The layer rule's messages (and any parse error) for `code` as if it were the file at `filePath`. */
async function layerMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.map((m) => `${m.ruleId ?? 'parse error'}: ${m.message}`);
}

describe('import layers (eslint.config.js)', () => {
  it.each([
    ['harness/run/x.ts', "import { conformanceChecks } from '../../checks/index.js';", 'harness/ must not import checks/'],
    ['harness/model/x.ts', "import { runConformance } from '../run/runner.js';", 'harness/model must not import the higher layer harness/run'],
    ['harness/http/x.ts', "export * from '../api/spec.js';", 'harness/http must not import the higher layer harness/api'],
    ['harness/config/x.ts', "export { startRun } from '../run/runner.js';", 'harness/config must not import the higher layer harness/run'],
    // type-only imports count too, and so do import() types and dynamic imports
    ['harness/model/x.ts', "import type { Settings } from '../config/settings.js';", 'harness/model must not import the higher layer harness/config'],
    ['harness/api/x.ts', "export type T = import('../run/session.js').Session;", 'harness/api must not import the higher layer harness/run'],
    ['harness/verdict/x.ts', "import type { Session } from '../run/session.js';", 'harness/verdict must not import the higher layer harness/run'],
    ['harness/config/x.ts', "import { countResults } from '../verdict/report.js';", 'harness/config must not import the higher layer harness/verdict'],
    ['harness/run/x.ts', "export const load = () => import('../../reference/server.js');", 'harness/ must not import reference/'],
    // any spelling of the path that leads there
    ['harness/model/x.ts', "import '../../harness/./run/runner.js';", 'harness/model must not import the higher layer harness/run'],
    ['harness/misc/x.ts', "import '../model/json.js';", 'harness/misc is in no layer'],
    ['checks/x.ts', "import { startReferenceServer } from '../reference/server.js';", 'checks/ must not import reference/'],
    ['checks/x.ts', "import { renderHtml } from '../reporters/html.js';", 'checks/ must not import reporters/'],
    ['reporters/x.ts', "import { conformanceChecks } from '../checks/index.js';", 'reporters/ must not import checks/'],
    ['reporters/x.ts', "import type { Target } from '../cli/target.js';", 'reporters/ must not import cli/'],
    ['reference/x.ts', "import type { Json } from '../harness/model/json.js';", 'reference/ must not import harness/'],
  ])('%s: %s is an error', async (filePath, code, why) => {
    const messages = await layerMessages(filePath, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(`${RULE}: `);
    expect(messages[0]).toContain(why);
  });

  it.each([
    ['harness/api/x.ts', "import { request } from '../http/client.js';"],
    ['harness/run/x.ts', "import { buildReport } from '../verdict/report.js';\nimport { ConfigError } from '../config/values.js';"],
    ['harness/verdict/x.ts', "import { ConfigError } from '../config/values.js';\nimport { AREAS } from '../api/catalogue.js';"],
    ['harness/run/x.ts', "import { a } from './session.js';\nimport { b } from '../model/json.js';\nexport const c = () => import('./examples.js');"],
    ['harness/model/x.ts', "import { readFileSync } from 'node:fs';\nimport { parse } from 'yaml';"],
    ['checks/x.ts', "import { expectStatus } from '../harness/run/expect.js';\nimport { helper } from './errors.js';"],
    ['reporters/x.ts', "import type { RunReport } from '../harness/model/types.js';"],
    ['reference/x.ts', "import { createServer } from 'node:http';\nimport { faults } from './faults.js';"],
    // the folders that assemble a run may import anything
    ['cli/x.ts', "import '../checks/index.js';\nimport '../reference/server.js';\nimport '../reporters/html.js';"],
    ['test/x.test.ts', "import '../checks/index.js';\nimport '../reference/server.js';\nimport '../cli/target.js';"],
  ])('%s: %s is fine', async (filePath, code) => {
    expect(await layerMessages(filePath, code)).toEqual([]);
  });
});

/** Every project source file (tests, generated and installed files aside) with the project files it imports. */
function importGraph(): Map<string, string[]> {
  const files = readdirSync(PACKAGE_ROOT, { recursive: true, encoding: 'utf8' }).filter(
    (f) => /\.ts$/.test(f) && !/^(node_modules|dist|test)\//.test(f) && !f.endsWith('.d.ts'),
  );
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(PACKAGE_ROOT, file), 'utf8');
    const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((m) => m[1]);
    graph.set(
      file,
      specifiers.map((s) => relative(PACKAGE_ROOT, resolve(dirname(join(PACKAGE_ROOT, file)), s)).replace(/\.js$/, '.ts')),
    );
  }
  return graph;
}

describe('the import graph', () => {
  const graph = importGraph();

  // the rule's own judgement over every import of the tree (its wiring into ESLint is tested above)
  it('keeps to the layers', () => {
    const violations = [...graph].flatMap(([file, imports]) =>
      imports.flatMap((to) => {
        const why = violation(file.split('/'), to.split('/'));
        return why ? [`${file} imports ${to}: ${why}`] : [];
      }),
    );
    expect(graph.size).toBeGreaterThan(50);
    expect(violations).toEqual([]);
  });

  it('has no circle anywhere', () => {
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') return void circles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(graph.size).toBeGreaterThan(50);
    expect(circles).toEqual([]);
  });

  it('lets a check import its context and the kit only, at most three harness modules', () => {
    const checks = [...graph].filter(([file]) => file.startsWith('checks/') && file !== 'checks/index.ts');
    expect(checks.length).toBeGreaterThan(5);
    for (const [file, imports] of checks) {
      const harness = new Set(imports.filter((i) => i.startsWith('harness/')));
      expect([...harness].length, `${file}: ${[...harness].join(', ')}`).toBeLessThanOrEqual(3);
    }
  });
});
