// The title of a requirement's Vitest test: -t matches it (after the area, the
// describe block), and global-setup selects the run's requirements with it.
import type { Requirement } from '../harness/model/types.js';

export const testTitle = (r: Requirement) => `${r.id} ${r.level} ${r.title}`;
