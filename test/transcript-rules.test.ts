// The rules that hold for every answer judge every exchange of the run, whoever sent it:
// here a proxy in front of a correct reference server spoils only answers that no probe
// of a check asks for (the preflight's list, the creation of a round trip's animal), and
// the requirement those answers break fails, citing them, and no other.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../reference/server.js';
import { runConformance, startRun } from '../harness/run/runner.js';
import { certifyReference, referenceRun, violations } from './support/run.js';

/** A proxy to `origin` that hands each answer to `spoil` (with the request's method, path and body) before passing it on. */
async function spoilingProxy(origin: string, spoil: (req: { method: string; path: string; body: string }, status: number, body: string) => [number, string]) {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const upstream = request(`${origin}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (c: Buffer) => parts.push(c));
        answer.on('end', () => {
          const [status, text] = spoil({ method: req.method ?? 'GET', path: req.url ?? '/', body }, answer.statusCode ?? 502, Buffer.concat(parts).toString());
          const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(text)) };
          res.writeHead(status, headers).end(text);
        });
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(r)) };
}

describe('the transcript rules', () => {
  it("judge the preflight's list and a round trip's creation, which no probe of a check asks for", async () => {
    const ref = await startReferenceServer({ apiKey: 'transcript-key' });
    let preflight = true;
    const proxy = await spoilingProxy(new URL(ref.baseUrl).origin, (req, status, body) => {
      // the run's first list, with no query, is the preflight's: wrapped in an envelope
      if (req.method === 'GET' && req.path === '/v1/pets' && preflight) {
        preflight = false;
        return [status, JSON.stringify({ items: JSON.parse(body) })];
      }
      // the animal whose name holds many character classes is created for a round trip: 200, not 201
      if (req.method === 'POST' && req.body.includes('-mixed ')) return [200, body];
      return [status, body];
    });
    try {
      const run = referenceRun(ref, { consistencyWindowMs: 500 }, 'transcript-key');
      const report = await runConformance({ ...run, target: { ...run.target, baseUrl: `${proxy.url}/v1` } });
      const failed = report.requirements.filter((r) => r.outcome === 'failed');
      expect(failed.map((r) => r.id).sort(), violations(report).join('\n')).toEqual(['CREATE-OK', 'LIST-OK']);
      const byId = Object.fromEntries(failed.map((r) => [r.id, r]));
      expect(byId['LIST-OK'].message).toMatch(
        /1 of \d+ listPets answers break the documented success \(200 with Pets\): GET \/v1\/pets -> 200: not a valid Pets/,
      );
      expect(byId['LIST-OK'].evidence[0].request.url).toMatch(/\/v1\/pets$/);
      expect(byId['CREATE-OK'].message).toMatch(
        /1 of \d+ createPet answers break the documented success \(201 with Pet\): POST \/v1\/pets -> 200: 200, not 201/,
      );
      expect(byId['CREATE-OK'].evidence[0].request.body).toContain('-mixed ');
    } finally {
      await proxy.close();
      await ref.close();
    }
  });

  // "Transitions: not shown": a moderation job makes pending animals available a second
  // after their creation; a list that lags 1.5 s keeps the run long enough to see it
  it('accept a status that changes over time: compliant, and the run saw pending animals shown available', async () => {
    const ref = await startReferenceServer({ apiKey: 'transcript-key', variants: ['moderation', 'lagging-list'] });
    try {
      const run = startRun(referenceRun(ref, { consistencyWindowMs: 3000 }, 'transcript-key'));
      const report = await run.report;
      expect(violations(report)).toEqual([]);
      const sentPending = new Set<string>();
      const shownAvailable = new Set<string>();
      for (const { record } of await run.exchanges()) {
        const body = record.response?.body ?? '';
        if (record.request.method === 'POST' && record.response?.status === 201 && record.request.body?.includes('"pending"'))
          sentPending.add(String(JSON.parse(body).id));
        if (record.request.method === 'GET' && record.response?.status === 200 && body.startsWith('[')) {
          for (const pet of JSON.parse(body)) if (pet.status === 'available') shownAvailable.add(String(pet.id));
        }
      }
      expect([...sentPending].filter((id) => shownAvailable.has(id)).length).toBeGreaterThan(0);
    } finally {
      await ref.close();
    }
  });

  // another client imports a batch while the run lists: a page is held only to the
  // animals known before it was asked, in health (no writes of its own) and certify alike
  it.each(['health', 'certify'] as const)('hold a page only to the animals known before it was asked (%s)', async (profile) => {
    const report = await certifyReference({ variants: ['busy-store'], prefill: 10 }, { profile, consistencyWindowMs: 500 });
    expect(violations(report)).toEqual([]);
    expect(report.verdict).toBe('compliant');
  });
});
