// junit.xml: the run report for CI (Jenkins xunit junit-10.xsd). One <testsuite> per
// area, one <testcase> per requirement. A failed SHOULD is still a <failure> so CI
// shows it; whether it breaks compliance is in the verdict properties.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExchangeRecord, RequirementResult, RunReport } from '../harness/types.js';

// Characters XML 1.0 forbids: C0 controls except tab/LF/CR, lone surrogates, U+FFFE/U+FFFF.
// (No `u` flag: the regex works on UTF-16 code units, so lone surrogates are visible to it.)
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Removes the characters XML 1.0 cannot carry at all. */
export function stripInvalidXmlChars(s: string): string {
  return s.replace(FORBIDDEN, '');
}

function text(s: string): string {
  return stripInvalidXmlChars(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;');
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
export function describeExchange(x: ExchangeRecord, index: number, total: number): string {
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
  if (r.message) parts.push(r.message);
  if (r.notes.length) parts.push(['notes:', ...r.notes.map((n) => `- ${n}`)].join('\n'));
  r.evidence.forEach((x, i, all) => parts.push(describeExchange(x, i, all.length)));
  return parts.join('\n\n');
}

function testcase(r: RequirementResult): string {
  const open = `    <testcase classname="${attr(`animal-store.${r.area}`)}" name="${attr(`${r.id} ${r.level} ${r.title}`)}" time="${seconds(r.durationMs)}"`;
  const body: string[] = [];
  const notes = r.notes.length ? r.notes.join('\n') : undefined;
  switch (r.outcome) {
    case 'failed':
    case 'error': {
      const tag = r.outcome === 'failed' ? 'failure' : 'error';
      body.push(`<${tag} message="${attr(r.message ?? r.outcome)}" type="${r.level}">${text(details(r))}</${tag}>`);
      break;
    }
    case 'skipped':
      body.push(`<skipped message="${attr(r.message ?? 'skipped')}"/>`);
      if (notes) body.push(`<system-out>${text(notes)}</system-out>`);
      break;
    case 'inconclusive': {
      body.push(`<skipped message="${attr(`inconclusive: ${r.message ?? 'no verdict possible'}`)}"/>`);
      const out = details({ ...r, message: undefined });
      if (out) body.push(`<system-out>${text(out)}</system-out>`);
      break;
    }
    case 'passed':
      if (notes) body.push(`<system-out>${text(notes)}</system-out>`);
      break;
  }
  if (!body.length) return `${open}/>`;
  return [`${open}>`, ...body.map((b) => `      ${b}`), '    </testcase>'].join('\n');
}

function property(name: string, value: string): string {
  return `      <property name="${attr(name)}" value="${attr(value)}"/>`;
}

export function renderJunit(report: RunReport): string {
  // areas in report order, then any area a result names that the area list lacks
  const areas = report.areas.map((a) => a.area);
  for (const r of report.requirements) if (!areas.includes(r.area)) areas.push(r.area);

  const suites = areas.map((area) => {
    const results = report.requirements.filter((r) => r.area === area);
    const count = (...outcomes: string[]) => results.filter((r) => outcomes.includes(r.outcome)).length;
    const verdict = report.areas.find((a) => a.area === area)?.verdict;
    const props = [
      property('target.baseUrl', report.target.baseUrl),
      ...(report.target.quickstartBaseUrl ? [property('target.quickstartBaseUrl', report.target.quickstartBaseUrl)] : []),
      property('target.environment', report.target.environment),
      property('profile', report.profile),
      property('spec.title', report.spec.title),
      property('spec.version', report.spec.version),
      property('tool.name', report.tool.name),
      property('tool.version', report.tool.version),
      ...(verdict ? [property('area.verdict', verdict)] : []),
      property('run.verdict', report.verdict),
      ...(report.abortReason ? [property('run.abortReason', report.abortReason)] : []),
    ];
    const time = seconds(results.reduce((sum, r) => sum + r.durationMs, 0));
    return [
      `  <testsuite name="${attr(area)}" tests="${results.length}" failures="${count('failed')}" errors="${count('error')}"` +
        ` skipped="${count('skipped', 'inconclusive')}" time="${time}" timestamp="${attr(report.startedAt)}">`,
      '    <properties>',
      ...props,
      '    </properties>',
      ...results.map(testcase),
      '  </testsuite>',
    ].join('\n');
  });

  // junit-10.xsd allows only name, time, tests, failures and errors on <testsuites>
  const all = report.requirements;
  const root =
    `<testsuites name="animal-store-conformance" tests="${all.length}"` +
    ` failures="${all.filter((r) => r.outcome === 'failed').length}"` +
    ` errors="${all.filter((r) => r.outcome === 'error').length}" time="${seconds(report.durationMs)}">`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', root, ...suites, '</testsuites>', ''].join('\n');
}

/** Writes <dir>/junit.xml (creating dir) and returns its path. */
export async function writeJunit(report: RunReport, dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'junit.xml');
  await writeFile(file, renderJunit(report), 'utf8');
  return file;
}
