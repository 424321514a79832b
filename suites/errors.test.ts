// The errors requirements of spec/requirements.yaml; the checks are in checks/errors.ts.
import { defineAreaSuite } from './vitest-suite.js';

defineAreaSuite('errors');
