// junit.xml (junit-10.xsd). CI colours a build by <failure> and <error>, so only what decides
// the verdict is one; the rest is <skipped> with its evidence. A run that was aborted or judged
// nothing adds a suite "run" whose one <error> says why, or CI would show nothing wrong.
import { countsAgainstVerdict, coverageText, coverageWarning, leavesIncomplete, listedButPassedNote } from '../harness/verdict/report.js';
import type { ExchangeRecord, RequirementResult, RunReport } from '../harness/model/types.js';

// What XML 1.0 cannot carry: C0 controls but tab/LF/CR, U+FFFE/U+FFFF, and lone surrogates (no `u` flag, so that it sees them).
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export const stripInvalidXmlChars = (s: string) => s.replace(FORBIDDEN, '');

const text = (s: string) => stripInvalidXmlChars(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');

// tab, LF and CR escaped, or attribute-value normalisation would make spaces of them
const attr = (s: string | number) => text(String(s)).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');

const seconds = (ms: number) => (Math.max(0, Number.isFinite(ms) ? ms : 0) / 1000).toFixed(3);

const headerLines = (headers: Record<string, string>) => Object.entries(headers).map(([name, value]) => `${name}: ${value}`);

const notesText = (notes: string[]) => ['notes:', ...notes.map((n) => `- ${n}`)].join('\n');

function describeExchange(x: ExchangeRecord, index: number, total: number) {
  const attempt = x.attempt && x.attempt > 1 ? `, attempt ${x.attempt}` : '';
  const lines = [`--- exchange ${index + 1} of ${total} (${Math.round(x.durationMs)} ms${attempt}) ---`];
  lines.push(`${x.request.method} ${x.request.url}`, ...headerLines(x.request.headers));
  if (x.request.body !== undefined) lines.push('', x.request.body);
  if (x.response) {
    lines.push('', `HTTP ${x.response.status}${x.response.truncated ? ' (body truncated)' : ''}`);
    lines.push(...headerLines(x.response.headers));
    if (x.response.body !== '') lines.push('', x.response.body);
  }
  if (x.error !== undefined) lines.push('', `error: ${x.error}`);
  lines.push('', `curl: ${x.curl}`);
  return lines.join('\n');
}

function details(r: RequirementResult) {
  const parts: string[] = [];
  if (r.followsFrom) parts.push(`follows from ${r.followsFrom}, listed before it`);
  if (r.message) parts.push(r.message);
  if (r.cause) parts.push(`could not be judged: ${r.cause}`);
  if (r.notes.length) parts.push(notesText(r.notes));
  r.evidence.forEach((x, i, all) => parts.push(describeExchange(x, i, all.length)));
  return parts.join('\n\n');
}

/** What a requirement becomes in JUnit; the suites' counts are made of the same. */
type Kind = 'failure' | 'error' | 'skipped' | 'passed';

function kindOf(r: RequirementResult, aborted: boolean, strict: boolean): Kind {
  if (countsAgainstVerdict(r, strict)) return aborted ? 'skipped' : 'failure';
  if (leavesIncomplete(r, strict)) return 'error';
  return r.outcome === 'passed' ? 'passed' : 'skipped';
}

const some = (s: string) => (s ? [s] : []);

function caseBody(r: RequirementResult, aborted: boolean, strict: boolean) {
  const out = (s: string) => `<system-out>${text(s)}</system-out>`;
  const skipped = (why: string, ...rest: string[]) => [`<skipped message="${attr(why)}"/>`, ...rest.map(out)];
  const listed = r.expectedFailure === undefined ? '' : `listed as an expected failure: ${r.expectedFailure}`;
  const message = r.message ?? r.outcome;
  switch (r.outcome) {
    case 'passed': {
      if (!listed) return some(r.notes.join('\n')).map(out);
      const notes = r.notes.length ? `\n\n${notesText(r.notes)}` : '';
      return [out(`${listedButPassedNote(r)}${notes}`)];
    }
    case 'skipped':
      return skipped(r.message ?? 'skipped', ...some([listed, r.notes.join('\n')].filter(Boolean).join('\n')));
    case 'inconclusive':
      return skipped(
        `inconclusive: ${r.message ?? 'no verdict possible'}`,
        ...some([listed, details({ ...r, message: undefined })].filter(Boolean).join('\n\n')),
      );
  }
  // judged failed before the abort, by a run that never finished: not a <failure> of the server's
  if (r.outcome === 'failed' && aborted && !listed) return skipped(`not counted, the run was aborted: failed before the abort: ${message}`, details(r));
  if (listed) {
    return skipped(
      `expected failure: ${r.expectedFailure}: ${message}`,
      `${r.outcome}, listed as an expected failure (not counted): ${r.expectedFailure}\n\n${details(r)}`,
    );
  }
  if (kindOf(r, aborted, strict) === 'skipped') {
    const what = r.outcome === 'failed' ? 'not met' : 'could not be judged';
    return skipped(
      `${r.level} ${what} (does not decide the verdict without --strict): ${message}`,
      `${r.level} ${what}; it does not decide the verdict without --strict.\n\n${details(r)}`,
    );
  }
  const tag = r.outcome === 'failed' ? 'failure' : 'error';
  return [`<${tag} message="${attr(message)}" type="${r.level}">${text(details(r))}</${tag}>`];
}

function testcase(r: RequirementResult, aborted: boolean, strict: boolean) {
  const open = `    <testcase classname="${attr(`animal-store.${r.area}`)}" name="${attr(`${r.id} ${r.level} ${r.title}`)}" time="${seconds(r.durationMs)}"`;
  const body = caseBody(r, aborted, strict);
  return body.length ? [`${open}>`, ...body.map((b) => `      ${b}`), '    </testcase>'].join('\n') : `${open}/>`;
}

const properties = (pairs: Array<[string, string | undefined]>) =>
  pairs.filter(([, value]) => value !== undefined).map(([name, value]) => `      <property name="${attr(name)}" value="${attr(value!)}"/>`);

/** The name of the one testcase of the "run" suite an aborted run adds. */
export const ABORTED_TESTCASE = 'RUN the conformance run could not be made';
/** Its name when the run judged no requirement (verdict not-tested). */
export const NOT_TESTED_TESTCASE = 'RUN no requirement was judged';

type Tally = Record<Kind, number> & { tests: number };

export function renderJunit(report: RunReport): string {
  const { target, strict } = report;
  // areas in report order, then any area a result names that the area list lacks
  const areas = report.areas.map((a) => a.area);
  for (const r of report.requirements) if (!areas.includes(r.area)) areas.push(r.area);

  const runProps = properties([
    ['target.baseUrl', target.baseUrl],
    ['target.quickstartBaseUrl', target.quickstartBaseUrl || undefined],
    ['target.environment', target.environment],
    ['profile', report.profile],
    ['spec.title', report.spec.title],
    ['spec.version', report.spec.version],
    ['tool.name', report.tool.name],
    ['tool.version', report.tool.version],
  ]);
  const verdictProps = properties([
    ['run.verdict', report.verdict],
    ['run.coverage', coverageText(report.coverage)],
    ['run.judged', String(report.coverage.judged)],
    ['run.strict', String(strict)],
    ['run.mustViolations', String(report.counts.mustViolations)],
    ['run.shouldViolations', String(report.counts.shouldViolations)],
    ['run.abortReason', report.abortReason],
    ['run.incompleteReason', report.incompleteReason],
  ]);
  const suite = (name: string, c: Tally, time: string, props: string[], cases: string[]) =>
    [
      `  <testsuite name="${attr(name)}" tests="${c.tests}" failures="${c.failure}" errors="${c.error}"` +
        ` skipped="${c.skipped}" time="${time}" timestamp="${attr(report.startedAt)}">`,
      '    <properties>',
      ...props,
      '    </properties>',
      ...cases,
      '  </testsuite>',
    ].join('\n');
  const aborted = report.abortReason !== undefined || report.verdict === 'aborted';
  const tally = (results: RequirementResult[]) => {
    const c = { tests: results.length, failure: 0, error: 0, skipped: 0, passed: 0 };
    for (const r of results) c[kindOf(r, aborted, strict)]++;
    return c;
  };

  const suites = areas.map((area) => {
    const results = report.requirements.filter((r) => r.area === area);
    const verdict = report.areas.find((a) => a.area === area)?.verdict;
    // an area's checks run concurrently: it took about as long as its longest, not their sum
    const time = seconds(results.reduce((max, r) => Math.max(max, Number.isFinite(r.durationMs) ? r.durationMs : 0), 0));
    const props = [...runProps, ...properties([['area.verdict', verdict]]), ...verdictProps];
    const cases = results.map((r) => testcase(r, aborted, strict));
    return suite(area, tally(results), time, props, cases);
  });

  const notTested = report.verdict === 'not-tested' && report.abortReason === undefined;
  const runBroken = notTested || aborted;
  const reason = report.abortReason || (notTested && coverageWarning(report)) || 'no reason given';
  const n = report.requirements.length;
  const runCase = [
    `    <testcase classname="animal-store.run" name="${attr(notTested ? NOT_TESTED_TESTCASE : ABORTED_TESTCASE)}" time="${seconds(report.durationMs)}">`,
    `      <error message="${attr(reason)}" type="${notTested ? 'not-tested' : 'aborted'}">${text(
      notTested ? reason : `The conformance run could not be made: ${reason}\n${n} requirement${n === 1 ? ' was' : 's were'} not run.`,
    )}</error>`,
    '    </testcase>',
  ];
  const runSuite = runBroken
    ? [suite('run', { tests: 1, failure: 0, error: 1, skipped: 0, passed: 0 }, seconds(report.durationMs), [...runProps, ...verdictProps], runCase)]
    : [];

  // junit-10.xsd allows only name, time, tests, failures and errors on <testsuites>
  const all = tally(report.requirements);
  const root =
    `<testsuites name="animal-store-conformance" tests="${all.tests + (runBroken ? 1 : 0)}"` +
    ` failures="${all.failure}" errors="${all.error + (runBroken ? 1 : 0)}" time="${seconds(report.durationMs)}">`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', root, ...runSuite, ...suites, '</testsuites>', ''].join('\n');
}
