// A RunReport built in code, for reporter tests and anything else that needs one:
// four areas, every outcome (passed, failed MUST, failed SHOULD, a MUST that could
// not be judged, skipped, inconclusive), and evidence with a hostile body (markup, ]]>, NUL and other
// control characters, a lone surrogate, non-ASCII). Options give the same run with
// known deviations listed, or aborted (every requirement skipped, as the engine does).
import type { ExchangeRecord, RequirementResult, RunReport } from '../harness/model/types.js';
import { buildReport } from '../harness/verdict/report.js';

export const BASE_URL = 'https://api.example.test/v1';

/** A body no XML writer can pass through untouched. */
export const HOSTILE_BODY =
  '<html><b>Oops & "bad" \'quote\'</b> ]]> <![CDATA[x]]> \u0000nul \u0001\u0008\u000B\u000C\u001F\uFFFE\uFFFF lone:\uD800 tab\there\r\nnext 🐾 Zürich 猫';

function exchange(method: string, path: string, over: Partial<ExchangeRecord> = {}): ExchangeRecord {
  return {
    request: { method, url: BASE_URL + path, headers: { authorization: 'Bearer [redacted]', accept: 'application/json' } },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: '[]', truncated: false },
    durationMs: 12.5,
    curl: `curl -sS -X ${method} '${BASE_URL}${path}' -H 'Authorization: Bearer $API_KEY'`,
    ...over,
  };
}

function result(
  id: string,
  level: RequirementResult['level'],
  area: string,
  outcome: RequirementResult['outcome'],
  over: Partial<RequirementResult> = {},
): RequirementResult {
  return {
    id,
    level,
    area,
    outcome,
    operation: area === 'list' ? 'listPets' : 'all',
    title: `Title of ${id}`,
    source: `Source sentence of ${id}`,
    notes: [],
    durationMs: 40,
    evidence: [],
    ...over,
  };
}

export interface FixtureOptions {
  /** Requirement id -> reason, as the known-deviations file lists them (set as the engine does). */
  expectedFailures?: Record<string, string>;
  /** Abort the run: every requirement becomes skipped "not run: <reason>", as the engine does. */
  abortReason?: string;
}

export function buildReportFixture(options: FixtureOptions = {}): RunReport {
  let requirements: RequirementResult[] = [
    result('AUTH-MISSING-HEADER', 'MUST', 'auth', 'passed', {
      notes: ['GET /store/orders answered 404, judged as missing'],
      evidence: [exchange('GET', '/pets', { response: { status: 401, headers: {}, body: '', truncated: false } })],
    }),
    result('AUTH-INVALID-KEY', 'MUST', 'auth', 'failed', {
      title: 'A bearer token that is not a valid key gets 401 <&>',
      message: 'expected 401, got 500 & an HTML page',
      notes: ['the server answered with "text/html"'],
      evidence: [
        exchange('POST', '/pets', {
          request: {
            method: 'POST',
            url: `${BASE_URL}/pets?x=<1>&y=2`,
            headers: { authorization: 'Bearer [redacted]', 'content-type': 'application/json' },
            body: '{"name":"Rex\u0000","categoryId":1}',
          },
          response: { status: 500, headers: { 'content-type': 'text/html; charset=utf-8' }, body: HOSTILE_BODY, truncated: true },
          curl: `curl -sS -X POST '${BASE_URL}/pets' -H 'Authorization: Bearer $API_KEY' --data-raw '{"name":"Rex"}'`,
        }),
        exchange('GET', '/pets'),
      ],
    }),
    result('ERR-BODY-SHAPE', 'MUST', 'errors', 'error', {
      message: 'timeout after 10000 ms',
      cause: 'no answer within 10 s, also when sent again alone; try --timeout 30s or --concurrency 8',
      evidence: [exchange('GET', '/pets/1', { response: undefined, error: 'timeout after 10000 ms', attempt: 2 })],
    }),
    result('ERR-STATUS-MATCHES', 'MUST', 'errors', 'passed'),
    result('LIST-OK', 'MUST', 'list', 'passed', { evidence: [exchange('GET', '/pets')] }),
    result('LIST-PAGE-FULL', 'SHOULD', 'list', 'failed', {
      message: 'limit=1 returned 0 animals while the store holds at least 3',
      evidence: [exchange('GET', '/pets?limit=1')],
    }),
    result('LIST-LIMIT-MAX', 'MUST', 'list', 'skipped', { message: 'deadline of the operation reached', durationMs: 0 }),
    result('LIST-STATUS-COMPLETE', 'MUST', 'list', 'inconclusive', {
      message: 'the store holds no animal with status sold',
      notes: ['only available animals were seen'],
      evidence: [exchange('GET', '/pets?status=sold')],
    }),
    result('ORDERS-EXISTS', 'SHOULD', 'orders', 'skipped', { message: 'not in the health profile', durationMs: 0 }),
  ];
  for (const r of requirements) {
    const reason = options.expectedFailures?.[r.id];
    if (reason === undefined) continue;
    r.expectedFailure = reason; // what harness/run/runner.ts markExpectedFailure does
  }
  if (options.abortReason !== undefined) {
    // what harness/run/runner.ts does when the run is aborted: nothing is judged
    requirements = requirements.map((r) => ({
      ...result(r.id, r.level, r.area, 'skipped', { message: `not run: ${options.abortReason}`, durationMs: 0 }),
      title: r.title,
      operation: r.operation,
    }));
  }
  return buildReport(
    {
      tool: { name: 'animal-store-conformance', version: '0.1.0' },
      spec: { title: 'Animal Store', version: '1.0.0' },
      target: { environment: 'staging', baseUrl: BASE_URL, quickstartBaseUrl: 'https://qs.example.test' },
      profile: 'certify',
      strict: false,
      startedAt: '2025-01-02T03:04:05.678Z',
      finishedAt: '2025-01-02T03:04:17.001Z',
      durationMs: 11323.4,
      runPrefix: 'conformance-fixture-0a1b2c',
      animalsCreated: 104,
      requestCount: 42,
      retries: 1,
      rateLimited: 0,
      latency: { listPets: { count: 30, p50: 12.5, p95: 40, max: 61.2 }, createPet: { count: 12, p50: 20, p95: 35.1, max: 35.1 } },
      ...(options.abortReason !== undefined && { abortReason: options.abortReason }),
    },
    requirements,
  );
}

/** The counts of a list of results, as the run report computes them. */
export { countResults as countOf } from '../harness/verdict/report.js';
