// The http requirements of spec/requirements.yaml; the checks are in checks/http.ts.
import { defineAreaSuite } from './vitest-suite.js';

defineAreaSuite('http');
