// `npm run docs`: writes docs/requirements.md from the catalogue, and the settings
// table of docs/configuration.md and .env.example from the settings' declarations.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalogue } from '../harness/api/catalogue.js';
import { renderEnvExample, withSettingsTable } from '../harness/config/settings-doc.js';
import { PACKAGE_ROOT } from '../harness/model/paths.js';
import { renderRequirementsDoc } from './catalogue-doc.js';

mkdirSync(join(PACKAGE_ROOT, 'docs'), { recursive: true });
writeFileSync(join(PACKAGE_ROOT, 'docs/requirements.md'), renderRequirementsDoc(loadCatalogue()));
console.log('wrote docs/requirements.md');
// the page holds the table between its markers; withSettingsTable throws when they are missing
const configuration = join(PACKAGE_ROOT, 'docs/configuration.md');
writeFileSync(configuration, withSettingsTable(readFileSync(configuration, 'utf8')));
writeFileSync(join(PACKAGE_ROOT, '.env.example'), renderEnvExample());
console.log('wrote the settings table of docs/configuration.md and .env.example');
