// Read before the run, so that a bad key is one line and exit 2, not a run without a certificate.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError } from './values.js';

const MAKE_ONE = 'make one with: openssl genpkey -algorithm ed25519 -out signing-key.pem';

export function readSigningKey(path: string): KeyObject {
  let pem: Buffer;
  try {
    pem = readFileSync(path);
  } catch (err) {
    throw new ConfigError(`cannot read SIGN_KEY ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (err) {
    // the message names the file, never its content
    throw new ConfigError(`SIGN_KEY ${path} is not an unencrypted private key in PEM (${(err as Error).message.split('\n')[0]}); ${MAKE_ONE}`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new ConfigError(`SIGN_KEY ${path} is a ${key.asymmetricKeyType} key, not Ed25519; ${MAKE_ONE}`);
  return key;
}
