// What a scheduled health run against production may and may not do: no credential it
// sends carries the production key (or most of it) unless --key-variants says so, and
// a write the server accepted is said in every output.
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../reference/server.js';
import { runConformance } from '../harness/run/runner.js';
import { certifyReference, referenceRun } from './support/run.js';
import { formatSummary } from '../reporters/console.js';
import { githubSummary } from '../reporters/github.js';
import { renderHtml } from '../reporters/html.js';
import { renderMetrics } from '../reporters/metrics.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A proxy in front of `origin` that keeps every request it forwards. */
async function recordingProxy(origin: string) {
  const seen: Seen[] = [];
  const target = new URL(origin);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: body.toString('utf8') });
      const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    seen,
    base: (url: string) => url.replace(target.origin, `http://127.0.0.1:${port}`),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The longest run of the key's characters that a request carries anywhere but in the one valid header. */
function longestKeyPart(seen: Seen[], key: string): { part: string; where: string } {
  let best = { part: '', where: '' };
  for (const s of seen) {
    const { authorization, ...otherHeaders } = s.headers;
    const places = [
      ['url', decodeURIComponent(s.url)],
      ['body', s.body],
      ['headers', JSON.stringify(otherHeaders)],
      ...(authorization !== `Bearer ${key}` ? [['authorization', String(authorization ?? '')]] : []),
    ];
    for (const [where, text] of places) {
      for (let length = best.part.length + 1; length <= key.length; length++) {
        const at = [...Array(key.length - length + 1).keys()].find((i) => text.includes(key.slice(i, i + length)));
        if (at === undefined) break;
        best = { part: key.slice(at, at + length), where: `${s.method} ${s.url} (${where})` };
      }
    }
  }
  return best;
}

const KEYS = {
  text: 'sk_live_8f3a9c1d2e4bZ7q',
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJtb25pdG9yIn0.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
};

describe.concurrent('a health run and the production key', () => {
  it.each(Object.entries(KEYS))(
    'sends no credential that carries the key (%s), other than Bearer <key>; a third of it at most anywhere',
    async (_format, key) => {
      const ref = await startReferenceServer({ apiKey: key });
      const [store, quickstart] = await Promise.all([recordingProxy(ref.baseUrl), recordingProxy(ref.quickstartBaseUrl)]);
      try {
        const run = referenceRun(ref, { profile: 'health' }, key);
        const target = { ...run.target, baseUrl: store.base(ref.baseUrl), quickstartBaseUrl: quickstart.base(ref.quickstartBaseUrl) };
        const report = await runConformance({ ...run, target });
        expect(report.verdict).toBe('compliant');
        const seen = [...store.seen, ...quickstart.seen];
        const rejected = seen.filter((s) => s.headers.authorization !== undefined && s.headers.authorization !== `Bearer ${key}`);
        expect(rejected.length).toBeGreaterThan(5);
        expect(quickstart.seen.length).toBeGreaterThan(3);
        const { part, where } = longestKeyPart(seen, key);
        // a random key of the same format shares a character here and there, never a third of the key
        expect(part.length, `${part} in ${where}`).toBeLessThan(key.length / 3);
        // the invalid key every operation gets is the random one, of the key's length (not the bare scheme)
        const getPetTokens = store.seen.filter((s) => /\/pets\/[^/?]+$/.test(s.url.split('?')[0])).map((s) => String(s.headers.authorization));
        expect(getPetTokens.some((h) => h !== `Bearer ${key}` && h.startsWith('Bearer ') && h.length === `Bearer ${key}`.length)).toBe(true);
        // listPets without a key is also asked with the status filter
        const unauthenticated = store.seen.filter((s) => s.headers.authorization === undefined).map((s) => new URL(s.url, 'http://x').searchParams);
        expect(unauthenticated.some((query) => query.has('status'))).toBe(true);
        expect(report.requirements.find((r) => r.id === 'AUTH-SCHEME-CASE')).toMatchObject({
          outcome: 'skipped',
          message: expect.stringContaining('--key-variants'),
        });
      } finally {
        await Promise.all([store.close(), quickstart.close()]);
        await ref.close();
      }
    },
  );

  it('with --key-variants, health sends the near-miss keys too', async () => {
    const key = KEYS.text;
    const ref = await startReferenceServer({ apiKey: key });
    const proxy = await recordingProxy(ref.baseUrl);
    try {
      const run = referenceRun(ref, { profile: 'health', keyVariants: true }, key);
      const report = await runConformance({
        ...run,
        target: { ...run.target, baseUrl: proxy.base(ref.baseUrl), quickstartBaseUrl: undefined, quickstartApiKey: undefined },
      });
      expect(report.verdict).toBe('compliant');
      expect(proxy.seen.map((s) => s.headers.authorization)).toContain(`Bearer ${key}rr`); // the key with two more characters
      expect(report.requirements.find((r) => r.id === 'AUTH-SCHEME-CASE')!.outcome).toBe('passed');
    } finally {
      await proxy.close();
      await ref.close();
    }
  });
});

describe('a health run that wrote', () => {
  it('says so in the console, the HTML banner, the GitHub summary and the metrics; a correct server takes no write from health', async () => {
    const broken = await certifyReference({ faults: ['accept-missing-name', 'coerce-numeric-strings'] }, { profile: 'health' });
    expect(broken.writesAccepted).toEqual({ createPet: expect.any(Number) });
    const n = broken.writesAccepted!.createPet;
    expect(n).toBeGreaterThanOrEqual(2);
    const warning = `this read-only health run changed the server: ${n} writes were accepted (createPet ×${n})`;
    expect(formatSummary(broken, [])).toContain(`Warning: ${warning}`);
    expect(renderHtml(broken)).toMatch(new RegExp(`<p id="data-warning" class="reason warning">Warning: ${warning.replace(/[()]/g, '\\$&')}`));
    expect(githubSummary(broken)).toContain(`> **Warning:** ${warning}`);
    expect(renderMetrics(broken)).toMatch(/^animal_store_conformance_run_writes_accepted\{[^}]*profile="health"\} (\d+)$/m);
    expect(/run_writes_accepted\{[^}]*\} (\d+)/.exec(renderMetrics(broken))![1]).toBe(String(n));

    const correct = await certifyReference({}, { profile: 'health' });
    expect(correct.writesAccepted).toEqual({});
    expect(formatSummary(correct, [])).not.toContain('changed the server');
    // certify creates data by design: said in its own line, not as a warning
    const certify = await certifyReference({}, { selected: new Set(['CREATE-OK']) });
    expect(certify.writesAccepted!.createPet).toBeGreaterThan(0);
    expect(formatSummary(certify, [])).not.toContain('changed the server');
  });
});
