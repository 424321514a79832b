// The orders requirements of spec/requirements.yaml; the checks are in checks/orders.ts.
import { defineAreaSuite } from './vitest-suite.js';

defineAreaSuite('orders');
