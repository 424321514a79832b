// Runs a composite action (action.yml) the way GitHub's runner does, for the self-tests:
// each input takes the value given in `with`, or its default when left out (a value given
// empty stays empty); every ${{ }} expression of a step's env and script is evaluated by
// GitHub's own expression library (@actions/expressions) over the inputs, github, runner
// and steps contexts; each `run:` step is a bash script run with GitHub's bash options,
// GITHUB_OUTPUT a file of its own and GITHUB_STEP_SUMMARY one for the whole action; the
// first step that fails ends the action; the action's outputs are evaluated at the end.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Evaluator, Lexer, Parser, data } from '@actions/expressions';
import { parse } from 'yaml';

interface ActionFile {
  inputs?: Record<string, { default?: string; required?: boolean }>;
  outputs?: Record<string, { value: string }>;
  runs: { using: string; steps: Array<{ id?: string; name?: string; shell?: string; run?: string; uses?: string; if?: string; env?: Record<string, string> }> };
}

export interface ActionRun {
  /** The exit code of the step that failed, or 0. */
  code: number;
  outputs: Record<string, string>;
  summary: string;
  stdout: string;
  stderr: string;
  /** The environment each step's script was given (its env: block, evaluated), by step id or name. */
  stepEnv: Record<string, Record<string, string>>;
}

/** The runner's own functions (always(), hashFiles(), ...), which the library leaves to its host. */
export type RunnerFunctions = Record<string, (...args: string[]) => string | boolean>;

function evaluate(expression: string, contexts: Record<string, unknown>, functions: RunnerFunctions): data.ExpressionData {
  const { tokens } = new Lexer(expression).lex();
  const definitions = Object.entries(functions).map(([name, call]) => ({
    name,
    minArgs: call.length,
    maxArgs: call.length,
    call: (...args: data.ExpressionData[]) => {
      const value = call(...args.map((a) => a.coerceString()));
      return typeof value === 'boolean' ? new data.BooleanData(value) : new data.StringData(value);
    },
  }));
  const tree = new Parser(tokens, Object.keys(contexts), definitions).parse();
  const context = JSON.parse(JSON.stringify(contexts), data.reviver) as data.Dictionary;
  return new Evaluator(tree, context, new Map(definitions.map((d) => [d.name.toLowerCase(), d]))).evaluate();
}

/** The value of one expression (the text inside ${{ }}), as a string the way the runner substitutes it. */
export function evaluateExpression(expression: string, contexts: Record<string, unknown>): string {
  return evaluate(expression, contexts, {}).coerceString();
}

/** An if: condition, truthy as GitHub reads it (false, 0, '' and null are false). */
export function evaluateCondition(expression: string, contexts: Record<string, unknown>, functions: RunnerFunctions = {}): boolean {
  const value = evaluate(expression.replace(/^\s*\$\{\{(.*)\}\}\s*$/s, '$1'), contexts, functions);
  if (value instanceof data.BooleanData) return value.value;
  if (value instanceof data.NumberData) return value.value !== 0 && !Number.isNaN(value.value);
  if (value instanceof data.StringData) return value.value !== '';
  return !(value instanceof data.Null);
}

/** A text with each ${{ }} replaced by its value. */
export function substitute(text: string, contexts: Record<string, unknown>): string {
  return text.replace(/\$\{\{(.*?)\}\}/gs, (_, expression: string) => evaluateExpression(expression, contexts));
}

/** GITHUB_OUTPUT's lines: name=value, and name<<DELIMITER blocks. */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const block = /^([^=<]+)<<(.+)$/.exec(lines[i]);
    if (block) {
      const end = lines.indexOf(block[2], i + 1);
      outputs[block[1]] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (lines[i].includes('=')) {
      const at = lines[i].indexOf('=');
      outputs[lines[i].slice(0, at)] = lines[i].slice(at + 1);
    }
  }
  return outputs;
}

function bash(script: string, env: Record<string, string>, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  // the runner's `shell: bash`
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { env, cwd });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

/**
 * Runs the composite action at actionPath/action.yml with these inputs, in `workspace`
 * (the job's working directory), with the environment a runner gives a step (PATH, HOME
 * and the GITHUB_ variables) and nothing else of this process's.
 */
export async function runAction(actionPath: string, inputs: Record<string, string>, workspace: string): Promise<ActionRun> {
  const action = parse(await readFile(join(actionPath, 'action.yml'), 'utf8')) as ActionFile;
  if (action.runs.using !== 'composite') throw new Error(`not a composite action: ${action.runs.using}`);
  const declared = action.inputs ?? {};
  for (const name of Object.keys(inputs)) if (!(name in declared)) throw new Error(`Unexpected input '${name}' (the runner warns and ignores it)`);
  const temp = await mkdtemp(join(tmpdir(), 'runner-temp-'));
  const summaryFile = join(temp, 'step-summary.md');
  await writeFile(summaryFile, '');
  const contexts: Record<string, any> = {
    inputs: Object.fromEntries(Object.entries(declared).map(([name, spec]) => [name, name in inputs ? inputs[name] : (spec.default ?? '')])),
    github: { action_path: actionPath, workspace },
    runner: { temp, os: 'Linux' },
    steps: {},
    env: {},
  };
  const base = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? temp,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_ACTION_PATH: actionPath,
    GITHUB_WORKSPACE: workspace,
    GITHUB_STEP_SUMMARY: summaryFile,
    RUNNER_TEMP: temp,
  };
  const run: ActionRun = { code: 0, outputs: {}, summary: '', stdout: '', stderr: '', stepEnv: {} };
  for (const [index, step] of action.runs.steps.entries()) {
    if (step.uses || step.if) throw new Error(`step ${step.name ?? index}: only run: steps without if: are run here`);
    if (step.shell !== 'bash' || step.run === undefined) throw new Error(`step ${step.name ?? index}: a composite run: step needs shell: bash`);
    const outputFile = join(temp, `output-${index}`);
    await writeFile(outputFile, '');
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v), contexts)]));
    run.stepEnv[step.id ?? step.name ?? String(index)] = env;
    const script = join(temp, `step-${index}.sh`);
    await writeFile(script, substitute(step.run, contexts));
    const result = await bash(script, { ...base, ...env, GITHUB_OUTPUT: outputFile }, workspace);
    run.stdout += result.stdout;
    run.stderr += result.stderr;
    if (step.id) contexts.steps[step.id] = { outputs: parseOutputs(await readFile(outputFile, 'utf8')), outcome: result.code === 0 ? 'success' : 'failure' };
    if (result.code !== 0) {
      run.code = result.code;
      break;
    }
  }
  run.outputs = Object.fromEntries(Object.entries(action.outputs ?? {}).map(([name, spec]) => [name, substitute(spec.value, contexts)]));
  run.summary = await readFile(summaryFile, 'utf8');
  return run;
}
