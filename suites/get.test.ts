// The get requirements of spec/requirements.yaml; the checks are in checks/get.ts.
import { defineAreaSuite } from '../harness/vitest-suite.js';

defineAreaSuite('get');
