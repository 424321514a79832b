// The fault matrix (test/support/fault-matrix.ts), part 2 of 2: a file of its own, so
// that the two halves run in two workers at once.
import { faultMatrix } from './support/fault-matrix.js';

faultMatrix(2, 2);
