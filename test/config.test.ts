// Configuration: flags over environment over .env; every bad input is a ConfigError.
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseCommandLine, resolveConfig } from '../harness/config.js';

const resolve = (argv: string[], env: Record<string, string> = {}, cwd = '/nonexistent') =>
  resolveConfig(parseCommandLine(argv), env, cwd);

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

  it('reads durations with or without a unit', () => {
    expect(resolve(['--timeout', '1500', '--deadline', '90s'])).toMatchObject({ timeoutMs: 1500, deadlineMs: 90_000 });
    expect(resolve([], { REQUEST_TIMEOUT_MS: '500ms', RUN_DEADLINE_MS: '2m' })).toMatchObject({ timeoutMs: 500, deadlineMs: 120_000 });
  });

  it('reads the generated examples and their seed (default: 5, a seed drawn by the run)', () => {
    expect(resolve([])).toMatchObject({ examples: 5 });
    expect(resolve([]).seed).toBeUndefined();
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
    [['--examples=-1'], {}, /EXAMPLES must be an integer of at least 0/],
    [['--seed', '2147483648'], {}, /SEED must be an integer from 0 to 2147483647/],
    [['--seed', 'abc'], {}, /SEED must be an integer/],
  ])('rejects %j %j', (argv, env, message) => {
    expect(() => resolve(argv as string[], env as Record<string, string>)).toThrow(ConfigError);
    expect(() => resolve(argv as string[], env as Record<string, string>)).toThrow(message as RegExp);
  });

  it('rejects an unreadable .env', async () => {
    const dir = await mkdtemp(`${tmpdir()}/cfg-`);
    await mkdir(`${dir}/.env`); // a directory where the file should be
    expect(() => resolve([], {}, dir)).toThrow(/cannot read env file/);
  });
});
