// The two validators the reports must pass: the compliance report's JSON Schema and
// the Jenkins JUnit XSD (a copy of the one in ../shared, so npm test needs no ../shared).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule, { type FormatsPlugin } from 'ajv-formats';
import { validateXML } from 'xmllint-wasm';
import { PACKAGE_ROOT } from '../../harness/model/paths.js';

// ajv-formats is CommonJS: the default export is the module object under Node, the function under Vitest
const addFormats = ((formatsModule as any).default ?? formatsModule) as FormatsPlugin;

const reportSchema = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'spec/compliance-report.schema.json'), 'utf8'));
const junitXsd = readFileSync(join(PACKAGE_ROOT, 'test/fixtures/junit-10.xsd'), 'utf8');

export function reportValidator() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv.compile(reportSchema);
}

export const validateJunit = (contents: string) => validateXML({ xml: [{ fileName: 'junit.xml', contents }], schema: [junitXsd] });
