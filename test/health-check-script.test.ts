// examples/health-check.sh as cron runs it: bash, a settings file, a state folder, the
// built CLI (dist/, made by npm test's pretest build) called by its path. Runs for real
// against the embedded reference server (a settings file without BASE_URL) and against a
// reference server with a fault; each health run takes about half a second.
import { spawn } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../harness/model/paths.js';
import { startReferenceServer } from '../reference/server.js';

const SCRIPT = join(PACKAGE_ROOT, 'examples/health-check.sh');
const REPORTS = ['compliance.json', 'junit.xml', 'report.html', 'metrics.prom'];

interface ScriptRun {
  code: number | null;
  output: string;
}

/** The script with a clean environment (as cron's: PATH and what is given), from a working directory of its own. */
async function runScript(script: string, args: string[], env: Record<string, string>): Promise<ScriptRun> {
  const cwd = await mkdtemp(join(tmpdir(), 'health-cwd-'));
  // the node running the tests, first on PATH: the script calls `node`
  const path = `${join(process.execPath, '..')}:${process.env.PATH ?? '/usr/bin:/bin'}`;
  const child = spawn('bash', [script, ...args], { cwd, env: { PATH: path, ...env } });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

/** A hook that records its arguments in a file of its own, one call a line. */
async function recordingHook(dir: string, name: string): Promise<{ path: string; calls: () => Promise<string[]> }> {
  const path = join(dir, name);
  const log = join(dir, `${name}.calls`);
  await writeFile(path, `#!/bin/sh\necho "$1 $2" >> '${log}'\n`);
  await chmod(path, 0o755);
  const calls = async () => (existsSync(log) ? (await readFile(log, 'utf8')).trim().split('\n') : []);
  return { path, calls };
}

/** A folder with a settings file of these lines, the state folder the script keeps, and both hooks recording their calls. */
async function scheduledCheck(settingsText: string) {
  const dir = await mkdtemp(join(tmpdir(), 'health-'));
  const settings = join(dir, 'health.env');
  await writeFile(settings, settingsText);
  const state = join(dir, 'state');
  const notCompliant = await recordingHook(dir, 'on-not-compliant');
  const notChecked = await recordingHook(dir, 'on-not-checked');
  const env = { STATE_DIR: state, ON_NOT_COMPLIANT: notCompliant.path, ON_NOT_CHECKED: notChecked.path };
  return { settings, state, notCompliant, notChecked, env };
}

const readReport = async (dir: string) => JSON.parse(await readFile(join(dir, 'compliance.json'), 'utf8'));

describe('examples/health-check.sh', () => {
  it('runs the health profile twice against the embedded server: exit 0, the reports, the second compared with the first', async () => {
    const { settings, state, notCompliant, notChecked, env } = await scheduledCheck('# no BASE_URL: the embedded reference server\nRETRIES=1\n');

    const first = await runScript(SCRIPT, [settings], env);
    expect(first.code, first.output).toBe(0);
    for (const file of REPORTS) expect(existsSync(join(state, file)), file).toBe(true);
    const firstReport = await readReport(state);
    expect(firstReport).toMatchObject({ profile: 'health', verdict: 'compliant', exitCode: 0 });
    expect(firstReport.sinceBaseline).toBeUndefined();

    const second = await runScript(SCRIPT, [settings], env);
    expect(second.code, second.output).toBe(0);
    const secondReport = await readReport(state);
    expect(secondReport.startedAt).not.toBe(firstReport.startedAt);
    expect(secondReport.sinceBaseline).toMatchObject({
      baseline: { startedAt: firstReport.startedAt, finishedAt: firstReport.finishedAt, verdict: 'compliant', profile: 'health' },
      newlyFailing: [],
      stillFailing: [],
    });
    expect(secondReport.sinceBaseline.compared).toBeGreaterThan(0);
    expect(second.output).toContain('Since the baseline');
    // no hook on a compliant run
    expect(await notCompliant.calls()).toEqual([]);
    expect(await notChecked.calls()).toEqual([]);
  });

  it('calls ON_NOT_COMPLIANT with the report folder on exit 1, and never shows the key', async () => {
    const key = 'health-script-secret-0123456789';
    const ref = await startReferenceServer({ apiKey: key, faults: ['no-auth-on-list'], prefill: 30 });
    try {
      const { settings, state, notCompliant, notChecked, env } = await scheduledCheck(`BASE_URL=${ref.baseUrl}\nAPI_KEY=${key}\n`);
      const run = await runScript(SCRIPT, [settings], env);
      expect(run.code, run.output).toBe(1);
      expect(await notCompliant.calls()).toEqual([`${state} 1`]);
      expect(await notChecked.calls()).toEqual([]);
      const report = await readReport(state);
      expect(report).toMatchObject({ profile: 'health', verdict: 'non-compliant' });
      expect(run.output).not.toContain(key);
      expect(await readFile(join(state, 'compliance.json'), 'utf8')).not.toContain(key);
    } finally {
      await ref.close();
    }
  });

  it('calls ON_NOT_CHECKED on exit 2: a settings file with an invalid value replaces the last reports with not tested, carrying the baseline forward', async () => {
    const { settings, state, notCompliant, notChecked, env } = await scheduledCheck('RETRIES=1\n');
    expect((await runScript(SCRIPT, [settings], env)).code).toBe(0);
    const good = await readReport(state);
    await writeFile(settings, 'RETRIES=abc\n');
    const run = await runScript(SCRIPT, [settings], env);
    expect(run.code, run.output).toBe(2);
    expect(run.output).toContain('RETRIES must be an integer');
    expect(run.output).toContain(`reports written to ${state}`);
    // no compliant verdict stays for a monitor or CI to read; the chain of baselines goes on
    expect(await readReport(state)).toMatchObject({
      verdict: 'not-tested',
      exitCode: 2,
      profile: 'health',
      configError: expect.stringContaining('RETRIES must be an integer'),
      sinceBaseline: { baseline: { startedAt: good.startedAt, verdict: 'compliant' } },
    });
    expect(await readFile(join(state, 'junit.xml'), 'utf8')).toContain('<error message="the run could not start: RETRIES must be an integer');
    expect(await readFile(join(state, 'metrics.prom'), 'utf8')).toMatch(
      /^animal_store_conformance_verdict\{verdict="not-tested",target="",profile="health"\} 1$/m,
    );
    expect(await notChecked.calls()).toEqual([`${state} 2`]);
    expect(await notCompliant.calls()).toEqual([]);
  });

  it('says no report was written when the state folder cannot take one', async () => {
    const { settings, state, notChecked, env } = await scheduledCheck('RETRIES=1\n');
    await writeFile(state, 'a file where the state folder should be');
    const run = await runScript(SCRIPT, [settings], env);
    expect(run.code, run.output).toBe(2);
    expect(run.output).toMatch(/REPORT_DIR .* is a file, not a folder/);
    expect(run.output).toContain('no report written');
    expect(await notChecked.calls()).toEqual([`${state} 2`]);
  });

  it('refuses in one line when dist/ is not built, and when no settings file is given', async () => {
    // a copy of the script in a clone without dist/
    const clone = await mkdtemp(join(tmpdir(), 'health-clone-'));
    await mkdir(join(clone, 'examples'));
    const copy = join(clone, 'examples/health-check.sh');
    await copyFile(SCRIPT, copy);
    const settings = join(clone, 'health.env');
    await writeFile(settings, '');
    const notChecked = await recordingHook(clone, 'on-not-checked');
    const unbuilt = await runScript(copy, [settings], { STATE_DIR: join(clone, 'state'), ON_NOT_CHECKED: notChecked.path });
    expect(unbuilt.code).toBe(2);
    expect(unbuilt.output).toMatch(/^\S+ health-check: the tool is not built: .*dist\/cli\/main\.js is missing; run npm ci/);
    expect(unbuilt.output.trim().split('\n')).toHaveLength(2); // the line, and the hook's announcement
    expect(await notChecked.calls()).toEqual([`${join(clone, 'state')} 2`]);

    const usage = await runScript(SCRIPT, [], { STATE_DIR: join(clone, 'state') });
    expect(usage.code).toBe(2);
    expect(usage.output).toMatch(/usage: .*health-check\.sh SETTINGS_FILE/);
  });
});
