// report.html: the run report for people, one self-contained file: inline CSS, no script,
// no external asset (the Content-Security-Policy forbids them too). Evidence comes from
// servers that may be hostile, so everything from the run is escaped: a <script> in a
// body renders as text. Tests and tooling read the ids, classes and data-* attributes.
import {
  countResults,
  countsAgainstVerdict,
  coverageText,
  coverageWarning,
  dataWarning,
  failedAsExpected,
  isUnjudged,
  isViolation,
  leavesIncomplete,
  listedButPassed,
  formatDuration,
} from '../harness/verdict/report.js';
import { baselineHeading, changeGroups } from '../harness/verdict/baseline.js';
import { plural } from '../harness/model/words.js';
import type { Counts, ExchangeRecord, LatencyStats, RequirementResult, RunReport, SinceBaseline, Verdict } from '../harness/model/types.js';

// Shown as a visible marker, not passed through: controls (but tab, LF, and CR before LF), zero-width and
// bidi controls (they could disguise evidence), noncharacters and lone surrogates (no `u` flag, so that it sees them).
const SPECIAL =
  /[&<>"']|\r(?!\n)|[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF\uFFF9-\uFFFB\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const hex = (c: string, width: number) => c.charCodeAt(0).toString(16).toUpperCase().padStart(width, '0');

// plain ASCII: every font has it
const marker = (c: string) => (c.charCodeAt(0) < 0x100 ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`);

const esc = (value: unknown) => String(value).replace(SPECIAL, (c) => ENTITIES[c] ?? `<span class="ctl" title="U+${hex(c, 4)}">${marker(c)}</span>`);

const attr = (value: unknown) =>
  String(value)
    .replace(SPECIAL, (c) => ENTITIES[c] ?? marker(c))
    .replace(/[\t\n\r]/g, ' ');

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'x';

/** "2025-01-02 03:04:05 UTC" in any time zone; anything not a time as given. */
function time(iso: string) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return esc(iso);
  const [date, clock] = d.toISOString().split('T');
  return `<time datetime="${attr(iso)}">${esc(`${date} ${clock.replace(/\.\d+Z$/, ' UTC')}`)}</time>`;
}

const code = (text: unknown) => `<code>${esc(text)}</code>`;

const VERDICT_LABEL: Record<Verdict, string> = {
  compliant: 'Compliant',
  'non-compliant': 'Non-compliant',
  incomplete: 'Incomplete',
  aborted: 'Aborted',
  'not-tested': 'Not tested',
};
const verdictLabel = (v: Verdict) => esc(VERDICT_LABEL[v] ?? v);
const verdictBadge = (v: Verdict) => `<span class="badge verdict-${attr(slug(v))}">${verdictLabel(v)}</span>`;

const OUTCOME_RANK = new Map(['failed', 'error', 'inconclusive', 'skipped', 'passed'].map((o, i) => [o, i]));
const mustFirst = (a: RequirementResult, b: RequirementResult) => (a.level === b.level ? 0 : a.level === 'MUST' ? -1 : 1);
const anchor = (id: string) => `req-${slug(id)}`;

const idLink = (r: RequirementResult) => `<a class="violation-link" href="#${attr(anchor(r.id))}">${esc(r.id)}</a>`;
const linkedIds = (results: RequirementResult[]) => `: ${[...results].sort(mustFirst).map(idLink).join(', ')}`;

function verdictBanner(report: RunReport) {
  const { counts: c, strict, verdict } = report;
  const ids = (which: (r: RequirementResult) => boolean) => linkedIds(report.requirements.filter(which));
  const lines: string[] = [];
  const reason = (html: string, id?: string, warning = false) =>
    lines.push(`<p${id ? ` id="${id}"` : ''} class="reason${warning ? ' warning' : ''}">${html}</p>`);
  if (verdict === 'aborted') {
    reason(`The run could not be made: ${esc(report.abortReason ?? 'no reason given')}`, 'abort-reason');
  } else if (verdict === 'non-compliant') {
    const counted =
      strict && c.shouldViolations > 0
        ? `${plural(c.mustViolations, 'MUST requirement')} and ${plural(c.shouldViolations, 'SHOULD requirement')} (strict)`
        : plural(c.mustViolations, 'MUST requirement');
    reason(`${esc(counted)} failed${ids((r) => countsAgainstVerdict(r, strict))}.`);
  } else if (verdict === 'incomplete') {
    reason(`${esc(report.incompleteReason ?? 'no reason given')}${ids((r) => leavesIncomplete(r, strict))}.`, 'incomplete-reason');
  } else if (verdict === 'compliant') {
    reason(`No MUST${strict ? ' or SHOULD' : ''} requirement failed or went unproven.`);
  }
  const warning = (id: string, text: string | undefined) => text && reason(`Warning: ${esc(text)}.`, id, true);
  if (verdict !== 'aborted') {
    reason(`${esc(coverageText(report.coverage))}.`, 'coverage');
    warning('coverage-warning', coverageWarning(report));
  }
  warning('data-warning', dataWarning(report));
  if (verdict !== 'aborted' && !strict && c.shouldViolations > 0) {
    const should = ids((r) => r.level === 'SHOULD' && isViolation(r));
    reason(`${esc(plural(c.shouldViolations, 'SHOULD requirement'))} failed (reported, does not change the verdict)${should}.`);
  }
  const expected = report.requirements.filter(failedAsExpected).length;
  if (expected > 0) reason(`${esc(plural(expected, 'listed known deviation'))} failed as expected (not counted).`);
  const passed = report.requirements.filter(listedButPassed).length;
  if (passed > 0) reason(`${esc(plural(passed, 'listed known deviation'))} passed: remove ${passed === 1 ? 'it' : 'them'} from the expected-failures file.`);
  return [
    `<header id="verdict" class="banner verdict-${attr(slug(verdict))}" data-verdict="${attr(verdict)}" data-exit-code="${attr(report.exitCode)}">`,
    `<div class="banner-head"><span class="banner-label">Verdict</span> <span class="banner-verdict">${verdictLabel(verdict)}</span> <span class="banner-exit">exit code ${esc(report.exitCode)}</span></div>`,
    ...lines,
    '</header>',
  ].join('\n');
}

function sinceBaseline(s: SinceBaseline) {
  const groups = changeGroups(s).map(({ key, label, changes }) => {
    const items = changes.map(
      (c) =>
        `<li data-requirement="${attr(c.id)}"><a href="#${attr(anchor(c.id))}">${code(c.id)}</a> ` + `${esc(c.level)} ${esc(c.title)} — ${esc(c.detail)}</li>`,
    );
    return `<div class="changes changes-${attr(key)}"><b>${esc(label)}</b>${items.length ? `<ul>${items.join('')}</ul>` : ' <span class="none">none</span>'}</div>`;
  });
  return [
    '<section id="since-baseline" class="since-baseline">',
    `<h2>${esc(baselineHeading(s))}</h2>`,
    ...groups,
    ...s.notes.map((n) => `<p class="note">Note: ${esc(n)}</p>`),
    '</section>',
  ].join('\n');
}

const field = (name: string, label: string, valueHtml: string) => `<div data-field="${attr(name)}"><dt>${esc(label)}</dt><dd>${valueHtml}</dd></div>`;

function runInfo(report: RunReport) {
  const t = report.target;
  const created = report.animalsCreated === undefined ? '' : ` ${esc(plural(report.animalsCreated, 'animal'))}`;
  const quickstart = t.quickstartBaseUrl ? code(t.quickstartBaseUrl) : '<span class="none">not configured</span>';
  return [
    '<dl id="run" class="run">',
    field('baseUrl', 'Base URL', code(t.baseUrl)),
    field('environment', 'Environment', esc(t.environment)),
    field('quickstartBaseUrl', 'Quickstart base URL', quickstart),
    field('profile', 'Profile', esc(report.profile) + (report.strict ? ' <span class="strict">strict: SHOULD counts</span>' : '')),
    field('tool', 'Tool', `${esc(report.tool.name)} ${esc(report.tool.version)}`),
    field('spec', 'Spec', `${esc(report.spec.title)} ${esc(report.spec.version)}`),
    field('startedAt', 'Started', time(report.startedAt)),
    field('duration', 'Duration', esc(formatDuration(report.durationMs))),
    field('requestCount', 'Requests sent', esc(report.requestCount)),
    report.profile === 'certify' &&
      report.runPrefix &&
      field('runPrefix', 'Data created', `${code(`${report.runPrefix}-…`)}${created} (the API has no delete)`),
    report.seed !== undefined && field('seed', 'Seed of the values drawn at random', code(`--seed ${report.seed}`)),
    '</dl>',
  ]
    .filter(Boolean)
    .join('\n');
}

function expectedOf(results: RequirementResult[]): { failed: number; error: number } {
  const expected = results.filter(failedAsExpected);
  return { failed: expected.filter((r) => r.outcome === 'failed').length, error: expected.filter((r) => r.outcome === 'error').length };
}

function countsLine(c: Counts, results: RequirementResult[], id?: string) {
  const expected = expectedOf(results);
  const items = [`<li data-count="total"><b>${esc(c.total)}</b> ${c.total === 1 ? 'requirement' : 'requirements'}</li>`];
  for (const o of ['passed', 'failed', 'error', 'inconclusive', 'skipped'] as const) {
    const n = c[o];
    // all of them listed known deviations: not styled as violations
    const allExpected = (o === 'failed' || o === 'error') && n > 0 && expected[o] === n;
    items.push(`<li data-count="${o}" class="count outcome-${o}${n === 0 ? ' zero' : ''}${allExpected ? ' expected' : ''}"><b>${esc(n)}</b> ${o}</li>`);
  }
  const nExpected = expected.failed + expected.error;
  if (nExpected > 0) {
    items.push(
      `<li data-count="expectedFailures" class="count expected"><b>${esc(nExpected)}</b> expected ${nExpected === 1 ? 'failure' : 'failures'} (not counted)</li>`,
    );
  }
  items.push(`<li data-count="mustViolations" class="violations${c.mustViolations ? '' : ' zero'}"><b>${esc(c.mustViolations)}</b> MUST violated</li>`);
  items.push(`<li data-count="shouldViolations" class="violations${c.shouldViolations ? '' : ' zero'}"><b>${esc(c.shouldViolations)}</b> SHOULD violated</li>`);
  return `<ul${id ? ` id="${attr(id)}"` : ''} class="counts">${items.join('')}</ul>`;
}

const ms = (v: number) => (Number.isFinite(v) ? (v < 100 ? v.toFixed(1) : Math.round(v).toString()) : '–');

function latencyTable(latency: Record<string, LatencyStats> | undefined, id: string, title = 'Response times per operation') {
  const entries = Object.entries(latency ?? {});
  if (!entries.length) return '';
  const rows = entries.map(
    ([op, l]) =>
      `<tr data-operation="${attr(op)}"><td>${code(op)}</td>` +
      [l.count, ms(l.p50), ms(l.p95), ms(l.max)].map((v) => `<td class="num">${esc(v)}</td>`).join('') +
      '</tr>',
  );
  return [
    `<details id="${id}" class="latency"><summary>${esc(title)}</summary>`,
    '<table class="overview">',
    '<thead><tr><th>Operation</th><th class="num">Requests</th><th class="num">p50 ms</th><th class="num">p95 ms</th><th class="num">max ms</th></tr></thead>',
    `<tbody>${rows.join('')}</tbody>`,
    '</table>',
    '</details>',
  ].join('\n');
}

const headerLines = (headers: Record<string, string>) =>
  Object.entries(headers ?? {}).map(([name, value]) => `<span class="h-name">${esc(name)}:</span> ${esc(value)}`);

function exchange(x: ExchangeRecord, index: number, total: number) {
  const meta = [`Exchange ${index + 1} of ${total}`, formatDuration(x.durationMs), x.operation, x.attempt && x.attempt > 1 && `attempt ${x.attempt}`];
  const label = (text: string) => `<div class="label">${text}</div>`;
  const request = [`<span class="start-line">${esc(x.request.method)} ${esc(x.request.url)}</span>`, ...headerLines(x.request.headers)];
  if (x.request.body !== undefined) request.push('', esc(x.request.body));
  const parts = [
    `<div class="exchange" data-exchange="${index + 1}">`,
    `<div class="exchange-head">${esc(meta.filter(Boolean).join(' · '))}</div>`,
    label('Request'),
    `<pre class="request">${request.join('\n')}</pre>`,
    label('Response'),
  ];
  const r = x.response;
  if (r) {
    const truncated = r.truncated ? ' <span class="truncated">(body truncated at the size cap)</span>' : '';
    const response = [
      `<span class="start-line status-${attr(String(r.status).charAt(0))}xx">HTTP ${esc(r.status)}${truncated}</span>`,
      ...headerLines(r.headers),
    ];
    if (r.body !== '') response.push('', esc(r.body));
    parts.push(`<pre class="response">${response.join('\n')}</pre>`);
  } else {
    parts.push(`<p class="none">no response</p>`);
  }
  if (x.error !== undefined) parts.push(label('Error'), `<pre class="error">${esc(x.error)}</pre>`);
  parts.push(label('Reproduce'), `<pre class="curl">${esc(x.curl)}</pre>`, '</div>');
  return parts.join('\n');
}

function detail(r: RequirementResult) {
  const violated = isViolation(r);
  const unjudged = isUnjudged(r);
  const expected = failedAsExpected(r);
  const prefixed = (prefix: string) => (prefix ? `<span class="prefix">${prefix}</span>` : '');
  const parts: string[] = [];
  if (r.expectedFailure !== undefined) {
    const prefix = expected
      ? 'Expected failure (listed known deviation, not counted): '
      : r.outcome === 'passed'
        ? 'Listed as an expected failure but passed (remove it from the expected-failures file): '
        : 'Listed as an expected failure: ';
    parts.push(`<p class="expected">${prefixed(prefix)}${esc(r.expectedFailure)}</p>`);
  }
  if (r.message) {
    const prefix = r.outcome === 'skipped' ? 'Skipped: ' : r.outcome === 'inconclusive' ? 'Inconclusive: ' : '';
    parts.push(`<p class="message">${prefixed(prefix)}${esc(r.message)}</p>`);
  }
  if (r.cause) parts.push(`<p class="cause">${prefixed('Could not be judged: ')}${esc(r.cause)}</p>`);
  if ((violated || expected) && r.source) parts.push(`<blockquote class="source">${esc(r.source)}</blockquote>`);
  if (r.notes.length) parts.push(`<ul class="notes">${r.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>`);
  if (r.evidence.length && (violated || unjudged || expected || r.outcome === 'inconclusive')) {
    const exchanges = r.evidence.map((x, i, all) => exchange(x, i, all.length)).join('\n');
    // evidence of a violation or of what could not be judged is open; of the others, one click away
    parts.push(
      `<details class="evidence"${violated || unjudged ? ' open' : ''}><summary>Evidence: ${esc(plural(r.evidence.length, 'exchange'))}</summary>\n${exchanges}\n</details>`,
    );
  }
  return parts.join('\n');
}

function requirement(r: RequirementResult) {
  const body = detail(r);
  const listed = r.expectedFailure !== undefined;
  const expected = failedAsExpected(r);
  const outcome = `<span class="badge outcome-${attr(slug(r.outcome))}${expected ? ' expected-outcome' : ''}">${esc(r.outcome)}</span>`;
  const badge = expected ? 'expected failure' : listed ? 'listed as expected failure' : '';
  const row = [
    `<tr class="summary">`,
    `<td class="id">${code(r.id)}</td>`,
    `<td class="level level-${attr(slug(r.level))}">${esc(r.level)}</td>`,
    `<td class="outcome">${outcome}${badge && ` <span class="badge expected-badge">${badge}</span>`}</td>`,
    `<td class="title">${esc(r.title)}</td>`,
    `<td class="duration">${esc(formatDuration(r.durationMs))}</td>`,
    `</tr>`,
  ].join('');
  const detailRow = body ? `\n<tr class="detail"><td colspan="5">\n${body}\n</td></tr>` : '';
  return (
    `<tbody class="requirement outcome-${attr(slug(r.outcome))}${listed ? ' expected-failure' : ''}" id="${attr(anchor(r.id))}" data-requirement="${attr(r.id)}"` +
    ` data-outcome="${attr(r.outcome)}" data-level="${attr(r.level)}" data-area="${attr(r.area)}"` +
    `${listed ? ' data-expected-failure' : ''}>\n${row}${detailRow}\n</tbody>`
  );
}

/** Violations first, then expected failures, inconclusive, skipped, passed. */
const rank = (r: RequirementResult) => (failedAsExpected(r) ? 1.5 : (OUTCOME_RANK.get(r.outcome) ?? 9));

function areaSection({ area, verdict }: { area: string; verdict?: Verdict }, requirements: RequirementResult[]) {
  const results = requirements.filter((r) => r.area === area);
  const sorted = [...results].sort((a, b) => rank(a) - rank(b) || mustFirst(a, b));
  return [
    `<section class="area" id="area-${attr(slug(area))}" data-area="${attr(area)}"${verdict ? ` data-verdict="${attr(verdict)}"` : ''}>`,
    `<h2><span class="area-name">${esc(area)}</span> ${verdict ? verdictBadge(verdict) : ''}</h2>`,
    countsLine(countResults(results), results),
    '<table class="requirements">',
    '<thead><tr><th class="id">Requirement</th><th class="level">Level</th><th class="outcome">Outcome</th><th class="title">Title</th><th class="duration">Duration</th></tr></thead>',
    ...sorted.map(requirement),
    '</table>',
    '</section>',
  ].join('\n');
}

function overview(areas: { area: string; verdict?: Verdict; counts: Counts }[], requirements: RequirementResult[]) {
  const rows = areas.map(({ area, verdict, counts: c }) => {
    const expected = expectedOf(requirements.filter((r) => r.area === area));
    const cls = (k: keyof Counts) =>
      c[k] === 0 && k !== 'total' ? ' zero' : (k === 'failed' || k === 'error') && expected[k] === c[k] ? ' n-expected' : ` n-${k}`;
    return (
      `<tr data-area="${attr(area)}"><td><a href="#area-${attr(slug(area))}">${esc(area)}</a></td>` +
      `<td>${verdict ? verdictBadge(verdict) : ''}</td>` +
      (['total', 'passed', 'failed', 'error', 'inconclusive', 'skipped'] as const).map((k) => `<td class="num${cls(k)}">${esc(c[k])}</td>`).join('') +
      '</tr>'
    );
  });
  return [
    '<table id="areas-overview" class="overview">',
    '<thead><tr><th>Area</th><th>Verdict</th><th class="num">Total</th><th class="num">Passed</th><th class="num">Failed</th><th class="num">Error</th><th class="num">Inconclusive</th><th class="num">Skipped</th></tr></thead>',
    '<tbody>',
    ...rows,
    '</tbody>',
    '</table>',
  ].join('\n');
}

const CSS = `
:root { color-scheme: light; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg-soft: #f6f8fa;
  --pass: #1a7f37; --pass-bg: #dafbe1; --fail: #cf222e; --fail-bg: #ffebe9; --err: #9a6700; --err-bg: #fff8c5;
  --skip: #59636e; --skip-bg: #eff2f5; --inc: #8250df; --inc-bg: #fbefff; --xf: #0550ae; --xf-bg: #ddf4ff; }
* { box-sizing: border-box; }
body { margin: 0; padding: 24px; color: var(--fg); background: #fff;
  font: 14px/1.5 system-ui, -apple-system, "Segoe UI", "Liberation Sans", "DejaVu Sans", sans-serif; }
main { max-width: 1200px; margin: 0 auto; }
h1 { font-size: 20px; margin: 0 0 12px; font-weight: 600; }
h2 { font-size: 17px; margin: 0 0 6px; display: flex; align-items: center; gap: 10px; }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
.banner { border-radius: 8px; padding: 14px 18px; margin-bottom: 16px; color: #fff; }
.banner p { margin: 4px 0 0; }
.banner-head { display: flex; align-items: baseline; gap: 12px; flex-wrap: wrap; }
.banner-label { text-transform: uppercase; letter-spacing: .08em; font-size: 12px; opacity: .85; }
.banner-verdict { font-size: 26px; font-weight: 700; }
.banner-exit { margin-left: auto; font-size: 12px; opacity: .85; }
.banner.verdict-compliant { background: var(--pass); }
.banner.verdict-non-compliant { background: var(--fail); }
.banner.verdict-incomplete, .banner.verdict-aborted { background: #6e4c00; }
.banner.verdict-not-tested { background: #59636e; }
.banner a { color: #fff; text-decoration: underline; font-family: ui-monospace, "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace; font-size: 13px; }
.banner .warning { font-weight: 600; }
.run { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 8px 24px; margin: 0 0 14px;
  padding: 12px 16px; background: var(--bg-soft); border: 1px solid var(--line); border-radius: 8px; }
.run dt { font-size: 11px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); }
.run dd { margin: 0; overflow-wrap: anywhere; }
.none { color: var(--muted); font-style: italic; }
.counts { list-style: none; padding: 0; margin: 0 0 12px; display: flex; flex-wrap: wrap; gap: 6px; }
.counts li { padding: 2px 10px; border-radius: 999px; background: var(--bg-soft); border: 1px solid var(--line); font-size: 13px; }
.counts li.zero { opacity: .55; }
.counts .outcome-passed { color: var(--pass); } .counts .outcome-failed { color: var(--fail); }
.counts .outcome-error { color: var(--err); } .counts .outcome-inconclusive { color: var(--inc); }
.counts .outcome-skipped { color: var(--skip); } .counts .violations { color: var(--fail); }
.counts .violations.zero { color: var(--muted); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 6px 10px; vertical-align: top; }
th { font-size: 11px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); font-weight: 600; border-bottom: 1px solid var(--line); }
.overview { margin: 0 0 24px; border: 1px solid var(--line); border-radius: 8px; }
.overview td { border-top: 1px solid var(--line); }
.overview .num { text-align: right; font-variant-numeric: tabular-nums; width: 9%; }
.overview .zero { color: #afb8c1; }
.overview .n-failed { color: var(--fail); font-weight: 600; } .overview .n-error { color: var(--err); font-weight: 600; }
.overview .n-inconclusive { color: var(--inc); } .overview .n-passed { color: var(--pass); }
a { color: #0969da; text-decoration: none; } a:hover { text-decoration: underline; }
.area { margin: 0 0 28px; }
.requirements { border: 1px solid var(--line); border-radius: 8px; table-layout: fixed; }
.requirements th.id { width: 24%; } .requirements th.level { width: 8%; } .requirements th.outcome { width: 12%; }
.requirements th.duration { width: 10%; text-align: right; }
.requirements td.duration { text-align: right; color: var(--muted); font-variant-numeric: tabular-nums; }
.requirements td.id code { overflow-wrap: anywhere; font-weight: 600; }
.requirements td.title { overflow-wrap: anywhere; }
tbody.requirement { border-top: 1px solid var(--line); }
tbody.requirement.outcome-failed { border-left: 4px solid var(--fail); } tbody.requirement.outcome-error { border-left: 4px solid var(--err); }
tbody.requirement.outcome-inconclusive { border-left: 4px solid var(--inc); } tbody.requirement.outcome-skipped { border-left: 4px solid var(--skip-bg); }
tbody.requirement.outcome-passed { border-left: 4px solid var(--pass-bg); }
tr.detail td { padding-top: 0; padding-bottom: 10px; }
.level-must { font-weight: 600; } .level-should { color: var(--muted); }
.badge { display: inline-block; padding: 0 8px; border-radius: 999px; font-size: 12px; font-weight: 600; line-height: 20px; }
.badge.outcome-passed, .badge.verdict-compliant { color: var(--pass); background: var(--pass-bg); }
.badge.outcome-failed, .badge.verdict-non-compliant { color: var(--fail); background: var(--fail-bg); }
.badge.outcome-error, .badge.verdict-aborted, .badge.verdict-incomplete { color: var(--err); background: var(--err-bg); }
.badge.outcome-skipped, .badge.verdict-not-tested { color: var(--skip); background: var(--skip-bg); }
.badge.outcome-inconclusive { color: var(--inc); background: var(--inc-bg); }
.message { margin: 0 0 6px; font-weight: 600; overflow-wrap: anywhere; }
.outcome-failed .message { color: var(--fail); } .outcome-error .message { color: var(--err); }
.outcome-error .cause { color: var(--err); margin: 0 0 6px; }
.outcome-skipped .message, .outcome-passed .message { color: var(--muted); font-weight: 400; }
.outcome-inconclusive .message { color: var(--inc); font-weight: 400; }
.message .prefix { font-weight: 600; }
.source { margin: 0 0 6px; padding: 2px 10px; border-left: 3px solid var(--line); color: var(--muted); font-style: italic; }
.notes { margin: 0 0 6px; padding-left: 20px; color: var(--muted); }
.evidence summary { cursor: pointer; color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .06em; margin: 4px 0; }
.exchange { border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; margin: 6px 0 10px; background: #fff; }
.exchange-head { font-size: 12px; color: var(--muted); margin-bottom: 4px; }
.exchange .label { font-size: 11px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin-top: 6px; }
pre { margin: 2px 0 0; padding: 8px 10px; background: var(--bg-soft); border-radius: 4px; white-space: pre-wrap;
  overflow-wrap: anywhere; max-height: 28em; overflow: auto; tab-size: 4; }
pre.curl { background: #1f2328; color: #e6edf3; }
pre.error { background: var(--err-bg); color: #7d4e00; }
.start-line { font-weight: 700; }
.status-2xx { color: var(--pass); } .status-4xx, .status-5xx { color: var(--fail); } .status-3xx { color: var(--err); }
.h-name { color: #0550ae; }
.truncated { color: var(--err); font-weight: 400; }
.ctl { color: #fff; background: #bf3989; border-radius: 3px; padding: 0 2px; margin: 0 1px; font-size: .9em; }
/* listed known deviations: their own colour, never the red or amber of a violation */
p.expected { margin: 0 0 6px; color: var(--xf); }
.badge.expected-badge { color: var(--xf); background: var(--xf-bg); font-weight: 400; border-radius: 8px; }
.badge.expected-outcome.outcome-failed, .badge.expected-outcome.outcome-error { color: var(--xf); background: var(--xf-bg); }
tbody.requirement.expected-failure.outcome-failed, tbody.requirement.expected-failure.outcome-error { border-left-color: var(--xf); }
tbody.requirement.expected-failure.outcome-failed .message, tbody.requirement.expected-failure.outcome-error .message { color: var(--xf); font-weight: 400; }
.counts li.expected, .counts .outcome-failed.expected, .counts .outcome-error.expected { color: var(--xf); }
.overview .n-expected { color: var(--xf); }
.strict { margin-left: 6px; font-size: 12px; color: var(--fail); }
.since-baseline { margin: 0 0 20px; padding: 10px 16px; border: 1px solid var(--line); border-radius: 8px; }
.since-baseline ul { margin: 2px 0 8px; padding-left: 20px; }
.since-baseline .changes-newly-failing b { color: var(--fail); } .since-baseline .changes-recovered b { color: var(--pass); }
.since-baseline .note { color: var(--muted); margin: 4px 0 0; }
.latency { margin: -12px 0 24px; }
.latency summary { cursor: pointer; color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .06em; margin: 4px 0; }
.latency table { width: auto; min-width: 50%; }
footer { color: var(--muted); font-size: 12px; border-top: 1px solid var(--line); padding-top: 10px; }
@media print { body { padding: 0; } pre { max-height: none; } .evidence:not([open]) { display: none; } }
`;

export function renderHtml(report: RunReport): string {
  // areas in report order, then any area a result names that the area list lacks
  const areas: { area: string; verdict?: Verdict; counts: Counts }[] = [...report.areas];
  for (const { area } of report.requirements) {
    if (!areas.some((a) => a.area === area)) areas.push({ area, counts: countResults(report.requirements.filter((r) => r.area === area)) });
  }
  const title = `${report.spec.title} conformance: ${VERDICT_LABEL[report.verdict] ?? report.verdict} (${report.target.baseUrl})`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${esc(title)}</title>`,
    `<style>${CSS}</style>`,
    '</head>',
    `<body data-verdict="${attr(report.verdict)}">`,
    '<main>',
    `<h1>${esc(report.spec.title)} API conformance report</h1>`,
    verdictBanner(report),
    runInfo(report),
    countsLine(report.counts, report.requirements, 'counts'),
    ...(report.sinceBaseline ? [sinceBaseline(report.sinceBaseline)] : []),
    areas.length ? overview(areas, report.requirements) : '<p class="none">No requirement was run.</p>',
    latencyTable(report.latency, 'latency', report.latencyQuiet ? "Response times per operation under the run's load" : undefined),
    latencyTable(report.latencyQuiet, 'latency-quiet', 'Response times per operation, one request at a time (PERF-LATENCY-P95)'),
    ...areas.map((a) => areaSection(a, report.requirements)),
    `<footer>Written by ${esc(report.tool.name)} ${esc(report.tool.version)}; finished ${time(report.finishedAt)}. ` +
      'compliance.json holds the same run in machine-readable form.</footer>',
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
