// A HAR file read into a run's exchanges and judged through a session that never sends.
import { Exchange, isRateLimit, type HttpRequest } from '../http/exchange.js';
import { loadCatalogue } from '../api/catalogue.js';
import { loadSpecs, type Specs } from '../api/spec.js';
import { ConfigError } from '../config/values.js';
import type { RequirementResult, RunReport, Service } from '../model/types.js';
import { plural } from '../model/words.js';
import { fixturesFor } from './fixtures.js';
import { buildReport, skippedResult } from '../verdict/report.js';
import { reportBaseOf } from './report-base.js';
import { judge, NOT_SELECTED, type RunOptions } from './runner.js';
import { Session } from './session.js';

const NOT_RECORDABLE = 'not tested: a record of traffic cannot show it';
export const NO_ENTRY = 'not tested: no entry of the record speaks to it';

const SHOWN_KEY = '$API_KEY';
const SHOWS_KEY = /(^|\s)\$API_KEY$/;

/** An Authorization value a recording tool blanked out. */
const REDACTED = /\[redacted\]|<redacted>|\*\*\*|^redacted$|\bbearer redacted\b/i;

type Credential = 'none' | 'valid' | 'other' | 'unknown' | 'other-scheme' | 'elsewhere';

const KEY_ELSEWHERE = /^(access[_-]?token|api[_-]?key|apikey|key|token|x-api-key|x-auth-token)$/i;

/** validKey '' when it is not known. */
export function credentialOf(request: HttpRequest, validKey: string): Credential {
  const value = request.headers?.authorization?.trim();
  if (!value) {
    const named = [...new URL(request.url).searchParams.keys(), ...Object.keys(request.headers ?? {})];
    return named.some((name) => KEY_ELSEWHERE.test(name)) ? 'elsewhere' : 'none';
  }
  if (REDACTED.test(value)) return 'unknown';
  const bearer = /^bearer(?:\s+(.*))?$/i.exec(value);
  if (!bearer) return 'other-scheme';
  if (!validKey) return 'unknown';
  return (bearer[1] ?? '').trim() === validKey ? 'valid' : 'other';
}

/** Header pairs as the client keeps them, HTTP/2 pseudo-headers left out. */
function headersOf(pairs: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const h of Array.isArray(pairs) ? pairs : []) {
    if (typeof h?.name !== 'string' || typeof h.value !== 'string' || h.name.startsWith(':')) continue;
    const name = h.name.toLowerCase();
    headers[name] = name in headers ? `${headers[name]}, ${h.value}` : h.value;
  }
  return headers;
}

function bodyOf(content: any, stated: unknown): { text: string; whole: boolean } {
  const raw = content?.text;
  const size = typeof content?.size === 'number' && content.size >= 0 ? content.size : typeof stated === 'number' && stated >= 0 ? stated : undefined;
  if (typeof raw !== 'string') return { text: '', whole: size === 0 };
  const text = content.encoding === 'base64' ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  return { text, whole: size === undefined || size <= Buffer.byteLength(text) };
}

function serviceOf(url: string, bases: Array<[Service, string]>): { service: Service; path: string } | undefined {
  for (const [service, base] of bases) {
    if (!url.startsWith(base)) continue;
    const rest = url.slice(base.length);
    if (rest === '' || rest.startsWith('/') || rest.startsWith('?')) return { service, path: rest.split(/[?#]/)[0] };
  }
  return undefined;
}

const routesOf = (spec: Specs['store'] | Specs['quickstart']) =>
  spec.operations.map((op) => ({ id: op.id, method: op.method, path: new RegExp(`^${op.path.replace(/\{\w+\}/g, '[^/]+')}$`) }));

/** showsKey: an entry shows the key as this tool's exchanges.har does; that is the valid key. */
function parseHar(text: string, file: string) {
  let har: any;
  try {
    har = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${file} is not a HAR file: not JSON (${(err as Error).message})`);
  }
  const entries = har?.log?.entries;
  if (!Array.isArray(entries)) throw new ConfigError(`${file} is not a HAR file: it has no log.entries`);
  const comment = typeof har.log.comment === 'string' ? har.log.comment : '';
  const runPrefix = /data named (\S+?),? /.exec(comment)?.[1];
  const showsKey = entries.some(
    (e) => Array.isArray(e?.request?.headers) && e.request.headers.some((h: any) => typeof h?.value === 'string' && SHOWS_KEY.test(h.value)),
  );
  return { entries, showsKey, runPrefix };
}

/** Every credential the requests carry, so that none is written to any report. */
function credentialsIn(entries: any[]) {
  const found = new Set<string>();
  for (const entry of entries) {
    const headers = headersOf(entry?.request?.headers);
    const authorization = headers.authorization?.trim();
    if (authorization && !REDACTED.test(authorization) && !SHOWS_KEY.test(authorization)) found.add(authorization.replace(/^\S+\s+/, ''));
    for (const [name, value] of Object.entries(headers)) if (KEY_ELSEWHERE.test(name) && value) found.add(value);
    try {
      for (const [name, value] of new URL(String(entry?.request?.url)).searchParams) if (KEY_ELSEWHERE.test(name) && value) found.add(value);
    } catch {
      // no URL, no entry of either service
    }
  }
  return [...found].filter((value) => !/^bearer$/i.test(value));
}

/** Every entry of the two services as an Exchange; entries of other addresses are counted. */
function readEntries(entries: any[], session: Session): { exchanges: Exchange[]; others: number } {
  const { target } = session.options;
  session.redactor.add(credentialsIn(entries).map((value) => ({ value, label: '$RECORDED_CREDENTIAL' })));
  const routes = { store: routesOf(session.specs.store), quickstart: routesOf(session.specs.quickstart) };
  const bases: Array<[Service, string]> = [['store', target.baseUrl]];
  if (target.quickstartBaseUrl) bases.push(['quickstart', target.quickstartBaseUrl]);
  // the longer first: one service may live under the other's address
  bases.sort((a, b) => b[1].length - a[1].length);
  const exchanges: Exchange[] = [];
  let others = 0;
  for (const entry of entries) {
    const url = entry?.request?.url;
    const where = typeof url === 'string' ? serviceOf(url, bases) : undefined;
    if (!where) {
      others++;
      continue;
    }
    const method = String(entry.request.method ?? 'GET').toUpperCase();
    const headers = headersOf(entry.request.headers);
    if (target.apiKey && headers.authorization !== undefined && SHOWS_KEY.test(headers.authorization))
      headers.authorization = headers.authorization.replace(/\$API_KEY$/, target.apiKey);
    const sent = bodyOf(entry.request.postData, entry.request.bodySize);
    const operation = routes[where.service].find((r) => r.method === method && r.path.test(where.path))?.id;
    const request: HttpRequest = {
      service: where.service,
      ...(operation && { operation }),
      method,
      url,
      headers,
      // a request body cut short is not the body the server was sent
      ...(typeof entry.request.postData?.text === 'string' && sent.whole && { body: sent.text }),
    };
    const ex = new Exchange(request, session.redactor);
    const status = Number(entry.response?.status);
    ex.status = Number.isInteger(status) && status > 0 ? status : 0;
    ex.headers = headersOf(entry.response?.headers);
    const answer = bodyOf(entry.response?.content, entry.response?.bodySize);
    ex.text = answer.text;
    ex.truncated = !answer.whole;
    if (ex.status === 0) ex.error = typeof entry._error === 'string' ? entry._error : 'no response in the record';
    const started = Date.parse(entry.startedDateTime);
    ex.sentAt = Number.isNaN(started) ? 0 : started;
    ex.durationMs = typeof entry.time === 'number' && entry.time >= 0 ? entry.time : 0;
    ex.attempt = Number.isInteger(entry._attempt) && entry._attempt > 1 ? entry._attempt : 1;
    if (ex.attempt > 1) {
      // the attempt before, answered so that it was sent again: a run sends many identical POST /pets at once
      const same = (e: Exchange) => e.request.method === method && e.request.url === url && e.request.body === ex.request.body;
      const before = exchanges.findLast((e) => e.attempt === ex.attempt - 1 && !e.next && (isRateLimit(e) || e.status >= 500 || e.status === 0) && same(e));
      if (before) before.next = ex;
    }
    exchanges.push(ex);
  }
  // a redirect whose target a later entry asks was followed: that hop is the answer
  const asked = new Set<string>();
  for (let i = exchanges.length - 1; i >= 0; i--) {
    const ex = exchanges[i];
    const location = ex.headers.location;
    if (ex.status >= 300 && ex.status < 400 && location && URL.canParse(location, ex.request.url))
      ex.followed = asked.has(new URL(location, ex.request.url).href);
    asked.add(ex.request.url);
  }
  return { exchanges, others };
}

class RecordSession extends Session {
  override async request(): Promise<Exchange> {
    throw new Error('a record of traffic is judged as it is: nothing is sent');
  }

  override async resendQuiet(): Promise<Exchange> {
    return this.request();
  }
}

type RecordOptions = Omit<RunOptions, 'runPrefix' | 'onResult' | 'listPages'> & { har: string; file: string };

/** Without a key given, which bearer token is valid is known only from this tool's HAR ($API_KEY). */
export async function judgeRecord(options: RecordOptions): Promise<{ report: RunReport; summary: string }> {
  const specs = options.specs ?? loadSpecs();
  const catalogue = options.catalogue ?? loadCatalogue();
  const har = parseHar(options.har, options.file);
  const apiKey = options.target.apiKey || (har.showsKey ? SHOWN_KEY : '');
  const target = { ...options.target, apiKey, quickstartApiKey: options.target.quickstartApiKey || apiKey };
  const session = new RecordSession({ ...options, target, ...(har.runPrefix && { runPrefix: har.runPrefix }) }, specs);
  try {
    const { exchanges, others } = readEntries(har.entries, session);
    session.client.exchanges.push(...exchanges);
    const store = exchanges.filter((ex) => ex.request.service === 'store').length;
    if (store === 0)
      throw new ConfigError(`${options.file} holds no entry under BASE_URL ${target.baseUrl} (${plural(har.entries.length, 'entry', 'entries')} in all)`);
    const quickstart = target.quickstartBaseUrl ? `, ${exchanges.length - store} of the quickstart service` : '';
    const summary = `judged from ${options.file}: ${plural(store, 'entry', 'entries')} of the store${quickstart}${others ? `; ${others} of other addresses ignored` : ''}`;
    const checks = new Map(options.checks.map((c) => [c.id, c]));
    const fixtures = fixturesFor(session);
    const results: RequirementResult[] = [];
    for (const r of catalogue) {
      const check = checks.get(r.id);
      const selected = options.selected?.has(r.id) ?? true;
      const result = !selected ? skippedResult(r, NOT_SELECTED) : check ? await judge(session, fixtures, r, check) : skippedResult(r, NOT_RECORDABLE);
      if (result.outcome === 'passed' || result.outcome === 'failed') result.notes.push(summary);
      const reason = options.expectedFailures?.get(r.id);
      if (reason !== undefined) result.expectedFailure = reason;
      results.push(result);
    }
    // nothing was drawn, sent or created
    const { runPrefix, seed, animalsCreated, writesAccepted, ...base } = reportBaseOf(session, undefined);
    // a foreign record's data is not the suite's
    return { report: buildReport({ ...base, ...(har.runPrefix && { runPrefix: har.runPrefix }) }, results), summary };
  } finally {
    await session.close();
  }
}
