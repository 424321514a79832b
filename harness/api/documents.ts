// The project's YAML documents (the OpenAPI descriptions, the requirement catalogue),
// read without loading the schema validators: --list needs the catalogue only.
// Parsing the YAML took about a tenth of a run's CPU (the parser is slow to load and
// to run), so each document is kept as JSON in dist/document-cache/ with the text it
// was parsed from, and read from there while the YAML is that text; writing the cache
// is best-effort (an installation may be read-only) and atomic (runs may be parallel).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { PACKAGE_ROOT } from '../model/paths.js';

const CACHE_DIR = join(PACKAGE_ROOT, 'dist', 'document-cache');

export function readSpecDocument(file: string): Record<string, any> {
  const text = readFileSync(file, 'utf8');
  const cached = join(CACHE_DIR, `${basename(file)}.json`);
  try {
    const entry = JSON.parse(readFileSync(cached, 'utf8'));
    if (entry.text === text) return entry.document;
  } catch {
    // no cache yet, or a damaged one: parse the YAML
  }
  // loaded only when needed: the YAML parser is most of the cost saved
  const { parse } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  const document = parse(text);
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    const temporary = `${cached}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify({ text, document }));
    renameSync(temporary, cached);
  } catch {
    // a read-only installation parses each time
  }
  return document;
}
