import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Vitest starts the files that took longest last time first, or the largest when it knows
// no durations; these long ones (small files that start many runs, or wait on timeouts and
// rate limits) would then come last and finish alone. In this order, the two that wait
// longest start beside the two fault matrix parts, which keep both cores busy; the one that
// waits next longest comes after the other long ones, beside files that need the cores.
const LONGEST = ['observation', 'network', 'fault-matrix-', 'variant-matrix-', 'vitest-suites', 'serve', 'hostile', 'production-realities'];
const rank = (file: TestSpecification) => {
  const i = LONGEST.findIndex((name) => file.moduleId.includes(`/test/${name}`));
  return i < 0 ? LONGEST.length : i;
};

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    // the compliance reporter writes reports only for conformance runs
    reporters: ['default', './reporters/vitest-compliance.ts'],
    // four files at once on a 2-core machine (the default here is one): some self-tests
    // mostly wait (on timeouts, rate limits, slow servers) while others keep both cores
    // busy; a fifth took as long and spent 6 s more CPU on its start and on contention
    maxWorkers: 4,
    sequence: { sequencer: LongestFirst },
    experimental: { fsModuleCache: true },
    projects: [
      {
        // the project's own tests: `npm test`
        test: {
          name: 'self-tests',
          include: ['test/**/*.test.ts'],
          // each worker imports the harness, the checks and the reference server once, for
          // all the files it runs, not once per file (about half a second of CPU a file)
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // the conformance suites: `npm run conformance:vitest` (configured like the CLI, by environment)
        test: {
          name: 'conformance',
          include: ['suites/**/*.test.ts'],
          globalSetup: ['suites/global-setup.ts'],
          // one worker and one module graph, so every suite file shares one run (one
          // seeding); the runner orders the checks (observers last), not the file order
          isolate: false,
          fileParallelism: false,
          testTimeout: 150_000,
        },
      },
    ],
  },
});
