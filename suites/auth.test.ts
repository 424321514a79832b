// The auth requirements of spec/requirements.yaml; the checks are in checks/auth.ts.
import { defineAreaSuite } from './vitest-suite.js';

defineAreaSuite('auth');
