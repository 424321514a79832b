import { defineAreaSuite } from './vitest-suite.js';

defineAreaSuite('auth');
