// junit.xml: the run report for CI (Jenkins xunit junit-10.xsd). One <testsuite> per
// area, one <testcase> per requirement. CI colours a build by <failure> and <error>, so
// only what decides the verdict is one: a failed MUST (with --strict, any failure) is a
// <failure>, and a MUST that could not be judged (the run could not observe an answer)
// an <error>; a run with exit code 0 has neither. A failed SHOULD without --strict is
// <skipped> with its message and evidence, and counted in the run.shouldViolations
// property, so it is visible and the build stays green. A listed known deviation that failed is not a violation
// (harness/verdict/report.ts isViolation), so it is <skipped> (CI stays green, as the
// verdict does) with its evidence in <system-out>. An aborted run, and a run that
// judged nothing (not-tested), add a suite "run" whose one testcase is an <error>
// carrying the reason, so CI shows the run as broken rather than all skipped.
import { countsAgainstVerdict, coverageText, coverageWarning, leavesIncomplete } from '../harness/verdict/report.js';
import type { ExchangeRecord, RequirementResult, RunReport } from '../harness/model/types.js';

// Characters XML 1.0 forbids: C0 controls except tab/LF/CR, lone surrogates, U+FFFE/U+FFFF.
// (No `u` flag: the regex works on UTF-16 code units, so lone surrogates are visible to it.)
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Removes the characters XML 1.0 cannot carry at all. */
export function stripInvalidXmlChars(s: string): string {
  return s.replace(FORBIDDEN, '');
}

function text(s: string): string {
  return stripInvalidXmlChars(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

function attr(s: string | number): string {
  // tab/LF/CR are escaped so that attribute-value normalisation keeps them
  return text(String(s)).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');
}

const seconds = (ms: number) => (Math.max(0, Number.isFinite(ms) ? ms : 0) / 1000).toFixed(3);

function headerLines(headers: Record<string, string>): string[] {
  return Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
}

/** One exchange as plain text: request, response or error, and the curl line. */
function describeExchange(x: ExchangeRecord, index: number, total: number): string {
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

function details(r: RequirementResult): string {
  const parts: string[] = [];
  if (r.followsFrom) parts.push(`follows from ${r.followsFrom}, listed before it`);
  if (r.message) parts.push(r.message);
  if (r.cause) parts.push(`could not be judged: ${r.cause}`);
  if (r.notes.length) parts.push(['notes:', ...r.notes.map((n) => `- ${n}`)].join('\n'));
  r.evidence.forEach((x, i, all) => parts.push(describeExchange(x, i, all.length)));
  return parts.join('\n\n');
}

/** What a requirement becomes in JUnit; the counts on <testsuite>/<testsuites> come from the same. */
type Kind = 'failure' | 'error' | 'skipped' | 'passed';

function kindOf(r: RequirementResult, aborted: boolean, strict: boolean): Kind {
  if (countsAgainstVerdict(r, strict)) return aborted ? 'skipped' : 'failure';
  if (leavesIncomplete(r, strict)) return 'error';
  if (r.outcome === 'passed') return 'passed';
  // skipped, inconclusive, a failed or unjudged SHOULD (without --strict), and a listed known deviation that failed or errored
  return 'skipped';
}

function testcase(r: RequirementResult, aborted: boolean, strict: boolean): string {
  const open = `    <testcase classname="${attr(`animal-store.${r.area}`)}" name="${attr(`${r.id} ${r.level} ${r.title}`)}" time="${seconds(r.durationMs)}"`;
  const body: string[] = [];
  const listed = r.expectedFailure !== undefined;
  const notes = r.notes.length ? r.notes.join('\n') : undefined;
  switch (r.outcome) {
    case 'failed':
    case 'error': {
      if (r.outcome === 'failed' && aborted && !listed) {
        // The run was aborted: a <failure> would tell CI the server broke this
        // requirement, and the run that judged it never finished (the run suite's
        // <error> says why). It was judged failed before the abort, so it is shown as
        // <skipped> with its message and evidence, as the JSON keeps it, uncounted.
        body.push(`<skipped message="${attr(`not counted, the run was aborted: failed before the abort: ${r.message ?? r.outcome}`)}"/>`);
        body.push(`<system-out>${text(details(r))}</system-out>`);
        break;
      }
      if (listed) {
        // a known deviation: not a violation, so not a <failure>/<error>; the evidence stays readable
        body.push(`<skipped message="${attr(`expected failure: ${r.expectedFailure}: ${r.message ?? r.outcome}`)}"/>`);
        const out = [`${r.outcome}, listed as an expected failure (not counted): ${r.expectedFailure}`, details(r)].join('\n\n');
        body.push(`<system-out>${text(out)}</system-out>`);
        break;
      }
      // the tag is the kind the counts are made of (kindOf)
      if (kindOf(r, aborted, strict) === 'skipped') {
        // a SHOULD without --strict: shown, but it does not decide the verdict, so it does not colour the build
        const what = r.outcome === 'failed' ? 'not met' : 'could not be judged';
        body.push(`<skipped message="${attr(`${r.level} ${what} (does not decide the verdict without --strict): ${r.message ?? r.outcome}`)}"/>`);
        body.push(`<system-out>${text([`${r.level} ${what}; it does not decide the verdict without --strict.`, details(r)].join('\n\n'))}</system-out>`);
        break;
      }
      const tag = r.outcome === 'failed' ? 'failure' : 'error';
      body.push(`<${tag} message="${attr(r.message ?? r.outcome)}" type="${r.level}">${text(details(r))}</${tag}>`);
      break;
    }
    case 'skipped': {
      body.push(`<skipped message="${attr(r.message ?? 'skipped')}"/>`);
      const out = [...(listed ? [`listed as an expected failure: ${r.expectedFailure}`] : []), ...(notes ? [notes] : [])];
      if (out.length) body.push(`<system-out>${text(out.join('\n'))}</system-out>`);
      break;
    }
    case 'inconclusive': {
      body.push(`<skipped message="${attr(`inconclusive: ${r.message ?? 'no verdict possible'}`)}"/>`);
      const out = [...(listed ? [`listed as an expected failure: ${r.expectedFailure}`] : []), details({ ...r, message: undefined })].filter(Boolean);
      if (out.length) body.push(`<system-out>${text(out.join('\n\n'))}</system-out>`);
      break;
    }
    case 'passed':
      if (listed) {
        const out = [
          `listed as an expected failure (${r.expectedFailure}) but passed: remove it from the expected-failures file`,
          ...(r.notes.length ? ['', 'notes:', ...r.notes.map((n) => `- ${n}`)] : []),
        ];
        body.push(`<system-out>${text(out.join('\n'))}</system-out>`);
      } else if (notes) {
        body.push(`<system-out>${text(notes)}</system-out>`);
      }
      break;
  }
  if (!body.length) return `${open}/>`;
  return [`${open}>`, ...body.map((b) => `      ${b}`), '    </testcase>'].join('\n');
}

function property(name: string, value: string): string {
  return `      <property name="${attr(name)}" value="${attr(value)}"/>`;
}

/** The name of the one testcase of the "run" suite an aborted run adds. */
export const ABORTED_TESTCASE = 'RUN the conformance run could not be made';
/** Its name when the run judged no requirement (verdict not-tested). */
export const NOT_TESTED_TESTCASE = 'RUN no requirement was judged';

export function renderJunit(report: RunReport): string {
  // areas in report order, then any area a result names that the area list lacks
  const areas = report.areas.map((a) => a.area);
  for (const r of report.requirements) if (!areas.includes(r.area)) areas.push(r.area);

  const runProps = [
    property('target.baseUrl', report.target.baseUrl),
    ...(report.target.quickstartBaseUrl ? [property('target.quickstartBaseUrl', report.target.quickstartBaseUrl)] : []),
    property('target.environment', report.target.environment),
    property('profile', report.profile),
    property('spec.title', report.spec.title),
    property('spec.version', report.spec.version),
    property('tool.name', report.tool.name),
    property('tool.version', report.tool.version),
  ];
  const verdictProps = [
    property('run.verdict', report.verdict),
    property('run.coverage', coverageText(report.coverage)),
    property('run.judged', String(report.coverage.judged)),
    property('run.strict', String(report.strict)),
    property('run.mustViolations', String(report.counts.mustViolations)),
    property('run.shouldViolations', String(report.counts.shouldViolations)),
    ...(report.abortReason !== undefined ? [property('run.abortReason', report.abortReason)] : []),
    ...(report.incompleteReason !== undefined ? [property('run.incompleteReason', report.incompleteReason)] : []),
  ];
  const suiteTag = (name: string, c: Record<Kind, number> & { tests: number }, time: string) =>
    `  <testsuite name="${attr(name)}" tests="${c.tests}" failures="${c.failure}" errors="${c.error}"` +
    ` skipped="${c.skipped}" time="${time}" timestamp="${attr(report.startedAt)}">`;
  const aborted = report.abortReason !== undefined || report.verdict === 'aborted';
  const tally = (results: RequirementResult[]) => {
    const c = { tests: results.length, failure: 0, error: 0, skipped: 0, passed: 0 };
    for (const r of results) c[kindOf(r, aborted, report.strict)]++;
    return c;
  };

  const suites = areas.map((area) => {
    const results = report.requirements.filter((r) => r.area === area);
    const verdict = report.areas.find((a) => a.area === area)?.verdict;
    const props = [...runProps, ...(verdict ? [property('area.verdict', verdict)] : []), ...verdictProps];
    // The checks of an area run concurrently, so the sum of their durations overstates
    // the area's time (a user saw auth 0.542 s in a 0.186 s run). The area took at
    // least its longest check and, running concurrently, about that: use the maximum.
    const time = seconds(results.reduce((max, r) => Math.max(max, Number.isFinite(r.durationMs) ? r.durationMs : 0), 0));
    return [
      suiteTag(area, tally(results), time),
      '    <properties>',
      ...props,
      '    </properties>',
      ...results.map((r) => testcase(r, aborted, report.strict)),
      '  </testsuite>',
    ].join('\n');
  });

  // An aborted run leaves every requirement skipped ("not run: ..."), and so does a
  // run that judged nothing, which CI would show as nothing wrong: one extra suite
  // "run" with one <error> says the run broke or proved nothing.
  const notTested = report.verdict === 'not-tested' && report.abortReason === undefined;
  const runBroken = notTested || aborted;
  const abortReason = report.abortReason || (notTested && coverageWarning(report)) || 'no reason given';
  const runSuite = runBroken
    ? [
        suiteTag('run', { tests: 1, failure: 0, error: 1, skipped: 0, passed: 0 }, seconds(report.durationMs)),
        '    <properties>',
        ...runProps,
        ...verdictProps,
        '    </properties>',
        `    <testcase classname="animal-store.run" name="${attr(notTested ? NOT_TESTED_TESTCASE : ABORTED_TESTCASE)}" time="${seconds(report.durationMs)}">`,
        `      <error message="${attr(abortReason)}" type="${notTested ? 'not-tested' : 'aborted'}">${text(
          notTested
            ? abortReason
            : `The conformance run could not be made: ${abortReason}\n` +
                `${report.requirements.length} requirement${report.requirements.length === 1 ? ' was' : 's were'} not run.`,
        )}</error>`,
        '    </testcase>',
        '  </testsuite>',
      ].join('\n')
    : undefined;

  // junit-10.xsd allows only name, time, tests, failures and errors on <testsuites>
  const all = tally(report.requirements);
  const root =
    `<testsuites name="animal-store-conformance" tests="${all.tests + (runBroken ? 1 : 0)}"` +
    ` failures="${all.failure}" errors="${all.error + (runBroken ? 1 : 0)}" time="${seconds(report.durationMs)}">`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', root, ...(runSuite ? [runSuite] : []), ...suites, '</testsuites>', ''].join('\n');
}
