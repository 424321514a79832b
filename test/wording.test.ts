// Counted nouns and articles in what people read: "1 request", "an application/json body".
import { describe, expect, it } from 'vitest';
import { Exchange } from '../harness/http/exchange.js';
import { Redactor } from '../harness/http/redact.js';
import { plural } from '../harness/model/words.js';
import { formatSummary } from '../reporters/console.js';
import { githubSummary } from '../reporters/github.js';
import { buildReportFixture } from './report-fixture.js';

/** An answer of this media type and body to GET /v1/pets. */
function answer(contentType: string, body: string): Exchange {
  const ex = new Exchange({ method: 'GET', url: 'http://127.0.0.1:1/v1/pets', headers: {} }, new Redactor([]));
  ex.status = 200;
  ex.headers = { 'content-type': contentType };
  ex.text = body;
  return ex;
}

describe('wording', () => {
  it('counts one request, one retry, as one', () => {
    expect([plural(1, 'request'), plural(2, 'request'), plural(0, 'request'), plural(1, 'retry', 'retries'), plural(3, 'retry', 'retries')]).toEqual([
      '1 request',
      '2 requests',
      '0 requests',
      '1 retry',
      '3 retries',
    ]);
    const report = { ...buildReportFixture(), requestCount: 1, retries: 1 };
    expect(githubSummary(report)).toMatch(/, 1 request in \d/);
    expect(formatSummary(report, [])).toMatch(/^Requests: 1 \(1 retry\) in /m);
  });

  it('quotes a body that is not JSON with the article its media type takes', () => {
    expect(answer('application/json', '{"truncated": ').bodyExcerpt).toMatch(/^an application\/json body of 14 bytes, beginning "\{"truncated":"$/);
    expect(answer('text/html', '<title>Oops</title>').bodyExcerpt).toMatch(/^a text\/html body of \d+ bytes, titled "Oops"$/);
    expect(answer('image/png', 'x').bodyExcerpt).toMatch(/^an image\/png body/);
  });
});
