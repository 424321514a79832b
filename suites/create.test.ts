// The create requirements of spec/requirements.yaml; the checks are in checks/create.ts.
import { defineAreaSuite } from '../harness/vitest-suite.js';

defineAreaSuite('create');
