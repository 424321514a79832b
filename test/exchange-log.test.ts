// exchanges.har: valid HAR 1.2 (the har-schema package's JSON schemas, and what the
// schema leaves to prose: timings that add up), holding exactly the run's requests (as
// many as report.requestCount and as the server received, retries and resends after a
// rate limit included) and no part of the key; bodies cut at the evidence cap.
import { mkdtemp, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import formatsModule, { type FormatsPlugin } from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { MAX_EVIDENCE_BODY_CHARS } from '../harness/http/exchange.js';
import type { TranscriptEntry } from '../harness/run/transcript.js';
import { renderHar } from '../reporters/har.js';
import { startReferenceServer } from '../reference/server.js';
import { runBin } from './support/cli.js';

const require = createRequire(import.meta.url);
const addFormats = ((formatsModule as any).default ?? formatsModule) as FormatsPlugin;

/** HAR 1.2's schema as har-schema publishes it (draft-06; its `min` and `optional` are not JSON Schema keywords). */
function harValidator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
  addFormats(ajv);
  const schemas = require('har-schema') as Record<string, object>;
  for (const schema of Object.values(schemas)) ajv.addSchema(schema);
  return ajv.getSchema('har.json#')!;
}

/** What HAR 1.2 says in prose: times not below zero (-1 only for the optional phases), and the time the sum of the timings. */
function proseErrors(har: any): string[] {
  const errors: string[] = [];
  har.log.entries.forEach((e: any, i: number) => {
    const t = e.timings;
    if (e.time < 0 || t.send < 0 || t.wait < 0 || t.receive < 0) errors.push(`entry ${i}: a negative time`);
    const phases = [t.blocked, t.dns, t.connect, t.send, t.wait, t.receive].filter((v) => v !== undefined && v !== -1);
    if (Math.abs(phases.reduce((a: number, b: number) => a + b, 0) - e.time) > 0.01) errors.push(`entry ${i}: time ${e.time} is not the sum of its timings`);
    if (Number.isNaN(Date.parse(e.startedDateTime))) errors.push(`entry ${i}: startedDateTime ${e.startedDateTime}`);
  });
  return errors;
}

/** Every run of 10 characters of the key: none may be anywhere in the log. */
const keyParts = (key: string) => Array.from({ length: key.length - 9 }, (_, i) => key.slice(i, i + 10));

describe('exchanges.har', () => {
  it('from the CLI against a server that rate-limits and fails now and then: valid HAR 1.2, one entry per request sent, retries included, no key', async () => {
    const key = 'har-secret-key-5c8e1f0a9d3b7e';
    let received = 0;
    // every 7th request refused with 429 (sent again), one GET in 9 a 500 (--retries sends it again)
    const ref = await startReferenceServer({ apiKey: key, variants: ['rate-limited'], failsEvery: 9, onRequest: () => received++ });
    const reportDir = await mkdtemp(join(tmpdir(), 'har-'));
    try {
      const { code, stdout } = await runBin(['--retries', '2'], {
        BASE_URL: ref.baseUrl,
        API_KEY: key,
        QUICKSTART_BASE_URL: ref.quickstartBaseUrl,
        REPORT_DIR: reportDir,
      });
      // a 500 that a retry met again is the server's: the log is the subject here, not the verdict
      expect([0, 1], stdout).toContain(code);
      const text = await readFile(join(reportDir, 'exchanges.har'), 'utf8');
      const har = JSON.parse(text);
      const report = JSON.parse(await readFile(join(reportDir, 'compliance.json'), 'utf8'));

      const validate = harValidator();
      expect(validate(har), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
      expect(proseErrors(har)).toEqual([]);

      // exactly the run's requests: as the report counts them, as the server received them
      expect(har.log.entries).toHaveLength(report.requestCount);
      expect(har.log.entries).toHaveLength(received);
      expect(report.retries).toBeGreaterThan(0);
      expect(har.log.entries.filter((e: any) => e._attempt > 1)).toHaveLength(report.retries);
      expect(har.log.entries.filter((e: any) => e.response.status === 429)).toHaveLength(report.rateLimited);
      // in the order sent, both services
      const started = har.log.entries.map((e: any) => Date.parse(e.startedDateTime));
      expect(started).toEqual([...started].sort((a, b) => a - b));
      expect(new Set(har.log.entries.map((e: any) => e._service))).toEqual(new Set(['store', 'quickstart']));

      // the key nowhere, in no spelling the run sent it in; shown as $API_KEY
      for (const part of [...keyParts(key), Buffer.from(key).toString('base64').slice(0, 16)]) expect(text.includes(part), part).toBe(false);
      expect(har.log.entries[0].request.headers).toContainEqual({ name: 'authorization', value: 'Bearer $API_KEY' });
    } finally {
      await ref.close();
    }
  });

  it('cuts every body at the evidence cap and says how large it was; a request with no answer has status 0 and its error', () => {
    const big = 'x'.repeat(MAX_EVIDENCE_BODY_CHARS * 3);
    const entry = (record: any): TranscriptEntry => ({
      record,
      sentAt: Date.UTC(2026, 0, 1),
      durationMs: 12.3456,
      requestBytes: record.request.body?.length ?? 0,
    });
    const request = { method: 'POST', url: 'http://127.0.0.1:1/v1/pets?limit=2&status=sold', headers: { 'content-type': 'application/json' }, body: big };
    const text = renderHar({ tool: { name: 't', version: '1' }, target: { environment: 'embedded', baseUrl: 'http://127.0.0.1:1/v1' }, profile: 'certify' }, [
      {
        ...entry({
          request,
          response: { status: 200, headers: { 'content-type': 'application/json' }, body: big.slice(0, MAX_EVIDENCE_BODY_CHARS), truncated: true },
          durationMs: 12,
          curl: '',
        }),
        responseBytes: big.length,
      },
      entry({ request: { ...request, body: undefined }, error: 'ECONNRESET: socket hang up', durationMs: 3, curl: '' }),
    ]);
    const har = JSON.parse(text);
    const validate = harValidator();
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
    const [cut, failed] = har.log.entries;
    expect(cut.request.postData.text).toHaveLength(MAX_EVIDENCE_BODY_CHARS);
    expect(cut.request.postData.comment).toMatch(/^48 KiB received; the log holds at most the first 16 KiB/);
    expect(cut.request.queryString).toEqual([
      { name: 'limit', value: '2' },
      { name: 'status', value: 'sold' },
    ]);
    expect(cut.response.content).toMatchObject({ size: big.length, mimeType: 'application/json' });
    // the record's body was cut already: the entry says what came and how much it holds
    expect(cut.response.content.comment).toMatch(/^48 KiB received; the log holds at most the first 16 KiB/);
    expect(cut.response.bodySize).toBe(big.length);
    expect(cut.time).toBe(12.346);
    expect(failed.response.status).toBe(0);
    expect(failed._error).toBe('ECONNRESET: socket hang up');
  });
});
