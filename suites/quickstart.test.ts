// The quickstart requirements of spec/requirements.yaml; the checks are in checks/quickstart.ts.
import { defineAreaSuite } from '../harness/vitest-suite.js';

defineAreaSuite('quickstart');
