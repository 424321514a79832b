// The project's YAML documents (the OpenAPI descriptions, the requirement catalogue),
// read without loading the schema validators: --list needs the catalogue only.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** The sha256 of the text of each document the run read, by file. */
const digests = new Map<string, string>();

/** A YAML document, parsed from its file as it is now. */
export function readSpecDocument(file: string): Record<string, any> {
  const text = readFileSync(file, 'utf8');
  digests.set(file, sha256(text));
  return parse(text);
}

/** The sha256 of one of the project's documents: of the text the run read, where it read one (the certificate records it). */
export function documentDigest(file: string): string {
  return digests.get(file) ?? sha256(readFileSync(file));
}

/** The hex sha256 of a text or bytes: what the build records for each document, and the certificate for each report. */
export const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
