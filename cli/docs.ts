// `npm run docs`: writes docs/requirements.md from the catalogue, and the README's
// settings table and .env.example from the settings' declarations.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalogue } from '../harness/api/catalogue.js';
import { renderEnvExample, withSettingsTable } from '../harness/config/settings-doc.js';
import { PACKAGE_ROOT } from '../harness/model/paths.js';
import { renderRequirementsDoc } from './catalogue-doc.js';

mkdirSync(join(PACKAGE_ROOT, 'docs'), { recursive: true });
writeFileSync(join(PACKAGE_ROOT, 'docs/requirements.md'), renderRequirementsDoc(loadCatalogue()));
console.log('wrote docs/requirements.md');
const readme = join(PACKAGE_ROOT, 'README.md');
writeFileSync(readme, withSettingsTable(readFileSync(readme, 'utf8')));
writeFileSync(join(PACKAGE_ROOT, '.env.example'), renderEnvExample());
console.log('wrote the settings table of README.md and .env.example');
