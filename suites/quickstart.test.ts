// The quickstart requirements of spec/requirements.yaml; the checks are in checks/quickstart.ts.
import { defineAreaSuite } from './vitest-suite.js';

defineAreaSuite('quickstart');
