// `npm run docs`: writes docs/requirements.md from the catalogue.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalogue } from '../harness/api/catalogue.js';
import { PACKAGE_ROOT } from '../harness/model/paths.js';
import { renderRequirementsDoc } from './catalogue-doc.js';

mkdirSync(join(PACKAGE_ROOT, 'docs'), { recursive: true });
writeFileSync(join(PACKAGE_ROOT, 'docs/requirements.md'), renderRequirementsDoc(loadCatalogue()));
console.log('wrote docs/requirements.md');
