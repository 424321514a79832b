// action.yml as GitHub's runner runs it (test/support/action-runner.ts): its inputs are
// the settings, generated from their declarations; left out, an input leaves its variable
// unset (no BASE_URL: the embedded reference server is certified), given empty it is
// refused as the CLI refuses it; the outputs are the verdict, the exit code and the report
// folder; the job summary and the annotations are written as the CLI writes them. And the
// example workflow uses it with inputs it has.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PACKAGE_ROOT } from '../harness/model/paths.js';
import { ENV_FILE_SETTING, SETTINGS } from '../harness/config/settings.js';
import { ACTION_UNSET, withActionSettings } from '../harness/config/settings-doc.js';
import { startReferenceServer } from '../reference/server.js';
import { evaluateExpression, parseOutputs, runAction } from './support/action-runner.js';

const ACTION = join(PACKAGE_ROOT, 'action.yml');
const SETTING_LIST = [...Object.values(SETTINGS), ENV_FILE_SETTING];

describe('action.yml', () => {
  it('is generated from the settings and up to date (npm run docs): an input per setting, named by its flag, mapped to its variable', async () => {
    const text = await readFile(ACTION, 'utf8');
    expect(text).toBe(withActionSettings(text));
    const action = parse(text);
    expect(Object.keys(action.inputs).sort()).toEqual(SETTING_LIST.map((s) => s.flag).sort());
    for (const input of Object.values<any>(action.inputs)) expect(input).toMatchObject({ required: false, default: ACTION_UNSET });
    const certify = action.runs.steps.find((s: any) => s.id === 'conformance');
    expect(certify.env).toEqual(Object.fromEntries(SETTING_LIST.map((s) => [s.env, `\${{ inputs.${s.flag} }}`])));
    expect(Object.keys(action.outputs).sort()).toEqual(['exit-code', 'report-dir', 'verdict']);
  });

  it('with no input, certifies the embedded reference server: outputs compliant, 0 and the report folder; the job summary written', async () => {
    const workspace = await mkdtemp(join(tmpdir(), 'action-workspace-'));
    const run = await runAction(PACKAGE_ROOT, {}, workspace);
    expect(run.code, run.stderr).toBe(0);
    // an input left out sets no variable: no BASE_URL, so the embedded server
    expect(run.stderr).toContain('No BASE_URL configured: certifying the embedded reference server');
    expect(run.outputs).toEqual({ verdict: 'compliant', 'exit-code': '0', 'report-dir': join(workspace, 'reports') });
    for (const file of ['compliance.json', 'junit.xml', 'report.html', 'metrics.prom', 'exchanges.har', 'certificate.json', 'badge.svg']) {
      expect(existsSync(join(workspace, 'reports', file)), file).toBe(true);
    }
    expect(run.summary).toContain('## ✅ Animal Store conformance: compliant');
    expect(run.stdout).not.toContain('::error');
  });

  it('against a broken server: outputs non-compliant and 1, the step fails, ::error annotations, the summary names the requirement, no key anywhere', async () => {
    const key = 'action-secret-key-7d41c0e9b2';
    const ref = await startReferenceServer({ apiKey: key, faults: ['no-auth-on-list'] });
    try {
      const workspace = await mkdtemp(join(tmpdir(), 'action-workspace-'));
      const run = await runAction(
        PACKAGE_ROOT,
        { 'base-url': ref.baseUrl, 'api-key': key, 'quickstart-base-url': ref.quickstartBaseUrl, 'report-dir': 'out', 'exchange-log': 'off' },
        workspace,
      );
      expect(run.code).toBe(1);
      expect(run.outputs).toEqual({ verdict: 'non-compliant', 'exit-code': '1', 'report-dir': join(workspace, 'out') });
      expect(run.stdout).toMatch(/^::error title=AUTH-MISSING-HEADER \(MUST\)::/m);
      expect(run.summary).toContain('AUTH-MISSING-HEADER');
      expect(existsSync(join(workspace, 'out', 'exchanges.har'))).toBe(false);
      const outputFiles = await Promise.all(['compliance.json', 'certificate.json'].map((f) => readFile(join(workspace, 'out', f), 'utf8')));
      for (const text of [run.stdout, run.stderr, run.summary, JSON.stringify(run.outputs), ...outputFiles]) expect(text.includes(key)).toBe(false);
    } finally {
      await ref.close();
    }
  });

  it('an input given empty (a secret that does not exist) is refused as the CLI refuses it: exit code 2, one line, reports that say not tested', async () => {
    const workspace = await mkdtemp(join(tmpdir(), 'action-workspace-'));
    const run = await runAction(PACKAGE_ROOT, { 'base-url': 'https://api.example.com/v1', 'api-key': '' }, workspace);
    expect(run.code).toBe(2);
    expect(run.outputs).toEqual({ verdict: 'not-tested', 'exit-code': '2', 'report-dir': join(workspace, 'reports') });
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^animal-store-conformance: API_KEY is set but empty/)]);
    expect(await readFile(join(workspace, 'reports', 'junit.xml'), 'utf8')).toContain('<error message="the run could not start: API_KEY is set but empty');
    expect(run.summary).toContain('the run could not start: API_KEY is set but empty');
  });

  it('the runner emulation reads expressions and step outputs as GitHub does', () => {
    expect(evaluateExpression(" inputs.a || 'x' ", { inputs: { a: '' } })).toBe('x');
    expect(evaluateExpression('steps.s.outputs.missing', { steps: { s: { outputs: {} } } })).toBe('');
    expect(parseOutputs('a=1\nb<<EOF_x\nline 1\nline 2\nEOF_x\nc=x=y\n')).toEqual({ a: '1', b: 'line 1\nline 2', c: 'x=y' });
  });
});

describe('examples/github-actions.yml', () => {
  it('certifies and health-checks through the action, with inputs the action has', async () => {
    const inputs = Object.keys(parse(await readFile(ACTION, 'utf8')).inputs);
    const workflow = parse(await readFile(join(PACKAGE_ROOT, 'examples/github-actions.yml'), 'utf8'));
    const uses = Object.values<any>(workflow.jobs).flatMap((job) => job.steps.filter((s: any) => s.uses === './'));
    expect(uses.length).toBe(2);
    for (const step of uses) for (const name of Object.keys(step.with ?? {})) expect(inputs, name).toContain(name);
    // nothing runs the suite but the action
    const runs = Object.values<any>(workflow.jobs).flatMap((job) => job.steps.map((s: any) => s.run ?? ''));
    expect(runs.filter((r: string) => /npm run conformance|dist\/cli\/main\.js/.test(r))).toEqual([]);
  });
});
