// `judge <file.har>`: a record of traffic judged with the rules a record can speak to
// (checks/record.ts over harness/run/record.ts). The exchanges.har of a run against the
// reference server judges as the run did: compliant for the correct server (a sample of
// the faults' records, and every variant's, are judged in the fault and variant
// matrices, with their runs); hand-made records show the rules,
// the edges of a record (cut, missing and base64 bodies, redacted keys, other hosts),
// and the refusals (not a HAR, no entry of the store).
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { RunReport } from '../harness/model/types.js';
import { judgeCommand } from '../cli/judge.js';
import { renderComplianceJson } from '../reporters/compliance-json.js';
import { renderJunit } from '../reporters/junit.js';
import { renderHtml } from '../reporters/html.js';
import { BASE, failedIds, judgeHar, recordOf } from './support/record.js';
import { runBin } from './support/cli.js';

const outcome = (report: RunReport, id: string) => report.requirements.find((r) => r.id === id)!;

interface EntryOptions {
  method?: string;
  path: string;
  auth?: string;
  status?: number;
  body?: unknown;
  /** The response text as recorded (a body cut short, base64); by default the body's JSON. */
  content?: Record<string, unknown>;
  sent?: unknown;
  base?: string;
}

/** One HAR entry of a request and its answer. */
function entry({ method = 'GET', path, auth = 'Bearer the-key', status = 200, body, content, sent, base = BASE }: EntryOptions) {
  const text = body === undefined ? '' : JSON.stringify(body);
  return {
    startedDateTime: '2026-11-22T10:00:00.000Z',
    time: 5,
    request: {
      method,
      url: base + path,
      httpVersion: 'HTTP/1.1',
      headers: auth === '' ? [] : [{ name: 'Authorization', value: auth }],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: sent === undefined ? 0 : JSON.stringify(sent).length,
      ...(sent !== undefined && { postData: { mimeType: 'application/json', text: JSON.stringify(sent) } }),
    },
    response: {
      status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'Content-Type', value: 'application/json' }],
      cookies: [],
      content: content ?? { size: Buffer.byteLength(text), mimeType: 'application/json', text },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 5, receive: 0 },
  };
}

const harOf = (...entries: object[]) => JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } });

const pet = (id: number, status = 'available') => ({ id, name: `pet-${id}`, categoryId: 1, status });
const pets = (n: number, status = 'available') => Array.from({ length: n }, (_, i) => pet(i + 1, status));

describe('judge: a run of this tool, recorded', () => {
  it('the exchanges.har of a compliant run judges compliant, with its own key shown as $API_KEY; the others are not tested', async () => {
    const { har, run, target } = await recordOf();
    expect(run.verdict).toBe('compliant');
    const report = await judgeHar(har, { baseUrl: target.baseUrl, quickstartBaseUrl: target.quickstartBaseUrl });
    expect(failedIds(report)).toEqual([]);
    expect(report.verdict).toBe('compliant');
    expect(report.exitCode).toBe(0);
    // the key is known from the HAR's own spelling, so a run's invalid keys are judged
    expect(outcome(report, 'AUTH-INVALID-KEY').outcome).toBe('passed');
    expect(outcome(report, 'CREATE-WRITES-ACCOUNTED').outcome).toBe('passed');
    expect(outcome(report, 'AUTH-NO-BYPASS')).toMatchObject({ outcome: 'skipped', message: 'not tested: a record of traffic cannot show it' });
    const judged = report.requirements.filter((r) => r.outcome === 'passed').length;
    expect(report.coverage.judged).toBe(judged);
    expect(report.runPrefix).toBe(run.runPrefix);
    console.log(
      report.requirements
        .filter((r) => r.message !== 'not tested: a record of traffic cannot show it')
        .map((r) => `${r.id} ${r.outcome} ${r.message ?? ''} ${r.notes.join('; ')}`)
        .join('\n'),
    );
    expect(judged).toBeGreaterThan(20);
  }, 60_000);
});

describe('judge: records as they come', () => {
  it('a keyless GET /pets that got 200 with animals: AUTH-MISSING-HEADER fails, exit 1', async () => {
    const report = await judgeHar(harOf(entry({ path: '/pets', body: pets(2) }), entry({ path: '/pets', auth: '', body: pets(2) })));
    expect(outcome(report, 'AUTH-MISSING-HEADER')).toMatchObject({ outcome: 'failed' });
    expect(outcome(report, 'AUTH-MISSING-HEADER').message).toContain('1 of 1 request without a key got data: GET /v1/pets -> 200');
    expect(report.exitCode).toBe(1);
    // the key in the query (RFC 6750's access_token) is a key, not none
    const query = await judgeHar(harOf(entry({ path: '/pets', body: pets(2) }), entry({ path: '/pets?access_token=the-key', auth: '', body: pets(2) })));
    expect(outcome(query, 'AUTH-MISSING-HEADER')).toMatchObject({ outcome: 'skipped', message: 'not tested: no entry of the record speaks to it' });
  });

  it('limit=2 answered with 3 animals: LIST-LIMIT-ANY fails, exit 1', async () => {
    const report = await judgeHar(harOf(entry({ path: '/pets?limit=2', body: pets(3) })));
    expect(failedIds(report)).toEqual(['LIST-LIMIT-ANY']);
    expect(outcome(report, 'LIST-LIMIT-ANY').message).toContain('3 animals, more than 2');
    expect(report.exitCode).toBe(1);
  });

  it('with API_KEY, another bearer token that got data fails AUTH-INVALID-KEY; without it, which token is valid is not known', async () => {
    const har = harOf(entry({ path: '/pets', body: pets(1) }), entry({ path: '/pets', auth: 'Bearer someone-else', body: pets(1) }));
    expect(failedIds(await judgeHar(har, { apiKey: 'the-key' }))).toEqual(['AUTH-INVALID-KEY']);
    const unknown = await judgeHar(har);
    expect(outcome(unknown, 'AUTH-INVALID-KEY')).toMatchObject({ outcome: 'skipped', message: expect.stringContaining('API_KEY is not set') });
    expect(unknown.verdict).toBe('compliant');
  });

  it('no credential of the record reaches a report, whether API_KEY says which is valid or not', async () => {
    const key = 'recorded-key-5f2c9e1a7b3d';
    const har = harOf(
      // an envelope: LIST-OK fails, citing this request and its Authorization header
      entry({ path: '/pets', auth: `Bearer ${key}`, body: { items: pets(1) } }),
      entry({ path: '/pets', auth: 'Bearer another-token-8d1e4c', body: pets(1) }),
      entry({ path: `/pets?api_key=${key}`, auth: '', body: pets(1) }),
    );
    for (const apiKey of ['', key]) {
      const report = await judgeHar(har, { apiKey });
      const written = [renderComplianceJson(report), renderJunit(report), renderHtml(report)].join('\n');
      expect(written).not.toContain(key);
      expect(written).not.toContain('another-token-8d1e4c');
      expect(written).toContain(apiKey ? '$API_KEY' : '$RECORDED_CREDENTIAL');
    }
  });

  it('redacted credentials ([REDACTED], Bearer ***) and a record without any Authorization header are judged by no credential rule', async () => {
    const redacted = harOf(entry({ path: '/pets', auth: '[REDACTED]', body: pets(1) }), entry({ path: '/pets', auth: 'Bearer ***', body: pets(1) }));
    const report = await judgeHar(redacted, { apiKey: 'the-key' });
    expect(outcome(report, 'AUTH-INVALID-KEY').outcome).toBe('skipped');
    expect(outcome(report, 'AUTH-MISSING-HEADER').outcome).toBe('skipped');
    // a sanitised export strips every Authorization header: no request is shown keyless
    const stripped = await judgeHar(harOf(entry({ path: '/pets', auth: '', body: pets(1) })));
    expect(outcome(stripped, 'AUTH-MISSING-HEADER')).toMatchObject({
      outcome: 'skipped',
      message: expect.stringContaining('no entry of the record carries an Authorization header'),
    });
    expect(stripped.verdict).toBe('compliant');
  });

  it('a body cut short, a missing body and a base64 one: no violation from the first two, the third read', async () => {
    const envelope = JSON.stringify({ items: pets(30) });
    const cut = {
      size: Buffer.byteLength(envelope),
      mimeType: 'application/json',
      text: envelope.slice(0, 100),
      comment: 'the log holds at most the first 16 KiB of a body',
    };
    const missing = { size: 5000, mimeType: 'application/json' };
    const report = await judgeHar(
      harOf(
        entry({ path: '/pets', content: cut }),
        entry({ path: '/pets?limit=1', content: missing }),
        entry({ path: '/pets/1', status: 404, content: missing }),
      ),
    );
    expect(failedIds(report)).toEqual([]);
    expect(outcome(report, 'LIST-OK')).toMatchObject({ outcome: 'skipped', message: 'not tested: no entry of the record speaks to it' });
    expect(outcome(report, 'ERR-BODY-SHAPE').outcome).toBe('skipped');
    const base64 = { size: 0, mimeType: 'application/json', encoding: 'base64', text: Buffer.from(JSON.stringify(pets(3))).toString('base64') };
    base64.size = Buffer.byteLength(JSON.stringify(pets(3)));
    expect(failedIds(await judgeHar(harOf(entry({ path: '/pets?limit=2', content: base64 }))))).toEqual(['LIST-LIMIT-ANY']);
  });

  it('entries of other hosts are ignored and counted; a filtered page with another status and getPet answering another animal fail', async () => {
    const report = await judgeHar(
      harOf(
        entry({ path: '/pets', base: 'https://cdn.example', body: { anything: true } }),
        entry({ path: '/pets?status=sold', body: [pet(1, 'sold'), pet(2, 'available')] }),
        entry({ path: '/pets/7', body: pet(8) }),
      ),
    );
    expect(failedIds(report)).toEqual(['LIST-STATUS-FILTER', 'GET-OK']);
    expect(outcome(report, 'STORE-NO-5XX').notes.join(' ')).toContain('2 entries of the store, 0 of the quickstart service; 1 of other addresses ignored');
    // the record names no data of the suite's
    expect(report.runPrefix).toBeUndefined();
  });

  it('an animal a 401 refused that a later list shows, in a record naming its data: CREATE-WRITES-ACCOUNTED fails', async () => {
    const sent = { name: 'conformance-abc-refused', categoryId: 1 };
    const log = JSON.parse(
      harOf(
        entry({ method: 'POST', path: '/pets', auth: '', status: 401, sent, body: { code: 'unauthorized', message: 'no key', status: 401 } }),
        entry({ path: '/pets', body: [{ id: 5, ...sent }] }),
      ),
    );
    log.log.comment = 'certify run against https://store.example/v1, data named conformance-abc, seed 1; keys shown as $API_KEY';
    const report = await judgeHar(JSON.stringify(log));
    expect(failedIds(report)).toEqual(['CREATE-WRITES-ACCOUNTED']);
    expect(outcome(report, 'CREATE-WRITES-ACCOUNTED').message).toContain('was sent only in a write the store refused');
  });

  it('a createPet 201 that does not echo its body fails CREATE-ECHO; a status that changes once is a transition, not a disagreement', async () => {
    const sent = { name: 'Rex', categoryId: 1, status: 'pending' };
    const report = await judgeHar(harOf(entry({ method: 'POST', path: '/pets', status: 201, sent, body: { id: 3, ...sent, status: 'sold' } })));
    expect(failedIds(report)).toEqual(['CREATE-ECHO']);
    expect(outcome(report, 'CREATE-ECHO').message).toContain('status was sent as "pending" but came back as "sold"');
    expect(outcome(report, 'CREATE-VIEWS-AGREE').outcome).toBe('passed');
  });
});

describe('judge: the command', () => {
  const dir = () => mkdtemp(join(tmpdir(), 'judge-'));
  const env = (reportDir: string) => ({ BASE_URL: BASE, REPORT_DIR: reportDir });

  it('writes the reports of a run and exits with its code; no entry of the store, or no HAR, is exit 2 with one line', async () => {
    // the summary a run prints is not what this test reads
    const quiet = [vi.spyOn(process.stdout, 'write').mockReturnValue(true), vi.spyOn(process.stderr, 'write').mockReturnValue(true)];
    onTestFinished(() => quiet.forEach((spy) => spy.mockRestore()));
    const reportDir = await dir();
    const file = join(reportDir, 'in.har');
    await writeFile(file, harOf(entry({ path: '/pets?limit=2', body: pets(3) })));
    expect(await judgeCommand([file], env(reportDir))).toBe(1);
    const report = JSON.parse(await readFile(join(reportDir, 'compliance.json'), 'utf8'));
    expect(report.verdict).toBe('non-compliant');
    for (const name of ['junit.xml', 'report.html', 'metrics.prom']) expect((await readFile(join(reportDir, name), 'utf8')).length).toBeGreaterThan(0);

    // the record where a run writes its exchanges.har is kept, not removed as an earlier run's
    const inPlace = join(reportDir, 'exchanges.har');
    await writeFile(inPlace, harOf(entry({ path: '/pets', body: pets(1) })));
    expect(await judgeCommand([inPlace], env(reportDir))).toBe(0);
    expect(await readFile(inPlace, 'utf8')).toContain('pet-1');

    await writeFile(file, harOf(entry({ path: '/pets', base: 'https://elsewhere.example/v1', body: pets(1) })));
    await expect(judgeCommand([file], env(reportDir))).rejects.toThrow(/holds no entry under BASE_URL https:\/\/store.example\/v1 \(1 entry in all\)/);
    await writeFile(file, '<html>');
    await expect(judgeCommand([file], env(reportDir))).rejects.toThrow(/is not a HAR file: not JSON/);
    await writeFile(file, '{"log": {}}');
    await expect(judgeCommand([file], env(reportDir))).rejects.toThrow(/is not a HAR file: it has no log.entries/);
  });

  it('from the built CLI: a refused record is one line on stderr and exit 2, and the reports say not tested', async () => {
    const reportDir = await dir();
    const file = join(reportDir, 'in.har');
    await writeFile(file, harOf(entry({ path: '/pets', base: 'https://elsewhere.example/v1', body: pets(1) })));
    const none = await runBin(['judge', file], env(reportDir));
    expect(none.code).toBe(2);
    expect(none.stderr.trim().split('\n')).toEqual([`animal-store-conformance judge: ${file} holds no entry under BASE_URL ${BASE} (1 entry in all)`]);
    expect(JSON.parse(await readFile(join(reportDir, 'compliance.json'), 'utf8')).verdict).toBe('not-tested');
    await writeFile(file, 'not json');
    const malformed = await runBin(['judge', file], env(reportDir));
    expect(malformed.code).toBe(2);
    expect(malformed.stderr.trim().split('\n')).toHaveLength(1);
    const noBase = await runBin(['judge', file], { REPORT_DIR: reportDir });
    expect(noBase.code).toBe(2);
    expect(noBase.stderr).toContain('judge needs BASE_URL');
    // the flags of a refused judge are read for where its reports go, the first one too
    const flagged = await dir();
    const noFile = await runBin(['judge', '--report-dir', flagged], { BASE_URL: BASE });
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain('judge needs a HAR file first');
    expect(JSON.parse(await readFile(join(flagged, 'compliance.json'), 'utf8')).verdict).toBe('not-tested');
  });
});

// a sample of the faults' records is judged in the fault matrix (test/support/fault-matrix.ts)

describe('judge: a large record', () => {
  it('a HAR of 10 MB (a compliant run recorded over and over) is judged by the built CLI, compliant, in bounded time', async () => {
    const { har, target } = await recordOf();
    const log = JSON.parse(har);
    const once = log.log.entries;
    const copies = Math.ceil((10 * 1024 * 1024) / JSON.stringify(log).length);
    log.log.entries = Array.from({ length: copies }, () => once).flat();
    const text = JSON.stringify(log);
    expect(text.length).toBeGreaterThan(10 * 1024 * 1024);
    const reportDir = await mkdtemp(join(tmpdir(), 'judge-big-'));
    const file = join(reportDir, 'big.har');
    await writeFile(file, text);
    const cli = await runBin(['judge', file], { BASE_URL: target.baseUrl, QUICKSTART_BASE_URL: target.quickstartBaseUrl!, REPORT_DIR: reportDir });
    console.log(`10 MB HAR (${log.log.entries.length} entries, ${(text.length / 1048576).toFixed(1)} MiB): CLI ${Math.round(cli.wallMs)} ms`);
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(reportDir, 'compliance.json'), 'utf8')).verdict).toBe('compliant');
    // about 1 s on an idle machine (bench/results.md); the bound only catches work that grows
    // faster than the record, with room for a machine busy with other work
    expect(cli.wallMs).toBeLessThan(20_000);
  }, 120_000);
});
