import { describe, it, expect, afterAll } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { renderHtml } from '../reporters/html.js';
import { writeAtomically } from '../harness/model/files.js';
import type { RunReport } from '../harness/model/types.js';
import { buildReport, countResults } from '../harness/verdict/report.js';
import { buildReportFixture, HOSTILE_BODY } from './report-fixture.js';
import { findChromium } from './support/browser.js';

const SCRIPT = "<script>document.title='pwned'</script>";

/** The fixture with hostile markup wherever a server or a catalogue could put text. */
function hostileReport(): RunReport {
  const report = buildReportFixture();
  const failed = report.requirements.find((r) => r.id === 'AUTH-INVALID-KEY')!;
  const x = failed.evidence[0];
  x.response!.body = `${SCRIPT}<img src=x onerror="document.title='img'">` + HOSTILE_BODY;
  x.response!.headers['x-evil'] = `"><script>document.title='header'</script>`;
  x.request.url += `&q=</pre><script>document.title='url'</script>`;
  x.error = `</pre>${SCRIPT}`;
  failed.message = `expected 401 ${SCRIPT}`;
  failed.notes.push(`<style>body{display:none}</style>`);
  report.requirements.push({
    ...report.requirements[0],
    id: `X"><script>document.title='id'</script>`,
    area: `<b onmouseover="x()">area</b>`,
    title: `<iframe src="https://evil.example/"></iframe>`,
    outcome: 'skipped',
    message: `<link rel=stylesheet href="https://evil.example/x.css">`,
  });
  return report;
}

const byId = (report: RunReport, id: string) => report.requirements.find((r) => r.id === id)!;

/** The text an escaped string stands for (what renderHtml escapes). */
const unescapeHtml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** Every start or end tag: name and the raw attribute text. */
const tagsOf = (html: string) => [...html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/g)].map((m) => ({ name: m[2].toLowerCase(), attrs: m[3] }));

/** The markup alone: every tag and the stylesheet, no text. */
const markupOf = (html: string) =>
  [...html.matchAll(/<\/?[a-zA-Z][a-zA-Z0-9-]*[^>]*>/g)].map((m) => m[0]).join('') + (html.match(/<style>([\s\S]*?)<\/style>/)?.[1] ?? '');

const ALLOWED_TAGS = new Set([
  'html',
  'head',
  'meta',
  'title',
  'style',
  'body',
  'main',
  'h1',
  'h2',
  'header',
  'footer',
  'section',
  'p',
  'span',
  'b',
  'code',
  'pre',
  'dl',
  'dt',
  'dd',
  'div',
  'ul',
  'li',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'a',
  'details',
  'summary',
  'blockquote',
  'time',
]);
const ALLOWED_ATTRS = new Set([
  'lang',
  'charset',
  'http-equiv',
  'content',
  'name',
  'id',
  'class',
  'title',
  'href',
  'colspan',
  'datetime',
  'open',
  'data-verdict',
  'data-exit-code',
  'data-field',
  'data-count',
  'data-area',
  'data-requirement',
  'data-outcome',
  'data-level',
  'data-exchange',
  'data-operation',
  'data-expected-failure',
]);

describe('renderHtml', () => {
  const report = buildReportFixture();
  const html = renderHtml(report);

  it('is one self-contained document: inline CSS, no script, no external asset', () => {
    // the fixture as a whole; the hostile report's markup (its text holds "src=" and "https://" on purpose)
    for (const h of [html, markupOf(renderHtml(hostileReport()))]) {
      expect(h.startsWith('<!DOCTYPE html>\n<html lang="en">') || h.startsWith('<html lang="en">')).toBe(true);
      expect(h).toContain('<meta charset="utf-8">');
      expect(h).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';/);
      expect(h).not.toMatch(/<script|<link|<img|<iframe|<object|<embed|<base|@import|url\(|\bsrc=|srcset=/i);
      expect(h).not.toMatch(/\b(?:href|src|action|poster|data)\s*=\s*["']?\s*(?:[a-z]+:)?\/\//i);
      expect(markupOf(h)).not.toMatch(/https?:|\/\//i); // URLs only as shown text, never in markup
      // the only links are fragments of the page itself
      for (const m of h.matchAll(/\bhref="([^"]*)"/g)) expect(m[1]).toMatch(/^#(?:area|req)-[a-z0-9-]+$/);
      expect(h.match(/<style>/g)?.length).toBe(1);
    }
  });

  it('escapes everything: only its own tags and attributes, hostile text stays text', () => {
    const hostile = hostileReport();
    const h = renderHtml(hostile);
    for (const { name, attrs } of tagsOf(h)) {
      expect(ALLOWED_TAGS.has(name), `tag <${name}>`).toBe(true);
      for (const a of attrs.matchAll(/([^\s=]+)(?:="[^"]*")?/g)) expect(ALLOWED_ATTRS.has(a[1]), `attribute ${a[1]} of <${name}>`).toBe(true);
      expect(attrs.replace(/"[^"]*"/g, '')).not.toMatch(/['<]/);
    }
    expect(h).toContain('&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;&lt;img src=x onerror=&quot;document.title=&#39;img&#39;&quot;&gt;');
    expect(h).toContain('&lt;html&gt;&lt;b&gt;Oops &amp; &quot;bad&quot; &#39;quote&#39;&lt;/b&gt; ]]&gt;');
    expect(h).toContain(`data-requirement="X&quot;&gt;&lt;script&gt;document.title=&#39;id&#39;&lt;/script&gt;"`);
    expect(h).toContain('&lt;iframe src=&quot;https://evil.example/&quot;&gt;&lt;/iframe&gt;');
    expect(h).toContain('&lt;/pre&gt;&lt;script&gt;');
    expect(h).toContain('🐾 Zürich 猫');
  });

  it('shows control characters, bidi controls and lone surrogates as visible markers, never raw', () => {
    for (const h of [html, renderHtml(hostileReport())]) {
      expect(h).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\uFFFE\uFFFF]/);
      expect(h).not.toMatch(/\r(?!\n)/);
      expect(h).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
    expect(html).toContain('<span class="ctl" title="U+0000">\\x00</span>nul');
    expect(html).toContain('<span class="ctl" title="U+FFFE">\\uFFFE</span>');
    expect(html).toContain('lone:<span class="ctl" title="U+D800">\\uD800</span>');
    expect(renderHtml({ ...report, abortReason: 'a\u202Eb', verdict: 'aborted' })).toContain('a<span class="ctl" title="U+202E">\\u202E</span>b');
  });

  it('has the verdict banner, the target, profile, versions, times, request count and counts', () => {
    expect(html).toMatch(/<header id="verdict" class="banner verdict-non-compliant" data-verdict="non-compliant" data-exit-code="1">/);
    expect(html).toContain('<span class="banner-verdict">Non-compliant</span>');
    expect(html).toContain(`${report.counts.mustViolations} MUST requirement failed: `);
    expect(html).toContain('1 SHOULD requirement failed (reported, does not change the verdict)');
    const field = (name: string) => html.match(new RegExp(`<div data-field="${name}"><dt>[^<]*</dt><dd>(.*?)</dd></div>`))?.[1];
    expect(field('baseUrl')).toBe('<code>https://api.example.test/v1</code>');
    expect(field('environment')).toBe('staging');
    expect(field('quickstartBaseUrl')).toBe('<code>https://qs.example.test</code>');
    expect(field('profile')).toBe('certify');
    expect(field('tool')).toBe('animal-store-conformance 0.1.0');
    expect(field('spec')).toBe('Animal Store 1.0.0');
    expect(field('startedAt')).toBe('<time datetime="2025-01-02T03:04:05.678Z">2025-01-02 03:04:05 UTC</time>');
    expect(field('duration')).toBe('11.3 s');
    expect(field('requestCount')).toBe('42');
    const counts = html.match(/<ul id="counts" class="counts">(.*?)<\/ul>/)![1];
    for (const k of ['total', 'passed', 'failed', 'error', 'skipped', 'inconclusive', 'mustViolations', 'shouldViolations'] as const) {
      expect(counts).toMatch(new RegExp(`data-count="${k}"[^>]*><b>${report.counts[k]}</b>`));
    }
  });

  it('groups requirements by area in report order, with the area verdict and counts; violations first', () => {
    const sections = [...html.matchAll(/<section class="area" id="area-([^"]+)" data-area="([^"]+)" data-verdict="([^"]+)">([\s\S]*?)<\/section>/g)];
    expect(sections.map((m) => m[2])).toEqual(report.areas.map((a) => a.area));
    for (const [i, area] of report.areas.entries()) {
      const [, , , verdict, body] = sections[i];
      expect(verdict).toBe(area.verdict);
      const rows = [...body.matchAll(/<tbody class="requirement[^"]*" id="[^"]*" data-requirement="([^"]+)" data-outcome="([^"]+)" data-level="([^"]+)"/g)];
      const results = report.requirements.filter((r) => r.area === area.area);
      expect(rows.map((m) => m[1]).sort()).toEqual(results.map((r) => r.id).sort());
      for (const [, id, outcome, level] of rows) {
        const r = results.find((x) => x.id === id)!;
        expect([outcome, level]).toEqual([r.outcome, r.level]);
      }
      expect(body).toMatch(new RegExp(`data-count="failed"[^>]*><b>${area.counts.failed}</b>`));
    }
    const list = sections[2][4];
    expect([...list.matchAll(/data-requirement="([^"]+)"/g)].map((m) => m[1])).toEqual(['LIST-PAGE-FULL', 'LIST-STATUS-COMPLETE', 'LIST-LIMIT-MAX', 'LIST-OK']);
    expect(html).toContain('<a href="#area-auth">auth</a>');
  });

  it('a failed requirement shows message, notes, every exchange (request, response, error) and its curl line', () => {
    const block = html.match(/<tbody [^>]*data-requirement="AUTH-INVALID-KEY"[\s\S]*?<\/tbody>/)![0];
    const text = unescapeHtml(block.replace(/<[^>]+>/g, ''));
    const [violating, second] = byId(report, 'AUTH-INVALID-KEY').evidence;
    expect(block).toContain('data-outcome="failed" data-level="MUST" data-area="auth"');
    expect(block).toContain('<details class="evidence" open>');
    expect(text).toContain('A bearer token that is not a valid key gets 401 <&>');
    expect(text).toContain('expected 401, got 500 & an HTML page');
    expect(text).toContain('Source sentence of AUTH-INVALID-KEY');
    expect(text).toContain('the server answered with "text/html"');
    expect(text).toContain(`POST ${violating.request.url}`);
    expect(text).toContain('content-type: application/json');
    expect(text).toContain('{"name":"Rex\\x00","categoryId":1}');
    expect(text).toContain('HTTP 500 (body truncated at the size cap)');
    expect(text).toContain('content-type: text/html; charset=utf-8');
    expect(text).toContain(`<html><b>Oops & "bad" 'quote'</b> ]]> <![CDATA[x]]>`);
    expect(text).toContain(violating.curl);
    expect(text).toContain(second.curl);
    expect(text).toContain('Exchange 2 of 2');
    expect(block.match(/<pre class="curl">/g)?.length).toBe(2);

    const error = html.match(/<tbody [^>]*data-requirement="ERR-BODY-SHAPE"[\s\S]*?<\/tbody>/)![0];
    expect(error).toContain('data-outcome="error"');
    expect(error).toContain('<pre class="error">timeout after 10000 ms</pre>');
    expect(error).toContain('attempt 2');
    expect(error).toContain('<p class="none">no response</p>');
    expect(error).toContain(`<pre class="curl">curl -sS -X GET &#39;https://api.example.test/v1/pets/1&#39; -H &#39;Authorization: Bearer $API_KEY&#39;</pre>`);
  });

  it('shows skip and inconclusive reasons and notes; a pass has no evidence block', () => {
    const block = (id: string) => html.match(new RegExp(`<tbody [^>]*data-requirement="${id}"[\\s\\S]*?</tbody>`))![0];
    expect(block('LIST-LIMIT-MAX')).toContain('<p class="message"><span class="prefix">Skipped: </span>deadline of the operation reached</p>');
    const inconclusive = block('LIST-STATUS-COMPLETE');
    expect(inconclusive).toContain('<span class="prefix">Inconclusive: </span>the store holds no animal with status sold');
    expect(inconclusive).toContain('<li>only available animals were seen</li>');
    expect(inconclusive).toContain('<details class="evidence">');
    const passed = block('AUTH-MISSING-HEADER');
    expect(passed).toContain('<li>GET /store/orders answered 404, judged as missing</li>');
    expect(passed).not.toContain('evidence');
    expect(block('ERR-STATUS-MATCHES')).not.toContain('class="detail"');
  });

  it('the banner names each violation, linked to its row: MUST ids, SHOULD ids under strict or as reported', () => {
    /** The ids the banner's paragraph containing `text` links, and where each link points. */
    const linksIn = (h: string, text: string) => {
      const banner = h.match(/<header id="verdict"[\s\S]*?<\/header>/)![0];
      const p = banner.split('\n').find((line) => line.includes(text))!;
      return [...p.matchAll(/<a class="violation-link" href="#([^"]+)">([^<]+)<\/a>/g)].map((m) => ({ anchor: m[1], id: m[2] }));
    };
    // ERR-BODY-SHAPE could not be judged: no violation, not named
    const must = linksIn(html, 'MUST requirement failed');
    expect(must.map((l) => l.id)).toEqual(['AUTH-INVALID-KEY']);
    // every link lands on the row of the requirement it names
    for (const { anchor, id } of must) expect(html).toMatch(new RegExp(`<tbody [^>]*id="${anchor}" data-requirement="${id}"`));
    expect(linksIn(html, 'reported, does not change the verdict').map((l) => l.id)).toEqual(['LIST-PAGE-FULL']);
    const strict = renderHtml(buildReport({ ...report, strict: true }, report.requirements));
    expect(linksIn(strict, '(strict) failed').map((l) => l.id)).toEqual(['AUTH-INVALID-KEY', 'LIST-PAGE-FULL']);
    // a listed known deviation is no violation: not named
    const listed = buildReportFixture({ expectedFailures: { 'LIST-PAGE-FULL': 'ticket 7' } });
    expect(linksIn(renderHtml(listed), 'MUST requirement failed').map((l) => l.id)).toEqual(['AUTH-INVALID-KEY']);
    expect(renderHtml(listed)).not.toContain('SHOULD requirement failed');
    // an id with markup stays text, and its anchor is a slug
    const hostile = buildReportFixture();
    byId(hostile, 'AUTH-INVALID-KEY').id = 'AUTH-"><b>X';
    const h = renderHtml(hostile);
    expect(h).toContain('<a class="violation-link" href="#req-auth--b-x">AUTH-&quot;&gt;&lt;b&gt;X</a>');
    expect(h).toContain('id="req-auth--b-x"');
  });

  it('says how much of the catalogue was judged; an area or run that judged nothing reads "not tested"', () => {
    expect(html).toContain('<p id="coverage" class="reason">5 of 9 requirements judged; 1 could not be judged, 2 skipped, 1 inconclusive.</p>');
    expect(html).not.toContain('id="coverage-warning"');
    // the fixture's orders area holds one skipped requirement
    expect(html).toMatch(
      /<section class="area" id="area-orders" data-area="orders" data-verdict="not-tested">\n<h2><span class="area-name">orders<\/span> <span class="badge verdict-not-tested">Not tested<\/span>/,
    );
    const few = report.requirements.map((r) => (r.area === 'auth' ? r : { ...r, outcome: 'skipped' as const, message: 'not selected (--only, --skip)' }));
    const h = renderHtml(buildReport(report, few));
    expect(h).toContain('<p id="coverage" class="reason">2 of 9 requirements judged; 7 skipped.</p>');
    expect(h).toContain('<p id="coverage-warning" class="reason warning">Warning: only 2 of 9 requirements were judged: this verdict covers those only.</p>');
    const none = renderHtml(
      buildReport(
        report,
        report.requirements.map((r) => ({ ...r, outcome: 'skipped' as const })),
      ),
    );
    expect(none).toContain('<header id="verdict" class="banner verdict-not-tested" data-verdict="not-tested" data-exit-code="2">');
    expect(none).toContain('<span class="banner-verdict">Not tested</span>');
    expect(none).toMatch(/id="coverage-warning" class="reason warning">Warning: no requirement was judged/);
    expect(none).not.toContain('No MUST requirement failed');
  });

  it('names the prefix of the data a certify run created', () => {
    const field = html.match(/<div data-field="runPrefix"><dt>Data created<\/dt><dd>(.*?)<\/dd><\/div>/)?.[1];
    expect(field).toBe('<code>conformance-fixture-0a1b2c-…</code> 104 animals (the API has no delete)');
    expect(renderHtml({ ...report, profile: 'health' })).not.toContain('data-field="runPrefix"');
  });

  it('an incomplete run says how many MUSTs could not be judged, why and what helps, each linked to its row; never a violation', () => {
    const fixed = buildReportFixture();
    byId(fixed, 'AUTH-INVALID-KEY').outcome = 'passed';
    const incomplete = buildReport(fixed, fixed.requirements);
    expect([incomplete.verdict, incomplete.exitCode, incomplete.counts.mustViolations]).toEqual(['incomplete', 2, 0]);
    const h = renderHtml(incomplete);
    expect(h).toContain('<header id="verdict" class="banner verdict-incomplete" data-verdict="incomplete" data-exit-code="2">');
    expect(h).toContain('<span class="banner-verdict">Incomplete</span>');
    expect(h).toContain(
      '<p id="incomplete-reason" class="reason">1 MUST requirement could not be judged: no answer within 10 s, also when sent again alone; try --timeout 30s or --concurrency 8: <a class="violation-link" href="#req-err-body-shape">ERR-BODY-SHAPE</a>.</p>',
    );
    const row = h.match(/<tbody [^>]*data-requirement="ERR-BODY-SHAPE"[\s\S]*?<\/tbody>/)![0];
    expect(row).toContain('<p class="cause"><span class="prefix">Could not be judged: </span>no answer within 10 s');
    expect(row).toContain('<pre class="error">timeout after 10000 ms</pre>');
  });

  it('an aborted run shows the reason; a compliant run says so', () => {
    const aborted = renderHtml({ ...report, verdict: 'aborted', exitCode: 2, abortReason: 'target unreachable: <ECONNREFUSED>' });
    expect(aborted).toContain('<span class="banner-verdict">Aborted</span>');
    expect(aborted).toContain('<p id="abort-reason" class="reason">The run could not be made: target unreachable: &lt;ECONNREFUSED&gt;</p>');
    const passing = report.requirements.map((r) => ({ ...r, outcome: 'passed' as const }));
    const compliant = renderHtml({ ...report, verdict: 'compliant', exitCode: 0, requirements: passing, counts: countResults(passing) });
    expect(compliant).toContain('<header id="verdict" class="banner verdict-compliant" data-verdict="compliant" data-exit-code="0">');
    expect(compliant).toContain('No MUST requirement failed or went unproven.');
    expect(compliant).not.toContain('id="abort-reason"');
    const empty = renderHtml({ ...report, areas: [], requirements: [], counts: countResults([]), verdict: 'aborted', abortReason: 'bad configuration' });
    expect(empty).toContain('No requirement was run.');
  });

  it('shows strict mode, known deviations and the response times per operation', () => {
    const strict = renderHtml({ ...report, strict: true });
    expect(strict).toContain('1 MUST requirement and 1 SHOULD requirement (strict) failed: ');
    expect(strict).toContain('<span class="strict">strict: SHOULD counts</span>');
    expect(html).not.toContain('class="strict"');

    const deviations = buildReportFixture();
    byId(deviations, 'LIST-PAGE-FULL').expectedFailure = 'tracked in <ISSUE-12>';
    const h = renderHtml(deviations);
    const block = h.match(/<tbody [^>]*data-requirement="LIST-PAGE-FULL"[\s\S]*?<\/tbody>/)![0];
    expect(block).toMatch(/^<tbody class="requirement outcome-failed expected-failure" [^>]*data-expected-failure>/);
    expect(block).toContain('<span class="prefix">Expected failure (listed known deviation, not counted): </span>tracked in &lt;ISSUE-12&gt;');
    expect(block).toContain('<span class="badge expected-badge">expected failure</span>');
    expect(h).toContain('1 listed known deviation failed as expected (not counted).');

    const latency = html.match(/<details id="latency"[\s\S]*?<\/details>/)![0];
    expect(latency).toContain(
      '<tr data-operation="listPets"><td><code>listPets</code></td><td class="num">30</td><td class="num">12.5</td><td class="num">40.0</td><td class="num">61.2</td></tr>',
    );
    expect(renderHtml({ ...report, latency: {} })).not.toContain('id="latency"');
  });

  it('a listed known deviation says "expected failure" with the reason; not counted, sorted or styled as a violation', () => {
    const listed = buildReportFixture({
      expectedFailures: {
        'AUTH-INVALID-KEY': 'tracked in <ISSUE-12>',
        'ERR-BODY-SHAPE': 'upstream timeout, ticket 7',
        'LIST-OK': 'was broken in 0.9',
      },
    });
    const h = renderHtml(listed);
    const block = (id: string) => h.match(new RegExp(`<tbody [^>]*data-requirement="${id}"[\\s\\S]*?</tbody>`))![0];

    // the verdict and the counts: no MUST violation left, the deviations counted apart
    expect(h).toContain('<header id="verdict" class="banner verdict-compliant" data-verdict="compliant" data-exit-code="0">');
    expect(h).toContain('2 listed known deviations failed as expected (not counted).');
    expect(h).toContain('1 listed known deviation passed: remove it from the expected-failures file.');
    const counts = h.match(/<ul id="counts" class="counts">(.*?)<\/ul>/)![1];
    expect(counts).toContain('<li data-count="mustViolations" class="violations zero"><b>0</b> MUST violated</li>');
    expect(counts).toContain('<li data-count="expectedFailures" class="count expected"><b>2</b> expected failures (not counted)</li>');
    expect(counts).toContain('<li data-count="error" class="count outcome-error expected"><b>1</b> error</li>');
    expect(counts).toContain('<li data-count="failed" class="count outcome-failed"><b>2</b> failed</li>'); // LIST-PAGE-FULL is a real one
    expect(html).not.toContain('data-count="expectedFailures"');
    const overviewRow = (area: string) => h.match(new RegExp(`<tr data-area="${area}">.*?</tr>`))![0];
    expect(overviewRow('auth')).toContain('<td class="num n-expected">1</td>'); // failed, expected
    expect(overviewRow('errors')).toContain('<td class="num n-expected">1</td>'); // error, expected
    expect(overviewRow('list')).toContain('<td class="num n-failed">1</td>');
    expect(h).toMatch(
      /<section class="area" id="area-auth" data-area="auth" data-verdict="compliant">[\s\S]*?<li data-count="failed" class="count outcome-failed expected"><b>1<\/b> failed<\/li>/,
    );

    // a failure: "expected failure" and the reason, evidence one click away (not open), not violation-styled
    const failed = block('AUTH-INVALID-KEY');
    expect(failed).toMatch(/^<tbody class="requirement outcome-failed expected-failure" [^>]*data-outcome="failed" [^>]*data-expected-failure>/);
    expect(failed).toContain('<span class="badge outcome-failed expected-outcome">failed</span> <span class="badge expected-badge">expected failure</span>');
    expect(failed).toContain(
      '<p class="expected"><span class="prefix">Expected failure (listed known deviation, not counted): </span>tracked in &lt;ISSUE-12&gt;</p>',
    );
    expect(failed).toContain('<details class="evidence"><summary>Evidence: 2 exchanges</summary>');
    expect(failed).not.toContain('<details class="evidence" open>');
    expect(failed).toContain('<pre class="curl">');
    const error = block('ERR-BODY-SHAPE');
    expect(error).toContain('<span class="badge outcome-error expected-outcome">error</span> <span class="badge expected-badge">expected failure</span>');
    expect(error).toContain('</span>upstream timeout, ticket 7</p>');
    expect(error).toContain('<pre class="error">timeout after 10000 ms</pre>');

    // listed but passed: says so with the reason, once
    const passed = block('LIST-OK');
    expect(passed).toMatch(/^<tbody class="requirement outcome-passed expected-failure" [^>]*data-expected-failure>/);
    expect(passed).toContain('<span class="badge outcome-passed">passed</span> <span class="badge expected-badge">listed as expected failure</span>');
    expect(passed).toContain(
      '<p class="expected"><span class="prefix">Listed as an expected failure but passed (remove it from the expected-failures file): </span>was broken in 0.9</p>',
    );
    expect(passed).not.toContain('<li>listed as an expected failure');
    expect(passed).not.toContain('>expected failure</span>');

    // the CSS gives listed deviations their own colour, over the violation red and amber
    expect(h).toContain('.badge.expected-outcome.outcome-failed, .badge.expected-outcome.outcome-error { color: var(--xf); background: var(--xf-bg); }');
    expect(h).toContain(
      'tbody.requirement.expected-failure.outcome-failed, tbody.requirement.expected-failure.outcome-error { border-left-color: var(--xf); }',
    );
  });

  it('sorts violations before expected failures, then inconclusive, skipped, passed', () => {
    const listed = buildReportFixture();
    Object.assign(byId(listed, 'LIST-OK'), { outcome: 'failed', message: 'x', expectedFailure: 'known' });
    const list = renderHtml(listed).match(/<section class="area" id="area-list"[\s\S]*?<\/section>/)![0];
    // the expected MUST failure sorts after the SHOULD violation
    expect([...list.matchAll(/data-requirement="([^"]+)"/g)].map((m) => m[1])).toEqual(['LIST-PAGE-FULL', 'LIST-OK', 'LIST-STATUS-COMPLETE', 'LIST-LIMIT-MAX']);
  });

  it('lists an area that only a result names', () => {
    const extra = buildReportFixture();
    extra.requirements.push({ ...extra.requirements[0], id: 'QS-OK', area: 'quickstart' });
    const h = renderHtml(extra);
    expect(h).toMatch(/<section class="area" id="area-quickstart" data-area="quickstart">/);
    expect(h).toContain('data-requirement="QS-OK"');
  });

  it('writes report.html into a new directory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'html-report-'));
    try {
      const file = await writeAtomically(join(dir, 'a', 'b'), 'report.html', renderHtml(report));
      expect(file).toBe(join(dir, 'a', 'b', 'report.html'));
      expect(await readFile(file, 'utf8')).toBe(html);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('report.html in Chromium', () => {
  let browser: Browser | undefined;
  let dir: string;

  /** The browser, launched once; each test fails (never skips) with a clear message when no Chromium can be had. */
  async function launched(): Promise<Browser> {
    dir ??= await mkdtemp(join(tmpdir(), 'html-report-'));
    if (browser) return browser;
    const found = await findChromium();
    try {
      browser = await chromium.launch({
        executablePath: found.executablePath,
        // a user's browser: web security and the CSP stay on (the package's own Lambda flags would turn them off)
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
    } catch (err) {
      throw new Error(`Chromium from ${found.source} (${found.executablePath}) did not start; set CHROMIUM_PATH to another one. ${err}`);
    }
    return browser;
  }

  afterAll(async () => {
    await browser?.close();
    // dir is kept: it holds report.png for a look
  });

  /** Opens the written report; returns the page, every URL it requested and any console error or page error. */
  async function open(report: RunReport, name: string): Promise<{ page: Page; url: string; requests: string[]; problems: string[] }> {
    const b = await launched();
    const file = await writeAtomically(join(dir, name), 'report.html', renderHtml(report));
    const url = pathToFileURL(file).href;
    const context = await b.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: true });
    const page = await context.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    context.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(url, { waitUntil: 'load' });
    return { page, url, requests, problems };
  }

  it('shows the verdict and a failure with its evidence and curl line, makes no request; screenshot', async () => {
    const report = buildReportFixture();
    const { page, url, requests, problems } = await open(report, 'failing');

    const banner = page.locator('#verdict');
    expect(await banner.isVisible()).toBe(true);
    expect(await banner.getAttribute('data-verdict')).toBe('non-compliant');
    expect(await banner.innerText()).toMatch(/Non-compliant/);
    expect(await banner.innerText()).toContain('1 MUST requirement failed: AUTH-INVALID-KEY.');
    expect(await page.title()).toBe('Animal Store conformance: Non-compliant (https://api.example.test/v1)');

    const failed = page.locator('[data-requirement="AUTH-INVALID-KEY"]');
    expect(await failed.getAttribute('data-outcome')).toBe('failed');
    const [violating] = byId(report, 'AUTH-INVALID-KEY').evidence;
    const visibleText = async (selector: string) => {
      const el = failed.locator(selector).first();
      expect(await el.isVisible(), selector).toBe(true);
      return el.innerText();
    };
    expect(await visibleText('.message')).toBe('expected 401, got 500 & an HTML page');
    expect(await visibleText('pre.request')).toContain(`POST ${violating.request.url}`);
    const response = await visibleText('pre.response');
    expect(response).toContain('HTTP 500 (body truncated at the size cap)');
    expect(response).toContain(`<html><b>Oops & "bad" 'quote'</b> ]]> <![CDATA[x]]>`);
    expect(response).toContain('🐾 Zürich 猫');
    expect(await visibleText('pre.curl')).toBe(violating.curl);
    expect(await failed.locator('.exchange').count()).toBe(2);

    const error = page.locator('[data-requirement="ERR-BODY-SHAPE"]');
    expect(await error.getAttribute('data-outcome')).toBe('error');
    expect(await error.locator('pre.error').innerText()).toBe('timeout after 10000 ms');
    expect(await error.locator('pre.error').isVisible()).toBe(true);
    expect(await page.locator('[data-requirement="LIST-LIMIT-MAX"] .message').innerText()).toBe('Skipped: deadline of the operation reached');
    expect(await page.locator('#area-list').getAttribute('data-verdict')).toBe('compliant');
    expect(await page.locator('tbody.requirement').count()).toBe(report.requirements.length);

    // the colours came from the inline stylesheet (the CSP lets inline styles through)
    expect(await banner.evaluate((e) => (globalThis as any).getComputedStyle(e).backgroundColor)).toBe('rgb(207, 34, 46)');

    expect(requests).toEqual([url]);
    expect(problems).toEqual([]);

    const png = join(dir, 'report.png');
    await page.screenshot({ path: png, fullPage: true });
    expect(existsSync(png)).toBe(true);
    console.log(`report.html screenshot: ${png}`);
    await page.context().close();
  });

  it('a listed known deviation is not coloured as a violation', async () => {
    const report = buildReportFixture({ expectedFailures: { 'AUTH-INVALID-KEY': 'tracked in ISSUE-12', 'ERR-BODY-SHAPE': 'ticket 7' } });
    const { page, requests, url, problems } = await open(report, 'deviations');
    const style = (selector: string, prop: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((e, p) => (globalThis as any).getComputedStyle(e)[p] as string, prop);
    const BLUE = 'rgb(5, 80, 174)';
    const RED = 'rgb(207, 34, 46)';
    for (const id of ['AUTH-INVALID-KEY', 'ERR-BODY-SHAPE']) {
      const row = `[data-requirement="${id}"]`;
      expect(await style(row, 'borderLeftColor'), id).toBe(BLUE);
      expect(await style(`${row} .badge.expected-outcome`, 'color'), id).toBe(BLUE);
      expect(await style(`${row} .message`, 'color'), id).toBe(BLUE);
      expect(await page.locator(`${row} .expected`).innerText()).toMatch(/^Expected failure \(listed known deviation, not counted\): /);
      expect(await page.locator(`${row} pre.curl`).first().isVisible(), id).toBe(false); // evidence one click away
    }
    // the unlisted SHOULD failure is still red
    expect(await style('[data-requirement="LIST-PAGE-FULL"]', 'borderLeftColor')).toBe(RED);
    expect(await style('[data-requirement="LIST-PAGE-FULL"] .badge.outcome-failed', 'color')).toBe(RED);
    expect(await page.locator('#verdict').getAttribute('data-verdict')).toBe('compliant');
    expect(requests).toEqual([url]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a hostile <script> in evidence is shown as text and never runs', async () => {
    const report = hostileReport();
    const { page, url, requests, problems } = await open(report, 'hostile');
    expect(await page.title()).toBe('Animal Store conformance: Non-compliant (https://api.example.test/v1)');
    expect(await page.locator('script, img, iframe, link, style:not(head > style)').count()).toBe(0);

    const failed = page.locator('[data-requirement="AUTH-INVALID-KEY"]');
    const response = failed.locator('pre.response').first();
    expect(await response.isVisible()).toBe(true);
    expect(await response.innerText()).toContain(`${SCRIPT}<img src=x onerror="document.title='img'">`);
    expect(await response.innerText()).toContain(`x-evil: "><script>document.title='header'</script>`);
    expect(await failed.locator('pre.request').first().innerText()).toContain(`&q=</pre><script>document.title='url'</script>`);
    expect(await failed.locator('pre.error').first().innerText()).toBe(`</pre>${SCRIPT}`);
    expect(await failed.locator('.message').innerText()).toBe(`expected 401 ${SCRIPT}`);
    expect(await failed.locator('.notes').innerText()).toContain('<style>body{display:none}</style>');
    expect(await page.locator('main').isVisible()).toBe(true);

    const odd = page.locator(`[data-requirement="X\\"><script>document.title='id'</script>"]`);
    expect(await odd.count()).toBe(1);
    expect(await odd.locator('td.title').innerText()).toBe(`<iframe src="https://evil.example/"></iframe>`);

    expect(requests).toEqual([url]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
