// Read without loading the schema validators: --list needs the catalogue only.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

const digests = new Map<string, string>();

/** A YAML document, parsed from its file as it is now: the caller's own. */
export const readSpecDocument = (file: string): Record<string, any> => parse(readText(file));

// the self-tests make hundreds of runs in one process: each text is parsed once
const shared = new Map<string, Record<string, any>>();

/** A YAML document as readSpecDocument reads it, shared with every other reader of the same text: never to be changed. */
export function sharedSpecDocument(file: string): Record<string, any> {
  const text = readText(file);
  const known = shared.get(text);
  if (known) return known;
  const doc = parse(text);
  shared.set(text, doc);
  return doc;
}

function readText(file: string): string {
  const text = readFileSync(file, 'utf8');
  digests.set(file, sha256(text));
  return text;
}

/** Of the text the run read, where it read one: the certificate records it. */
export function documentDigest(file: string): string {
  return digests.get(file) ?? sha256(readFileSync(file));
}

export const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
