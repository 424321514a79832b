// `npm run docs`; the API description's digest, which certificates record, when it lies beside the checkout: it is never read at run time.
import { sha256 } from '../harness/api/documents.js';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalogue } from '../harness/api/catalogue.js';
import { renderEnvExample, withActionSettings, withSettingsTable } from '../harness/config/settings-doc.js';
import { PACKAGE_ROOT } from '../harness/model/paths.js';
import { renderRequirementsDoc } from '../reporters/catalogue-doc.js';
import { API_DESCRIPTION_FILE } from '../reporters/certificate.js';

mkdirSync(join(PACKAGE_ROOT, 'docs'), { recursive: true });
writeFileSync(join(PACKAGE_ROOT, 'docs/requirements.md'), renderRequirementsDoc(loadCatalogue()));
console.log('wrote docs/requirements.md');
const configuration = join(PACKAGE_ROOT, 'docs/configuration.md');
writeFileSync(configuration, withSettingsTable(readFileSync(configuration, 'utf8')));
writeFileSync(join(PACKAGE_ROOT, '.env.example'), renderEnvExample());
console.log('wrote the settings table of docs/configuration.md and .env.example');
const action = join(PACKAGE_ROOT, 'action.yml');
writeFileSync(action, withActionSettings(readFileSync(action, 'utf8')));
console.log("wrote action.yml's inputs and environment");

const description = join(PACKAGE_ROOT, '../shared/api/animal-store-api.md');
if (existsSync(description)) {
  const digest = sha256(readFileSync(description));
  writeFileSync(join(PACKAGE_ROOT, API_DESCRIPTION_FILE), `${JSON.stringify({ name: 'animal-store-api.md', digest: { sha256: digest } }, null, 2)}\n`);
  console.log(`wrote ${API_DESCRIPTION_FILE} (sha256 ${digest})`);
} else {
  console.log(`kept ${API_DESCRIPTION_FILE}: no API description at ${description}`);
}
