// The media requirements of spec/requirements.yaml; the checks are in checks/media.ts.
import { defineAreaSuite } from './vitest-suite.js';

defineAreaSuite('media');
