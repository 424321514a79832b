// The fault matrix (test/support/fault-matrix.ts), part 1 of 2: a file of its own, so
// that the two halves run in two workers at once.
import { faultMatrix } from './support/fault-matrix.js';

faultMatrix(1, 2);
