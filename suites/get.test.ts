// The get requirements of spec/requirements.yaml; the checks are in checks/get.ts.
import { defineAreaSuite } from './vitest-suite.js';

defineAreaSuite('get');
