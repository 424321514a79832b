// -t matches a test's area and this title: global-setup selects the run's requirements with it.
import type { Requirement } from '../harness/model/types.js';

export const testTitle = (r: Requirement) => `${r.id} ${r.level} ${r.title}`;
