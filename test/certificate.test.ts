// certificate.json and badge.svg: an in-toto statement of every judged run, a DSSE
// envelope signed with Ed25519 when SIGN_KEY is given, that `verify` accepts with the
// matching public key and refuses (exit 1, saying what does not match) after a change of
// any byte of the certificate or of a report, or with another key; bad input is exit 2
// in one line. A run that judged nothing writes neither, and removes an earlier run's.
import { loadCatalogue } from '../harness/api/catalogue.js';
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import {
  Mismatch,
  PAYLOAD_TYPE,
  PREDICATE_TYPE,
  STATEMENT_TYPE,
  checkReports,
  envelopeVerifies,
  keyIdOf,
  openCertificate,
  pae,
  type Envelope,
} from '../reporters/certificate.js';
import { sha256 } from '../harness/api/documents.js';
import { verifyCommand } from '../cli/verify.js';
import { runBin } from './support/cli.js';
import { startReferenceServer } from '../reference/server.js';
import { closedPort } from './support/hostile-servers.js';
import { reportValidator, validateJunit } from './support/validators.js';

// DSSE's own test vectors (its repository's testvectors/vectors.json): key A is RFC 8032's first Ed25519 test key
/** The catalogue's size: every requirement but PERF-LATENCY-P95 (no budget set) is judged on a compliant run. */
const TOTAL = loadCatalogue().length;
const VECTOR_KEY_SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
const VECTOR_STATEMENT = 'eyJfdHlwZSI6Imh0dHBzOi8vaW4tdG90by5pby9TdGF0ZW1lbnQvdjEifQ==';
const VECTOR_SIG = '2WAfaHm5jluo0w+0rk8uVkluELJYWjSmU9x7EUzx+AyteDGJ4/nqyJXfmAUVFIAoQafWm7AxBZNw5M9ixNHiCA==';
const VECTOR_PAE =
  '445353457631203238206170706c69636174696f6e2f766e642e696e2d746f746f2b6a736f6e203433207b225f74797065223a2268747470733a2f2f696e2d746f746f2e696f2f53746174656d656e742f7631227d';

const vectorKey = () => createPrivateKey({ key: Buffer.from(`302e020100300506032b657004220420${VECTOR_KEY_SEED}`, 'hex'), format: 'der', type: 'pkcs8' });

describe('DSSE', () => {
  it("signs and verifies as DSSE's test vectors say: the PAE, the Ed25519 signature, either base64 alphabet, a swapped payload type refused", () => {
    const key = vectorKey();
    const body = Buffer.from(VECTOR_STATEMENT, 'base64');
    expect(pae(PAYLOAD_TYPE, body).toString('hex')).toBe(VECTOR_PAE);
    expect(sign(null, pae(PAYLOAD_TYPE, body), key).toString('base64')).toBe(VECTOR_SIG);
    const envelope: Envelope = { payload: VECTOR_STATEMENT, payloadType: PAYLOAD_TYPE, signatures: [{ sig: VECTOR_SIG }] };
    const publicKey = createPublicKey(key);
    expect(envelopeVerifies(envelope, publicKey)).toBe(true);
    const urlSafe = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_');
    expect(envelopeVerifies({ ...envelope, payload: urlSafe(VECTOR_STATEMENT), signatures: [{ sig: urlSafe(VECTOR_SIG) }] }, publicKey)).toBe(true);
    expect(envelopeVerifies({ ...envelope, payloadType: 'application/vnd.example.other+json' }, publicKey)).toBe(false);
    // the PAE's lengths are bytes, not characters
    expect(pae('é', Buffer.from('x')).toString()).toBe('DSSEv1 2 é 1 x');
  });
});

/** One certify run of the embedded server, signed; its folder is copied for each test that changes it. */
let signed: string;
let keys: { key: string; pub: string; other: string };

async function keyFiles(dir: string) {
  const pem = (k: KeyObject, type: 'pkcs8' | 'spki') => k.export({ type, format: 'pem' }) as string;
  const [a, b] = [generateKeyPairSync('ed25519'), generateKeyPairSync('ed25519')];
  const files = { key: join(dir, 'key.pem'), pub: join(dir, 'pub.pem'), other: join(dir, 'other.pem') };
  await writeFile(files.key, pem(a.privateKey, 'pkcs8'));
  await writeFile(files.pub, pem(a.publicKey, 'spki'));
  await writeFile(files.other, pem(b.publicKey, 'spki'));
  return files;
}

async function copyOf(dir: string): Promise<string> {
  const copy = await mkdtemp(join(tmpdir(), 'certificate-copy-'));
  for (const name of readdirSync(dir)) await copyFile(join(dir, name), join(copy, name));
  return copy;
}

/** verify in-process: its exit code and what it printed and said on stderr. */
function verify(args: string[]): { code: number; out: string; err: string } {
  const out: string[] = [];
  const err: string[] = [];
  const spy = vi.spyOn(console, 'error').mockImplementation((line: string) => void err.push(line));
  try {
    const code = verifyCommand(args, (line) => out.push(line));
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    spy.mockRestore();
  }
}

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'certificate-'));
  keys = await keyFiles(dir);
  signed = join(dir, 'reports');
  const run = await runBin(['--report-dir', signed, '--sign-key', keys.key]);
  expect(run.code, run.stderr).toBe(0);
});

afterEach(() => vi.restoreAllMocks());

describe('certificate.json', () => {
  it('is a DSSE envelope of an in-toto statement: every report with its sha256 as subject, the run as predicate', async () => {
    const envelope = JSON.parse(await readFile(join(signed, 'certificate.json'), 'utf8')) as Envelope;
    expect(envelope.payloadType).toBe('application/vnd.in-toto+json');
    expect(envelope.signatures).toEqual([{ keyid: keyIdOf(createPublicKey(await readFile(keys.pub))), sig: expect.any(String) }]);
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'));
    expect(statement._type).toBe(STATEMENT_TYPE);
    expect(statement.predicateType).toBe(PREDICATE_TYPE);
    const names = ['compliance.json', 'junit.xml', 'report.html', 'metrics.prom', 'exchanges.har', 'badge.svg'];
    expect(statement.subject.map((s: any) => s.name)).toEqual(names);
    for (const s of statement.subject) expect(s.digest.sha256).toBe(sha256(await readFile(join(signed, s.name))));
    const report = JSON.parse(await readFile(join(signed, 'compliance.json'), 'utf8'));
    expect(statement.predicate).toMatchObject({
      verdict: 'compliant',
      target: { environment: 'embedded', baseUrl: report.target.baseUrl },
      profile: 'certify',
      startedAt: report.startedAt,
      tool: report.tool,
      seed: report.seed,
      coverage: report.coverage,
      specification: {
        version: report.spec.version,
        apiDescription: { name: 'animal-store-api.md', digest: { sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } },
        files: ['spec/openapi.yaml', 'spec/quickstart.yaml', 'spec/requirements.yaml'].map((name) => ({ name, digest: { sha256: expect.any(String) } })),
      },
    });
    expect(statement.predicate.requirements.map((r: any) => [r.id, r.outcome])).toEqual(report.requirements.map((r: any) => [r.id, r.outcome]));
  });

  it('verifies with the matching public key: exit 0, each report matched', () => {
    const { code, out } = verify([join(signed, 'certificate.json'), '--public-key', keys.pub]);
    expect(code).toBe(0);
    expect(out).toMatch(/signed with Ed25519 key [0-9a-f]{64}: the signature verifies/);
    expect(out.match(/sha256 [0-9a-f]{64} matches/g)).toHaveLength(6);
    expect(out).toMatch(new RegExp(`^Verified: COMPLIANT \\(${TOTAL - 1} of ${TOTAL} requirements judged; 1 skipped\\): certify profile of http`, 'm'));
  });

  it('does not verify with another key: exit 1, the keys named', () => {
    const { code, err } = verify([join(signed, 'certificate.json'), '--public-key', keys.other]);
    expect(code).toBe(1);
    expect(err).toMatch(/does not verify: .*certificate\.json: it is signed by key [0-9a-f]{64}, not by the given public key \([0-9a-f]{64}\)$/);
  });

  it('does not verify after a change of a byte of the certificate (every byte outside the payload, every 16th inside)', async () => {
    const text = await readFile(join(signed, 'certificate.json'), 'utf8');
    const bytes = Buffer.from(text);
    const publicKey = createPublicKey(await readFile(keys.pub));
    const verifies = (b: Buffer) => {
      try {
        // as verify reads it: UTF-8 (a byte that breaks it becomes U+FFFD, which the form check refuses)
        openCertificate(b.toString('utf8'), publicKey);
        return true;
      } catch (err) {
        if (!(err instanceof Mismatch)) throw err;
        return false;
      }
    };
    expect(verifies(bytes)).toBe(true);
    // every byte but the inside of the payload's base64, of which every 16th: a change there
    // can only reach the signature (its first and last bytes, where base64 could be read
    // leniently, are all changed)
    const { payload: encoded } = JSON.parse(text);
    const payload = text.indexOf(encoded);
    const payloadEnd = payload + encoded.length;
    expect(payload).toBeGreaterThan(0);
    const inside = (i: number) => i >= payload + 8 && i < payloadEnd - 8 && i % 16 !== 0;
    const passed: string[] = [];
    for (let i = 0; i < bytes.length; i++) {
      if (inside(i)) continue;
      // in turn a neighbour in the byte's class (a letter for a letter, a digit for a digit) and one outside it (a letter's case)
      const flip = i % 2 ? 0x20 : 0x01;
      const changed = Buffer.from(bytes);
      changed[i] ^= flip;
      if (verifies(changed)) passed.push(`byte ${i} ^ ${flip}`);
    }
    expect(passed).toEqual([]);
  });

  it('does not verify after a change of one byte of any report: exit 1, the report named', async () => {
    for (const name of ['compliance.json', 'junit.xml', 'report.html', 'metrics.prom', 'exchanges.har', 'badge.svg']) {
      const dir = await copyOf(signed);
      const bytes = await readFile(join(dir, name));
      bytes[Math.floor(bytes.length / 2)] ^= 0x01;
      await writeFile(join(dir, name), bytes);
      const { code, err } = verify([join(dir, 'certificate.json'), '--public-key', keys.pub]);
      expect(code, name).toBe(1);
      expect(err).toContain(`does not verify: ${name} does not match the certificate: its sha256 is`);
    }
  });

  it('without --public-key checks the digests and says the signature was not checked; an unsigned one says anyone could have written it', async () => {
    const { code, out } = verify([join(signed, 'certificate.json')]);
    expect(code).toBe(0);
    expect(out).toContain('the signature was NOT checked (give --public-key)');
    const unsigned = await mkdtemp(join(tmpdir(), 'unsigned-'));
    expect((await runBin(['--report-dir', unsigned, '--only', 'LIST-'])).code).toBe(0);
    const plain = verify([join(unsigned, 'certificate.json')]);
    expect(plain.code).toBe(0);
    expect(plain.out).toContain('not signed: it ties the reports together, but anyone could have written it');
    // asked for a signature it does not have
    expect(verify([join(unsigned, 'certificate.json'), '--public-key', keys.pub]).code).toBe(1);
    // an unsigned certificate edited to say another verdict disagrees with compliance.json
    const edited = await copyOf(unsigned);
    const text = await readFile(join(edited, 'certificate.json'), 'utf8');
    await writeFile(join(edited, 'certificate.json'), text.replace('"verdict": "compliant"', '"verdict": "incomplete"'));
    const lie = verify([join(edited, 'certificate.json')]);
    expect([lie.code, lie.err]).toEqual([1, expect.stringContaining(`the certificate's verdict is "incomplete", compliance.json says "compliant"`)]);
  });

  it('bad input is exit 2 in one line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'verify-input-'));
    const rsa = join(dir, 'rsa.pem');
    await writeFile(rsa, generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }));
    await writeFile(join(dir, 'junk.pem'), 'not a key');
    const cases: Array<[string[], RegExp]> = [
      [[], /give one certificate/],
      [[join(dir, 'none.json')], /cannot read the certificate .*none\.json: ENOENT/],
      [[join(signed, 'certificate.json'), '--public-key', join(dir, 'junk.pem')], /junk\.pem is not a public key in PEM/],
      [[join(signed, 'certificate.json'), '--public-key', rsa], /rsa\.pem is a rsa key; certificates are signed with Ed25519/],
      // the signing key itself, whose public key would verify: refused, as the docs say
      [[join(signed, 'certificate.json'), '--public-key', keys.key], /key\.pem is a private key; give its public key \(openssl pkey -in .*key\.pem -pubout\)$/],
      [[join(signed, 'certificate.json'), '--reports', join(dir, 'nowhere')], /the reports folder .*nowhere does not exist/],
      [[join(signed, 'certificate.json'), '--publik-key', keys.pub], /Unknown option '--publik-key'/],
    ];
    for (const [args, message] of cases) {
      const { code, err } = verify(args);
      expect([code, err.split('\n').length], err).toEqual([2, 1]);
      expect(err).toMatch(message);
    }
  });

  it('a bad SIGN_KEY is refused before the run: exit 2, one line, reports that say not tested and no certificate', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sign-key-'));
    const rsa = join(dir, 'rsa.pem');
    await writeFile(rsa, generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
    for (const [file, message] of [
      [join(dir, 'missing.pem'), /^animal-store-conformance: cannot read SIGN_KEY .*missing\.pem: ENOENT/],
      [keys.pub, /^animal-store-conformance: SIGN_KEY .*pub\.pem is not an unencrypted private key in PEM/],
      [rsa, /^animal-store-conformance: SIGN_KEY .*rsa\.pem is a rsa key, not Ed25519; make one with: openssl genpkey -algorithm ed25519/],
    ] as const) {
      const reports = join(dir, 'reports');
      const run = await runBin(['--report-dir', reports], { SIGN_KEY: file });
      expect([run.code, run.stderr.trim().split('\n').length]).toEqual([2, 1]);
      expect(run.stderr).toMatch(message);
      expect(JSON.parse(await readFile(join(reports, 'compliance.json'), 'utf8'))).toMatchObject({ verdict: 'not-tested', exitCode: 2 });
      expect(existsSync(join(reports, 'certificate.json'))).toBe(false);
    }
  });
});

describe('badge.svg and what a run that judged nothing writes', () => {
  it('the badge shows the verdict, the spec version and judged/total, and is well-formed SVG', async () => {
    const svg = await readFile(join(signed, 'badge.svg'), 'utf8');
    expect(svg).toContain(`<title>Animal Store API 1.0.0: compliant · ${TOTAL - 1}/${TOTAL} judged</title>`);
    expect(svg).toContain('fill="#4b0"'); // badge-maker's brightgreen
    // well-formed XML: xmllint reads and re-formats it (no schema to validate against)
    const { valid, errors } = await validateXML({ xml: [{ fileName: 'badge.svg', contents: svg }], normalization: 'format' });
    expect(valid, JSON.stringify(errors)).toBe(true);
  });

  it('an aborted run writes no certificate and no badge, and removes those of the run before it', async () => {
    const dir = await copyOf(signed);
    const down = await closedPort();
    const run = await runBin(['--report-dir', dir], { BASE_URL: down.baseUrl, API_KEY: 'aborted-run-key-1234' });
    expect(run.code).toBe(2);
    const files = readdirSync(dir).sort();
    expect(files).toEqual(['compliance.json', 'exchanges.har', 'junit.xml', 'metrics.prom', 'report.html']);
  });

  // On a persistent runner, CI publishes whatever junit.xml the folder holds: a
  // configuration error must not leave the last good run's failures="0" there
  it('a run refused for its configuration after a compliant one: valid reports that say not tested, the reason as the one <error>; no certificate, badge or exchanges left', async () => {
    const dir = await copyOf(signed);
    const run = await runBin(['--report-dir', dir], { API_KEY: 'refused-run-key-1234' });
    const reason = 'API_KEY is set but BASE_URL is not: set BASE_URL';
    expect([run.code, run.stdout, run.stderr.trim().split('\n').length]).toEqual([2, '', 1]);
    expect(run.stderr).toContain(reason);
    expect(readdirSync(dir).sort()).toEqual(['compliance.json', 'junit.xml', 'metrics.prom', 'report.html']);
    const report = JSON.parse(await readFile(join(dir, 'compliance.json'), 'utf8'));
    expect(report).toMatchObject({ verdict: 'not-tested', exitCode: 2, requestCount: 0, configError: expect.stringContaining(reason) });
    expect(report.coverage.judged).toBe(0);
    const validate = reportValidator();
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
    expect((await validateJunit(junit)).valid).toBe(true);
    expect(junit.match(/<error /g)).toHaveLength(1);
    expect(junit).toMatch(new RegExp(`<error message="the run could not start: ${reason}[^"]*" type="not-tested">`));
    expect(junit).toMatch(/<testsuites [^>]*failures="0" errors="1"/);
    const metrics = await readFile(join(dir, 'metrics.prom'), 'utf8');
    expect(metrics).toMatch(/^animal_store_conformance_verdict\{verdict="not-tested",target="",profile="certify"\} 1$/m);
    expect(metrics).toMatch(/^animal_store_conformance_exit_code\{target="",profile="certify"\} 2$/m);
    expect(await readFile(join(dir, 'report.html'), 'utf8')).toContain(reason);
    for (const file of readdirSync(dir)) expect(await readFile(join(dir, file), 'utf8')).not.toContain('refused-run-key-1234');
  });

  it('a non-compliant run is certified as such, and its badge is red', async () => {
    const ref = await startReferenceServer({ apiKey: 'badge-key-0123456789', faults: ['no-auth-on-list'] });
    try {
      const dir = await mkdtemp(join(tmpdir(), 'badge-'));
      const run = await runBin(['--report-dir', dir, '--only', 'auth'], { BASE_URL: ref.baseUrl, API_KEY: 'badge-key-0123456789' });
      expect(run.code).toBe(1);
      expect(await readFile(join(dir, 'badge.svg'), 'utf8')).toMatch(new RegExp(`non-compliant · \\d+/${TOTAL} judged</title>.*fill="#dd4343"`, 's'));
      expect(checkReports(openCertificate(await readFile(join(dir, 'certificate.json'), 'utf8')).statement, (n) => readFileSync(join(dir, n)))).toHaveLength(6);
    } finally {
      await ref.close();
    }
  });
});
