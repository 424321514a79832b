// Read without loading the schema validators: --list needs the catalogue only.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

const digests = new Map<string, string>();

export function readSpecDocument(file: string): Record<string, any> {
  const text = readFileSync(file, 'utf8');
  digests.set(file, sha256(text));
  return parse(text);
}

/** Of the text the run read, where it read one: the certificate records it. */
export function documentDigest(file: string): string {
  return digests.get(file) ?? sha256(readFileSync(file));
}

export const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
