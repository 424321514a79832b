// The performance requirements of spec/requirements.yaml; the checks are in checks/performance.ts.
import { defineAreaSuite } from './vitest-suite.js';

defineAreaSuite('performance');
