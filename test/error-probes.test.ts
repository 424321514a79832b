// The error-body checks provoke errors outside the documented surface too (an unknown
// route, an undocumented method) and hold their bodies, not their statuses, to the Error rules.
import { describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceOptions } from '../reference/server.js';
import { runConformance } from '../harness/run/runner.js';
import type { Profile } from '../harness/model/types.js';
import { API_KEY, referenceRun, storeOnly } from './support/run.js';

async function errorChecksAlone(server: Omit<ReferenceOptions, 'apiKey'>, profile: Profile = 'certify', now = '2026-11-22T00:00:00Z') {
  const ref = await startReferenceServer({ apiKey: API_KEY, ...server });
  try {
    const report = await runConformance(
      referenceRun(ref, { target: storeOnly(ref), profile, now: new Date(now), selected: new Set(['ERR-BODY-SHAPE', 'ERR-STATUS-MATCHES']) }),
    );
    const outcome = (id: string) => report.requirements.find((r) => r.id === id)!;
    return { report, outcome, offSurface: ref.requestsFor('(no route)'), getPet: ref.requestsFor('getPet'), pets: ref.petCount() };
  } finally {
    await ref.close();
  }
}

describe('error probes off the documented surface', () => {
  it('are sent once, with the key, in health too, and write nothing', async () => {
    const run = await errorChecksAlone({ prefill: 3 }, 'health');
    expect(run.outcome('ERR-BODY-SHAPE').outcome).toBe('passed');
    expect(run.outcome('ERR-STATUS-MATCHES').outcome).toBe('passed');
    expect(run.offSurface).toBe(2);
    expect(run.pets).toBe(3);
  });

  it("judge the body of an unknown route's 404 (an HTML page fails)", async () => {
    const run = await errorChecksAlone({ faults: ['framework-404-html'] });
    expect(run.outcome('ERR-BODY-SHAPE').outcome).toBe('failed');
    expect(run.outcome('ERR-BODY-SHAPE').message).toMatch(
      /GET \/v1\/conformance-[\w-]+-no-such-route -> 404: not JSON: a text\/html body of \d+ bytes, (titled|beginning) "[^"\n]+"/,
    );
  });

  it("judge the body of an undocumented method's 405 (text/plain fails), not its status (a 404 Error passes)", async () => {
    const plain = await errorChecksAlone({ faults: ['method-not-allowed-plain'] });
    expect(plain.outcome('ERR-BODY-SHAPE').message).toContain('PATCH /v1/pets -> 405: not JSON: a text/plain body');
    const notFound = await errorChecksAlone({ variants: ['method-404'] });
    expect(notFound.outcome('ERR-BODY-SHAPE').outcome).toBe('passed');
  });

  it("are still sent after getPet's removal date, when getPet itself is not", async () => {
    const run = await errorChecksAlone({ variants: ['getpet-removed'] }, 'certify', '2031-01-01T00:00:00Z');
    expect(run.outcome('ERR-BODY-SHAPE').outcome).toBe('passed');
    expect(run.getPet).toBe(0);
    expect(run.offSurface).toBe(2);
  });
});
