// `animal-store-conformance verify`: checks a certificate.json and the reports it covers (reporters/certificate.ts).
import { createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { Mismatch, checkReports, openCertificate, type Statement } from '../reporters/certificate.js';
import { coverageText, verdictText } from '../harness/verdict/report.js';
import { ConfigError } from '../harness/config/values.js';

const NAME = 'animal-store-conformance verify';

const VERIFY_USAGE = [
  `Usage: ${NAME} <certificate.json> [--public-key <file>] [--reports <dir>]`,
  '',
  'Checks a certificate written by a run: that no byte of it changed, its signature (with',
  '--public-key, the PEM public key of the SIGN_KEY it was signed with), and the sha256 of',
  'every report it covers (in --reports; by default the folder of the certificate).',
  'Exit codes: 0 verified, 1 it does not verify (the line says what does not match), 2 bad input.',
].join('\n');

function read(path: string, what: string) {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new ConfigError(`cannot read ${what} ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

function publicKeyFrom(path: string) {
  const bytes = read(path, 'the public key');
  // createPublicKey would derive it from a private key, but that is the signer's secret, never the verifier's
  if (/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(bytes.toString('latin1')))
    throw new ConfigError(`${path} is a private key; give its public key (openssl pkey -in ${path} -pubout)`);
  let key: KeyObject;
  try {
    key = createPublicKey(bytes);
  } catch (err) {
    throw new ConfigError(`${path} is not a public key in PEM (${(err as Error).message.split('\n')[0]})`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new ConfigError(`${path} is a ${key.asymmetricKeyType} key; certificates are signed with Ed25519`);
  return key;
}

function certified(statement: Statement) {
  const p = statement.predicate;
  const what = `${verdictText(p.verdict).toUpperCase()} (${coverageText(p.coverage)})`;
  return `${what}: ${p.profile} profile of ${p.target.baseUrl}, ${p.startedAt}, ${p.tool.name} ${p.tool.version}, ${p.specification.title} ${p.specification.version}`;
}

export function verifyCommand(argv: string[], print: (line: string) => void = console.log): number {
  let certificatePath = '';
  try {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv,
        allowPositionals: true,
        options: { 'public-key': { type: 'string' }, reports: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      });
    } catch (err) {
      throw new ConfigError((err as Error).message.split('\n')[0]);
    }
    if (parsed.values.help) {
      print(VERIFY_USAGE);
      return 0;
    }
    if (parsed.positionals.length !== 1) throw new ConfigError('give one certificate: verify <certificate.json> [--public-key <file>] [--reports <dir>]');
    certificatePath = parsed.positionals[0];
    const keyPath = parsed.values['public-key'];
    const publicKey = keyPath === undefined ? undefined : publicKeyFrom(keyPath);
    const reportsDir = parsed.values.reports ?? dirname(certificatePath);
    if (!statSync(reportsDir, { throwIfNoEntry: false })?.isDirectory()) throw new ConfigError(`the reports folder ${reportsDir} does not exist`);
    const text = read(certificatePath, 'the certificate').toString('utf8');
    const opened = openCertificate(text, publicKey);
    const lines = checkReports(opened.statement, (name) => {
      try {
        return readFileSync(join(reportsDir, name));
      } catch {
        return undefined;
      }
    });
    print(
      opened.verifiedKey
        ? `${certificatePath}: signed with Ed25519 key ${opened.verifiedKey}: the signature verifies`
        : opened.signedBy
          ? `${certificatePath}: signed by key ${opened.signedBy.join(', ')}; the signature was NOT checked (give --public-key)`
          : `${certificatePath}: not signed: it ties the reports together, but anyone could have written it`,
    );
    for (const line of lines) print(`  ${line}`);
    print(`Verified: ${certified(opened.statement)}`);
    return 0;
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`${NAME}: ${err.message}`);
      return 2;
    }
    if (err instanceof Mismatch) {
      // a message about the certificate itself names it
      console.error(`${NAME}: does not verify: ${/^its? /.test(err.message) ? `${certificatePath}: ${err.message}` : err.message}`);
      return 1;
    }
    throw err;
  }
}
