// The list requirements of spec/requirements.yaml; the checks are in checks/list.ts.
import { defineAreaSuite } from './vitest-suite.js';

defineAreaSuite('list');
