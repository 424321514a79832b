// certificate.json: an in-toto Statement v1 (subject: the reports; predicate: the run), with
// SIGN_KEY a DSSE envelope signed with Ed25519. A signature proves which key made it and that
// nothing changed since, not that the run was honest: the key can sign what a modified suite wrote.
import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { documentDigest, sha256 } from '../harness/api/documents.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequirementResult, RunReport, Verdict } from '../harness/model/types.js';
import { PACKAGE_ROOT } from '../harness/model/paths.js';

export const CERTIFICATE_FILE = 'certificate.json';
export const BADGE_FILE = 'badge.svg';
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
// a TypeURI that names this tool's certificate; it need not resolve
export const PREDICATE_TYPE = 'urn:animal-store-conformance:certificate:v1';
export const PAYLOAD_TYPE = 'application/vnd.in-toto+json';

/** An in-toto ResourceDescriptor with its name and sha256. */
export interface Digested {
  name: string;
  digest: { sha256: string };
}

type CertificatePredicate = Pick<
  RunReport,
  'verdict' | 'exitCode' | 'strict' | 'coverage' | 'counts' | 'incompleteReason' | 'target' | 'profile' | 'startedAt' | 'finishedAt' | 'tool' | 'seed'
> & {
  /** The API description the suite was written from (its digest recorded at development time) and the files it ran with. */
  specification: { title: string; version: string; apiDescription?: Digested; files: Digested[] };
  requirements: Array<Pick<RequirementResult, 'id' | 'level' | 'outcome' | 'expectedFailure'>>;
};

export interface Statement {
  _type: string;
  subject: Digested[];
  predicateType: string;
  predicate: CertificatePredicate;
}

export interface Envelope {
  payload: string;
  payloadType: string;
  signatures: Array<{ keyid?: string; sig: string }>;
}

/** A run that judged something and was carried out to its end. */
export const isCertified = (report: Pick<RunReport, 'verdict'>) => ['compliant', 'non-compliant', 'incomplete'].includes(report.verdict);

const SPEC_FILES = ['spec/openapi.yaml', 'spec/quickstart.yaml', 'spec/requirements.yaml'];
/** The API description's digest, written by `npm run docs` where the description is at hand. */
export const API_DESCRIPTION_FILE = 'spec/api-description.json';

let specification: Pick<CertificatePredicate['specification'], 'apiDescription' | 'files'> | undefined;

function specificationDigests() {
  if (!specification) {
    let apiDescription: Digested | undefined;
    try {
      apiDescription = JSON.parse(readFileSync(join(PACKAGE_ROOT, API_DESCRIPTION_FILE), 'utf8')) as Digested;
    } catch {
      // a checkout that never had the description beside it
    }
    const files = SPEC_FILES.map((name) => ({ name, digest: { sha256: documentDigest(join(PACKAGE_ROOT, name)) } }));
    specification = { ...(apiDescription && { apiDescription }), files };
  }
  return specification;
}

export function certificateStatement(report: RunReport, subject: Digested[]): Statement {
  const { verdict, exitCode, strict, coverage, counts, incompleteReason, target, profile, startedAt, finishedAt, tool, spec, seed } = report;
  return {
    _type: STATEMENT_TYPE,
    subject,
    predicateType: PREDICATE_TYPE,
    predicate: {
      verdict,
      exitCode,
      strict,
      coverage,
      counts,
      ...(incompleteReason && { incompleteReason }),
      target,
      profile,
      startedAt,
      finishedAt,
      tool,
      specification: { title: spec.title, version: spec.version, ...specificationDigests() },
      ...(seed !== undefined && { seed }),
      requirements: report.requirements.map((r) => ({
        id: r.id,
        level: r.level,
        outcome: r.outcome,
        ...(r.expectedFailure !== undefined && { expectedFailure: r.expectedFailure }),
      })),
    },
  };
}

/** DSSE's pre-authentication encoding: "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, lengths in bytes. */
export function pae(payloadType: string, body: Buffer): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${body.length} `), body]);
}

/** The sha256 of the public key (SubjectPublicKeyInfo, DER), as `openssl pkey -pubout -outform DER | sha256sum` gives it. */
export const keyIdOf = (key: KeyObject) => sha256((key.type === 'public' ? key : createPublicKey(key)).export({ type: 'spki', format: 'der' }));

/** verify holds a certificate to exactly this form. */
const certificateText = (value: Statement | Envelope) => `${JSON.stringify(value, null, 2)}\n`;

export function renderCertificate(statement: Statement, signKey?: KeyObject): string {
  if (!signKey) return certificateText(statement);
  const body = Buffer.from(JSON.stringify(statement), 'utf8');
  const sig = sign(null, pae(PAYLOAD_TYPE, body), signKey);
  return certificateText({
    payload: body.toString('base64'),
    payloadType: PAYLOAD_TYPE,
    signatures: [{ keyid: keyIdOf(signKey), sig: sig.toString('base64') }],
  });
}

const BADGE_COLOURS: Partial<Record<Verdict, string>> = { compliant: 'brightgreen', 'non-compliant': 'red', incomplete: 'orange' };

export async function renderBadge(report: Pick<RunReport, 'verdict' | 'spec' | 'coverage'>): Promise<string> {
  // loaded only when a badge is drawn
  const { makeBadge } = await import('badge-maker');
  return makeBadge({
    label: `${report.spec.title} API ${report.spec.version}`,
    message: `${report.verdict} · ${report.coverage.judged}/${report.coverage.total} judged`,
    color: BADGE_COLOURS[report.verdict] ?? 'lightgrey',
  });
}

/** Says what does not match. */
export class Mismatch extends Error {}

/**
 * Base64 as DSSE allows it (standard or URL-safe, padded or not), decoded strictly: Node's decoder
 * skips characters outside the alphabet and ignores the last one's unused bits, so a changed character could decode alike.
 */
function strictBase64(text: string, what: string) {
  const urlSafe = /[-_]/.test(text);
  const alphabet = urlSafe ? /^[A-Za-z0-9_-]*={0,2}$/ : /^[A-Za-z0-9+/]*={0,2}$/;
  const bytes = Buffer.from(text, urlSafe ? 'base64url' : 'base64');
  const again = bytes.toString(urlSafe ? 'base64url' : 'base64').replace(/=+$/, '');
  if (!alphabet.test(text) || again !== text.replace(/=+$/, '')) throw new Mismatch(`its ${what} is not valid base64: the certificate was altered`);
  return bytes;
}

function firstDifference(a: string, b: string) {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  const i = x.findIndex((byte, k) => byte !== y[k]);
  return i < 0 ? x.length : i;
}

function parseJson(text: string, mismatch: (err: Error) => string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Mismatch(mismatch(err as Error));
  }
}

/** Any byte other than the tool writes means the certificate was altered. */
function parseExactly(text: string): unknown {
  const value = parseJson(text, (err) => `it is not valid JSON (${err.message}): it was altered, or is not a certificate`);
  if (typeof value !== 'object' || value === null) throw new Mismatch('it is not a certificate: not a JSON object');
  const written = certificateText(value as Statement);
  if (written !== text) throw new Mismatch(`it was altered: byte ${firstDifference(text, written)} differs from the form the tool writes`);
  return value;
}

function asStatement(value: unknown) {
  const s = value as Partial<Statement>;
  if (s._type !== STATEMENT_TYPE) throw new Mismatch(`it is not an in-toto statement v1 (_type ${JSON.stringify(s._type)})`);
  if (s.predicateType !== PREDICATE_TYPE) throw new Mismatch(`its predicateType is ${JSON.stringify(s.predicateType)}, not ${PREDICATE_TYPE}`);
  const valid = (d: Digested) => typeof d?.name === 'string' && /^[a-f0-9]{64}$/.test(d?.digest?.sha256 ?? '');
  if (!Array.isArray(s.subject) || !s.subject.every(valid)) throw new Mismatch('its subject is not a list of files with sha256 digests');
  if (typeof s.predicate !== 'object' || s.predicate === null) throw new Mismatch('it has no predicate');
  return s as Statement;
}

/** A signature with another key id is not tried: the id is only a hint (DSSE), but a changed one is a changed certificate. */
export function envelopeVerifies(envelope: Envelope, publicKey: KeyObject): boolean {
  const keyid = keyIdOf(publicKey);
  const message = pae(envelope.payloadType, strictBase64(envelope.payload, 'payload'));
  return envelope.signatures.some((s) => {
    if (typeof s?.sig !== 'string') throw new Mismatch('a signature of it is not a string');
    const sig = strictBase64(s.sig, 'signature');
    return (s.keyid === undefined || s.keyid === keyid) && verify(null, message, publicKey, sig);
  });
}

export function openCertificate(text: string, publicKey?: KeyObject): { statement: Statement; verifiedKey?: string; signedBy?: string[] } {
  const value = parseExactly(text) as Partial<Envelope> & Partial<Statement>;
  if (value.payloadType === undefined && value.payload === undefined) {
    if (publicKey) throw new Mismatch('it is not signed (an in-toto statement without a DSSE envelope), so no signature can be checked with --public-key');
    return { statement: asStatement(value) };
  }
  const { payload, payloadType, signatures } = value;
  if (typeof payload !== 'string' || typeof payloadType !== 'string' || !Array.isArray(signatures) || signatures.length === 0) {
    throw new Mismatch('it is not a DSSE envelope (payload, payloadType and signatures)');
  }
  // the envelope the tool writes, field for field: a renamed field (keyid) would drop what it holds unseen
  const only = (object: object, fields: string[]) => Object.keys(object ?? {}).every((k) => fields.includes(k));
  if (!only(value, ['payload', 'payloadType', 'signatures']) || !signatures.every((s) => only(s, ['keyid', 'sig']))) {
    throw new Mismatch('it has a field a DSSE envelope does not have: it was altered');
  }
  if (payloadType !== PAYLOAD_TYPE) throw new Mismatch(`its payloadType is ${JSON.stringify(payloadType)}, not ${PAYLOAD_TYPE}`);
  const body = strictBase64(payload, 'payload');
  const signedBy = signatures.map((s) => String(s?.keyid ?? '(no key id)'));
  const keyid = publicKey && keyIdOf(publicKey);
  if (publicKey && !envelopeVerifies({ payload, payloadType, signatures }, publicKey)) {
    const others = signatures.every((s) => s?.keyid !== undefined && s.keyid !== keyid);
    throw new Mismatch(
      others
        ? `it is signed by key ${signedBy.join(', ')}, not by the given public key (${keyid})`
        : `its signature does not verify with the given public key (${keyid}): the certificate was altered or signed with another key`,
    );
  }
  const statement = parseJson(body.toString('utf8'), () => 'its payload is not JSON');
  return { statement: asStatement(statement), signedBy, ...(keyid && { verifiedKey: keyid }) };
}

export function checkReports(statement: Statement, read: (name: string) => Buffer | undefined): string[] {
  const lines: string[] = [];
  for (const { name, digest } of statement.subject) {
    // a name is a file of the reports' folder, never a path out of it
    if (!/^[A-Za-z0-9][\w.-]*$/.test(name)) throw new Mismatch(`the certificate names ${JSON.stringify(name)}, which is not a report's file name`);
    const bytes = read(name);
    if (!bytes) throw new Mismatch(`${name} is missing: the certificate covers it`);
    const actual = sha256(bytes);
    if (actual !== digest.sha256)
      throw new Mismatch(`${name} does not match the certificate: its sha256 is ${actual}, the certificate records ${digest.sha256}`);
    lines.push(`${name}: sha256 ${actual} matches`);
  }
  const compliance = read('compliance.json');
  if (!statement.subject.some((s) => s.name === 'compliance.json') || !compliance) throw new Mismatch('the certificate does not cover compliance.json');
  agreeWithReport(statement.predicate, parseJson(compliance.toString('utf8'), () => 'compliance.json is not JSON') as RunReport);
  return lines;
}

/** An unsigned certificate edited by hand is caught here. */
function agreeWithReport(p: CertificatePredicate, report: RunReport) {
  const fields: Array<[string, unknown, unknown]> = [
    ['verdict', p.verdict, report.verdict],
    ['exit code', p.exitCode, report.exitCode],
    ['target', p.target?.baseUrl, report.target?.baseUrl],
    ['quickstart target', p.target?.quickstartBaseUrl, report.target?.quickstartBaseUrl],
    ['profile', p.profile, report.profile],
    ['strict', p.strict, report.strict],
    ['start', p.startedAt, report.startedAt],
    ['end', p.finishedAt, report.finishedAt],
    ['seed', p.seed, report.seed],
    ['tool version', p.tool?.version, report.tool?.version],
    ['spec version', p.specification?.version, report.spec?.version],
    ['coverage', JSON.stringify(p.coverage), JSON.stringify(report.coverage)],
    ['requirements', p.requirements?.length, report.requirements?.length],
  ];
  for (const [what, certified, reported] of fields) {
    if (certified !== reported)
      throw new Mismatch(`the certificate's ${what} is ${JSON.stringify(certified)}, compliance.json says ${JSON.stringify(reported)}`);
  }
  p.requirements.forEach((r, i) => {
    const other = report.requirements[i];
    if (r.id !== other.id || r.outcome !== other.outcome) {
      throw new Mismatch(`the certificate has ${r.id} ${r.outcome}, compliance.json has ${other.id} ${other.outcome}`);
    }
  });
}
