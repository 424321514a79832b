// Runs the suite files in area order (auth, errors, ..., quickstart as in the
// catalogue), with the observing areas (errors, media) after the rest, so that
// they judge every exchange the other suites made.
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { basename } from 'node:path';

const LAST = ['errors', 'media'];

export class AreaSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => (LAST.includes(basename(f.moduleId, '.test.ts')) ? 1 : 0);
    return [...files].sort((a, b) => rank(a) - rank(b) || a.moduleId.localeCompare(b.moduleId));
  }
}
