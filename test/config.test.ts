// Configuration: flags over environment over .env; every bad input is a ConfigError.
import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../harness/config/settings.js';
import { parseCommandLine, refusedRunSettings, resolveConfig } from '../harness/config/resolve.js';
import { ConfigError } from '../harness/config/values.js';
import { renderEnvExample, withSettingsTable } from '../harness/config/settings-doc.js';
import { PACKAGE_ROOT } from '../harness/model/paths.js';
import { formatSize, sizeSetting } from '../harness/model/units.js';
import { sessionOptionsFor } from '../harness/run/session.js';

const resolve = (argv: string[], env: Record<string, string> = {}, cwd = '/nonexistent') => resolveConfig(parseCommandLine(argv), env, cwd);

describe('configuration', () => {
  it('with nothing configured, certifies the embedded server', () => {
    const c = resolve([]);
    expect(c).toMatchObject({ environment: 'embedded', profile: 'certify', reportDir: 'reports' });
    expect(c.baseUrl).toBeUndefined();
  });

  it('takes flags over the environment over .env', async () => {
    const dir = await mkdtemp(`${tmpdir()}/cfg-`);
    await writeFile(`${dir}/.env`, 'BASE_URL=https://file.test/v1\nAPI_KEY=from-file\nPROFILE=health\n');
    expect(resolve([], {}, dir)).toMatchObject({ baseUrl: 'https://file.test/v1', apiKey: 'from-file', profile: 'health', environment: 'production' });
    expect(resolve([], { API_KEY: 'from-env' }, dir).apiKey).toBe('from-env');
    expect(resolve(['--api-key', 'from-flag', '--profile=certify'], { API_KEY: 'from-env' }, dir)).toMatchObject({ apiKey: 'from-flag', profile: 'certify' });
  });

  it('picks the staging base address with TARGET=staging', () => {
    const c = resolve(['--target', 'staging'], { BASE_URL: 'https://prod.test/v1', STAGING_BASE_URL: 'https://staging.test/v1/', API_KEY: 'k' });
    expect(c).toMatchObject({ environment: 'staging', baseUrl: 'https://staging.test/v1' });
  });

  it('sends 32 requests at once to a configured server, 8 to the embedded one (in the same process); CONCURRENCY wins', () => {
    const base = { BASE_URL: 'https://prod.test/v1', API_KEY: 'k' };
    expect(resolve([], base).concurrency).toBe(32);
    expect(resolve(['--target', 'staging'], { STAGING_BASE_URL: 'https://staging.test/v1', API_KEY: 'k' }).concurrency).toBe(32);
    expect(resolve([]).concurrency).toBe(8);
    // TARGET=embedded: the embedded server, whatever addresses are set
    expect(resolve(['--target', 'embedded'], base)).toMatchObject({ environment: 'embedded', baseUrl: undefined, apiKey: undefined, concurrency: 8 });
    expect(resolve(['--concurrency', '64']).concurrency).toBe(64);
    expect(resolve([], { ...base, CONCURRENCY: '4' }).concurrency).toBe(4);
    // empty, it is refused, saying what unsetting it gives
    expect(() => resolve([], { CONCURRENCY: '' })).toThrow(
      /CONCURRENCY is set but empty .*unset it for the default, 32; 8 against the embedded reference server$/,
    );
  });

  it('reads durations with or without a unit', () => {
    expect(resolve(['--timeout', '1500', '--deadline', '90s'])).toMatchObject({ timeoutMs: 1500, deadlineMs: 90_000 });
    expect(resolve([], { REQUEST_TIMEOUT_MS: '500ms', RUN_DEADLINE_MS: '2m' })).toMatchObject({ timeoutMs: 500, deadlineMs: 120_000 });
    expect(resolve([]).clockToleranceMs).toBe(5 * 60_000);
    expect(resolve(['--clock-tolerance', '2h']).clockToleranceMs).toBe(2 * 3_600_000);
  });

  it('reads the body cap in bytes or with a binary unit (default 16 MiB), reaching the session; 0 and other units are refused', () => {
    expect(resolve([]).maxBodyBytes).toBe(16 * 1024 * 1024);
    expect(resolve(['--max-body', '64MiB']).maxBodyBytes).toBe(64 * 1024 * 1024);
    expect(resolve([], { MAX_BODY: '512kib' }).maxBodyBytes).toBe(512 * 1024);
    expect(resolve([], { MAX_BODY: '1048576' }).maxBodyBytes).toBe(1024 * 1024);
    expect(sessionOptionsFor(resolve(['--max-body', '1MiB']), { environment: 'embedded', baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'k' }).maxBodyBytes).toBe(
      1024 * 1024,
    );
    for (const bad of ['0', '0MiB', '16MB', 'lots', '-1']) expect(() => resolve([], { MAX_BODY: bad }), bad).toThrow(/^MAX_BODY must be a size above 0/);
    expect(() => resolve([], { MAX_BODY: '' })).toThrow(/MAX_BODY is set but empty/);
    expect([formatSize(16 * 1024 * 1024), sizeSetting(64 * 1024 * 1024), formatSize(1000), sizeSetting(1536)]).toEqual([
      '16 MiB',
      '64MiB',
      '1000 bytes',
      '1536',
    ]);
  });

  it('reads the generated examples and their seed (default: 5, a seed drawn by the run)', () => {
    expect(resolve([])).toMatchObject({ examples: 5 });
    // drawn when not given, so that the run can be replayed with it
    expect(resolve([]).seed).toEqual(expect.any(Number));
    expect(resolve([]).seed).not.toBe(resolve([]).seed);
    expect(resolve(['--examples', '0', '--seed', '42'])).toMatchObject({ examples: 0, seed: 42 });
    expect(resolve([], { EXAMPLES: '12', SEED: '2147483647' })).toMatchObject({ examples: 12, seed: 2147483647 });
  });

  it('falls back to API_KEY for the quickstart service', () => {
    const c = resolve([], { BASE_URL: 'https://a.test/v1', API_KEY: 'k', QUICKSTART_BASE_URL: 'https://q.test' });
    expect(c).toMatchObject({ quickstartBaseUrl: 'https://q.test', quickstartApiKey: 'k' });
  });

  it.each([
    [['--bogus'], {}, /Unknown option '--bogus'/],
    [[], { BASE_URL: 'https://a.test/v1' }, /API_KEY is not/],
    [[], { BASE_URL: 'not a url', API_KEY: 'k' }, /not a valid URL/],
    [[], { BASE_URL: 'ftp://a.test/v1', API_KEY: 'k' }, /http or https/],
    [[], { BASE_URL: 'http://a.test/v2', API_KEY: 'k' }, /must end in the path segment \/v1/],
    [[], { PROFILE: 'full' }, /PROFILE must be one of/],
    [['--target', 'staging'], {}, /STAGING_BASE_URL is not set/],
    [['--timeout', '0'], {}, /a duration such as/],
    [['--deadline', 'soon'], {}, /RUN_DEADLINE_MS must be a duration/],
    [['--now', 'someday'], {}, /not a date/],
    [['--dotenv', '/nonexistent/.env'], {}, /cannot read env file/],
    // present but empty: what a missing CI secret expands to; never the embedded server or a default
    [[], { BASE_URL: '' }, /^BASE_URL is set but empty \(a missing CI secret expands to an empty string\)/],
    [[], { BASE_URL: '', API_KEY: 'k', GITHUB_ACTIONS: 'true' }, /^BASE_URL is set but empty/],
    [[], { BASE_URL: 'https://a.test/v1', API_KEY: '' }, /^API_KEY is set but empty/],
    [[], { QUICKSTART_BASE_URL: '' }, /^QUICKSTART_BASE_URL is set but empty/],
    [[], { STAGING_BASE_URL: '' }, /^STAGING_BASE_URL is set but empty/],
    [[], { REPORT_DIR: '' }, /^REPORT_DIR is set but empty .*unset it for the default, reports$/],
    [['--base-url', ''], {}, /^--base-url is set but empty/],
    [[], { ENV_FILE: '' }, /^ENV_FILE is set but empty/],
    // a key an Authorization header cannot carry is refused, not trimmed
    [
      [],
      { BASE_URL: 'https://a.test/v1', API_KEY: 'pasted-secret\n' },
      /^API_KEY contains a character an HTTP header cannot carry \(a newline at its end\?\)$/,
    ],
    [[], { BASE_URL: 'https://a.test/v1', API_KEY: 'pasted-secret\r\n' }, /\(a newline at its end\?\)$/],
    [
      [],
      { TARGET: 'embedded', QUICKSTART_BASE_URL: 'https://q.test', QUICKSTART_API_KEY: 'pasted\u0001secret' },
      /^QUICKSTART_API_KEY contains a character an HTTP header cannot carry \(a control character\?\)$/,
    ],
    [[], { BASE_URL: 'https://a.test/v1', API_KEY: 'pasted-secret ' }, /^API_KEY begins or ends with white space/],
    // a number without a unit under 100 was meant as seconds
    [['--timeout', '5'], {}, /^REQUEST_TIMEOUT_MS=5 is 5 milliseconds; give a unit \(5s\) or at least 100 ms$/],
    [[], { RUN_DEADLINE_MS: '90' }, /^RUN_DEADLINE_MS=90 is 90 milliseconds; give a unit \(90s\)/],
    [[], { STRICT: 'maybe' }, /^STRICT must be one of 1, true, yes, on, y \(on\) or 0, false, no, off, n \(off\), in any case; got maybe$/],
    [['--examples=-1'], {}, /EXAMPLES must be an integer of at least 0/],
    [['--seed', '2147483648'], {}, /SEED must be an integer from 0 to 2147483647/],
    [['--seed', 'abc'], {}, /SEED must be an integer/],
  ])('rejects %j %j', (argv, env, message) => {
    expect(() => resolve(argv as string[], env as Record<string, string>)).toThrow(ConfigError);
    expect(() => resolve(argv as string[], env as Record<string, string>)).toThrow(message as RegExp);
  });

  // a key or an address with no base address is meant for a server of the user's (a CI
  // secret missing on this branch): never the embedded server, which would pass
  it.each([
    [{ API_KEY: 'k' }, 'API_KEY is set but BASE_URL is not'],
    [{ QUICKSTART_BASE_URL: 'https://q.test', API_KEY: 'k' }, 'API_KEY and QUICKSTART_BASE_URL are set but BASE_URL is not'],
    [{ QUICKSTART_API_KEY: 'k' }, 'QUICKSTART_API_KEY is set but BASE_URL is not'],
    [{ STAGING_BASE_URL: 'https://staging.test/v1', API_KEY: 'k' }, 'API_KEY and STAGING_BASE_URL are set but BASE_URL is not'],
  ])('%j with no base address is refused, naming the fix', (env, what) => {
    expect(() => resolve([], env)).toThrow(ConfigError);
    expect(() => resolve([], env)).toThrow(
      `${what}: set BASE_URL (or TARGET=staging and STAGING_BASE_URL) to the server to certify, or TARGET=embedded for the embedded reference server`,
    );
    // the same settings with TARGET=embedded: the embedded server
    expect(resolve(['--target', 'embedded'], env).environment).toBe('embedded');
  });

  it('a TARGET whose base address is not set is refused; TARGET=embedded certifies the embedded server beside a quickstart service of its own', () => {
    expect(() => resolve([], { TARGET: 'production' })).toThrow(
      'TARGET=production but BASE_URL is not set: set it, or TARGET=embedded for the embedded reference server',
    );
    expect(() => resolve([], { TARGET: 'staging', BASE_URL: 'https://a.test/v1', API_KEY: 'k' })).toThrow(/^TARGET=staging but STAGING_BASE_URL is not set/);
    expect(() => resolve([], { TARGET: 'test' })).toThrow(/^TARGET must be one of production, staging, embedded, got test$/);
    const c = resolve([], { TARGET: 'embedded', QUICKSTART_BASE_URL: 'https://q.test', API_KEY: 'k' });
    expect(c).toMatchObject({ environment: 'embedded', baseUrl: undefined, quickstartBaseUrl: 'https://q.test', quickstartApiKey: 'k' });
  });

  it('reads what it can of a refused configuration for its reports: each setting as given where valid, else its default', async () => {
    const dir = await mkdtemp(`${tmpdir()}/cfg-`);
    await writeFile(`${dir}/.env`, 'REPORT_DIR=from-file\nPROFILE=health\n');
    // an unknown flag and a bad value do not hide the settings beside them
    expect(refusedRunSettings(['--bogus', '--report-dir', 'out', '--retries', 'abc'], { API_KEY: 'k' }, dir)).toEqual({
      reportDir: 'out',
      profile: 'health',
      strict: false,
      target: { environment: 'embedded', baseUrl: '' },
      baselineFile: undefined,
    });
    expect(refusedRunSettings([], { REPORT_DIR: '', PROFILE: 'full', STRICT: 'on', BASELINE: 'b.json' }, '/nonexistent')).toMatchObject({
      reportDir: 'reports',
      profile: 'certify',
      strict: true,
      baselineFile: 'b.json',
    });
    // a settings file that cannot be read gives nothing; the flags and the environment still count
    expect(refusedRunSettings(['--dotenv', '/nonexistent/.env'], { REPORT_DIR: 'env-dir' }, dir).reportDir).toBe('env-dir');
    expect(refusedRunSettings(['--report-dir'], {}, '/nonexistent').reportDir).toBe('reports');
    // the address a report names is a base address, never one with credentials
    expect(refusedRunSettings([], { TARGET: 'staging', STAGING_BASE_URL: 'https://s.test/v1/' }, dir).target).toEqual({
      environment: 'staging',
      baseUrl: 'https://s.test/v1',
    });
    expect(refusedRunSettings([], { BASE_URL: 'https://user:secret@a.test/v1' }, dir).target).toEqual({ environment: 'embedded', baseUrl: '' });
  });

  it('names the .env file that holds an empty setting', async () => {
    const dir = await mkdtemp(`${tmpdir()}/cfg-`);
    await writeFile(`${dir}/.env`, 'BASE_URL=\nAPI_KEY=k\n');
    expect(() => resolve([], {}, dir)).toThrow(`BASE_URL (in ${dir}/.env) is set but empty`);
    // a value in the environment wins over the empty line
    expect(resolve([], { BASE_URL: 'https://a.test/v1' }, dir).baseUrl).toBe('https://a.test/v1');
  });

  it('never shows the key in a refusal', () => {
    expect(() => resolve([], { BASE_URL: 'https://a.test/v1', API_KEY: 'do-not-print-me\n' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('do-not-print-me') }),
    );
  });

  it('takes a short duration with a unit, and the usual spellings of on and off', () => {
    expect(resolve(['--timeout', '50ms', '--deadline', '5s'])).toMatchObject({ timeoutMs: 50, deadlineMs: 5000 });
    expect(resolve(['--timeout', '100'])).toMatchObject({ timeoutMs: 100 });
    for (const on of ['1', 'true', 'YES', 'on', 'On', 'y']) expect(resolve([], { STRICT: on }).strict).toBe(true);
    for (const off of ['0', 'FALSE', 'no', 'off', 'n']) expect(resolve([], { STRICT: off }).strict).toBe(false);
  });

  it('rejects an unreadable .env', async () => {
    const dir = await mkdtemp(`${tmpdir()}/cfg-`);
    await mkdir(`${dir}/.env`); // a directory where the file should be
    expect(() => resolve([], {}, dir)).toThrow(/cannot read env file/);
  });
});

describe('the settings as documented (npm run docs)', () => {
  it("docs/configuration.md's settings table and .env.example are generated from the declarations and up to date", async () => {
    const page = await readFile(join(PACKAGE_ROOT, 'docs/configuration.md'), 'utf8');
    expect(page).toBe(withSettingsTable(page));
    expect(await readFile(join(PACKAGE_ROOT, '.env.example'), 'utf8')).toBe(renderEnvExample());
  });

  it('lists every setting: a row of the table in docs/configuration.md and a line of .env.example each', async () => {
    const page = await readFile(join(PACKAGE_ROOT, 'docs/configuration.md'), 'utf8');
    const example = renderEnvExample();
    for (const s of Object.values(SETTINGS)) {
      expect(page).toContain(`| \`${s.env}\` | \`--${s.flag}\` |`);
      expect(example).toMatch(new RegExp(`^#${s.env}=`, 'm'));
    }
    // the keys are never filled in, not even with an example
    expect(example).toMatch(/^#API_KEY=$/m);
    expect(example).toMatch(/^#QUICKSTART_API_KEY=$/m);
  });

  it('.env.example read as a .env, uncommented, gives each setting its default', async () => {
    const dir = await mkdtemp(`${tmpdir()}/cfg-`);
    // the base addresses are examples, not defaults; TARGET alone names a base address that is not set
    const withDefaults = renderEnvExample()
      .split('\n')
      .filter((line) => /^#[A-Z_]+=./.test(line) && !/^#(TARGET|[A-Z_]*BASE_URL)=/.test(line))
      .map((line) => line.slice(1));
    await writeFile(`${dir}/.env`, withDefaults.join('\n'));
    expect(resolve([], {}, dir)).toEqual({ ...resolve([]), now: expect.any(Date), seed: expect.any(Number) });
  });
});
