// The performance requirements of spec/requirements.yaml; the checks are in checks/performance.ts.
import { defineAreaSuite } from '../harness/vitest-suite.js';

defineAreaSuite('performance');
