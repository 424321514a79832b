// The variant matrix (test/support/variant-matrix.ts), part 2 of 2: a file of its own, so
// that the two halves run in two workers at once.
import { variantMatrix } from './support/variant-matrix.js';

variantMatrix(2, 2);
