// exchanges.har: every request the run sent (each attempt an entry, so exactly
// report.requestCount of them) and what came back, as HAR 1.2 that a browser opens.
import { STATUS_CODES } from 'node:http';
import type { Entry, Har, Header, Request, Response } from 'har-format';
import { MAX_EVIDENCE_BODY_CHARS } from '../harness/http/exchange.js';
import type { TranscriptEntry } from '../harness/run/transcript.js';
import type { RunReport } from '../harness/model/types.js';
import { formatSize } from '../harness/model/units.js';

export const EXCHANGE_LOG_FILE = 'exchanges.har';

export type HarRun = Pick<RunReport, 'tool' | 'target' | 'profile' | 'runPrefix' | 'seed'>;

/** HAR allows custom fields that begin with an underscore. */
interface RunEntry extends Entry {
  _attempt?: number;
  _operation?: string;
  _service?: string;
  _error?: string;
}

const pairs = (entries: Iterable<[string, string]>): Header[] => [...entries].map(([name, value]) => ({ name, value }));

const header = (headers: Record<string, string>, name: string) => Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];

function shown(text: string, bytes: number, truncated: boolean): { text: string; comment?: string } {
  if (!truncated && text.length <= MAX_EVIDENCE_BODY_CHARS) return { text };
  return {
    text: text.slice(0, MAX_EVIDENCE_BODY_CHARS),
    comment: `${formatSize(bytes)} received; the log holds at most the first ${formatSize(MAX_EVIDENCE_BODY_CHARS)} of a body`,
  };
}

function request(entry: TranscriptEntry): Request {
  const { method, url, headers, body } = entry.record.request;
  const start = url.indexOf('?');
  const queryString = start < 0 ? [] : pairs(new URLSearchParams(url.slice(start + 1)));
  const postData = body === undefined ? undefined : { mimeType: header(headers, 'content-type') ?? '', ...shown(body, entry.requestBytes, false) };
  return {
    method,
    url,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: pairs(Object.entries(headers)),
    queryString,
    ...(postData && { postData }),
    headersSize: -1,
    bodySize: entry.requestBytes,
  };
}

function response(entry: TranscriptEntry): Response {
  // no answer: HAR has no "no response", so status 0, as browsers export a failed request
  const answer = entry.record.response;
  const headers = answer?.headers ?? {};
  const bytes = answer ? (entry.responseBytes ?? Buffer.byteLength(answer.body)) : 0;
  return {
    status: answer?.status ?? 0,
    statusText: (answer && STATUS_CODES[answer.status]) ?? '',
    httpVersion: answer ? 'HTTP/1.1' : '',
    cookies: [],
    headers: pairs(Object.entries(headers)),
    content: { size: bytes, mimeType: header(headers, 'content-type') ?? 'x-unknown', ...(answer && shown(answer.body, bytes, answer.truncated)) },
    redirectURL: header(headers, 'location') ?? '',
    headersSize: -1,
    bodySize: answer ? bytes : -1,
  };
}

function entryOf(entry: TranscriptEntry): RunEntry {
  const { record } = entry;
  // the client times each exchange whole, so the wait holds it all; HAR's -1 is "not measured"
  const time = Math.round(entry.durationMs * 1000) / 1000;
  return {
    startedDateTime: new Date(entry.sentAt).toISOString(),
    time,
    request: request(entry),
    response: response(entry),
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: time, receive: 0, comment: 'measured whole: from sending to the last byte' },
    ...(record.attempt && { _attempt: record.attempt }),
    ...(record.operation && { _operation: record.operation }),
    ...(entry.service && { _service: entry.service }),
    ...(record.error && { _error: record.error }),
  };
}

export function renderHar(run: HarRun, entries: readonly TranscriptEntry[]): string {
  const har: Har = {
    log: {
      version: '1.2',
      creator: { name: run.tool.name, version: run.tool.version },
      entries: entries.map(entryOf),
      comment:
        `${run.profile} run against ${run.target.baseUrl}${run.target.quickstartBaseUrl ? ` and ${run.target.quickstartBaseUrl}` : ''}` +
        `${run.runPrefix ? `, data named ${run.runPrefix}` : ''}${run.seed !== undefined ? `, seed ${run.seed}` : ''}; keys shown as $API_KEY`,
    },
  };
  return `${JSON.stringify(har, null, 1)}\n`;
}
