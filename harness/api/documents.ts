// The project's YAML documents (the OpenAPI descriptions, the requirement catalogue),
// read without loading the schema validators: --list needs the catalogue only.
// Parsing the YAML took about a tenth of a run's CPU (the parser is slow to load and
// to run), so each document is kept as JSON in dist/document-cache/ with the text it
// was parsed from, and read from there while the YAML is that text; writing the cache
// is best-effort (an installation may be read-only) and atomic (runs may be parallel).
// The CLI's bundle carries the project's documents as the build parsed them
// (built-documents.ts), used while each file is still the text they were parsed from.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { PACKAGE_ROOT, SPEC_DIR } from '../model/paths.js';
import { writeCacheAtomically } from '../model/files.js';
import { builtDocuments } from './built-documents.js';

const CACHE_DIR = join(PACKAGE_ROOT, 'dist', 'document-cache');

/** A YAML document; the project's own (spec/) as the build parsed it, else through the cache. */
export function readSpecDocument(file: string): Record<string, any> {
  return builtDocument(file) ?? parsedDocument(file);
}

/** A YAML document parsed, not the build's: the project's own (spec/) through the cache. */
export function parsedDocument(file: string): Record<string, any> {
  return dirname(file) === SPEC_DIR ? readDocument(file, CACHE_DIR) : readDocument(file);
}

/**
 * One of the project's own documents as the build parsed it, while the file is still
 * the text it was parsed from (a spec edited after the build is parsed again); else
 * undefined, as always from sources, where nothing was built.
 */
export function builtDocument(file: string): Record<string, any> | undefined {
  const built = dirname(file) === SPEC_DIR ? builtDocuments?.[basename(file)] : undefined;
  if (!built) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined; // reported by the parse that follows
  }
  const digest = sha256(text);
  readDigests.set(file, digest);
  return digest === built.sha256 ? JSON.parse(built.json) : undefined;
}

/** The sha256 of each of the project's documents whose text builtDocument read. */
const readDigests = new Map<string, string>();

/** The sha256 of one of the project's documents: of the text the run read, where it read one (the certificate records it). */
export function documentDigest(file: string): string {
  return readDigests.get(file) ?? sha256(readFileSync(file));
}

/** The hex sha256 of a text or bytes: what the build records for each document, and the certificate for each report. */
export const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** A YAML document, through a cache in `cacheDir` when one is given. */
export function readDocument(file: string, cacheDir?: string): Record<string, any> {
  const text = readFileSync(file, 'utf8');
  const parse = () => (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text);
  if (cacheDir === undefined) return parse();
  const cached = join(cacheDir, `${basename(file)}.json`);
  try {
    const entry = JSON.parse(readFileSync(cached, 'utf8'));
    if (entry.text === text) return entry.document;
  } catch {
    // no cache yet, or a damaged one: parse the YAML
  }
  // the parser is loaded only when needed: loading it is part of the cost saved
  const document = parse();
  // a read-only installation parses each time
  writeCacheAtomically(cached, JSON.stringify({ text, document }));
  return document;
}
