// The project's YAML documents (the OpenAPI descriptions, the requirement catalogue),
// read without loading the schema validators: --list needs the catalogue only.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

export function readSpecDocument(file: string): Record<string, any> {
  return parseYaml(readFileSync(file, 'utf8'));
}
