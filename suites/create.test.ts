// The create requirements of spec/requirements.yaml; the checks are in checks/create.ts.
import { defineAreaSuite } from './vitest-suite.js';

defineAreaSuite('create');
