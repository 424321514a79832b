import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // the compliance reporter writes reports only for conformance runs
    reporters: ['default', './reporters/vitest-compliance.ts'],
    // two files at once: the self-tests spend most of their time waiting on sockets and
    // child processes, so two workers halve the wall time on this 2-core machine (the
    // default here is one); more starve the hostile tests' wall-time bounds
    maxWorkers: 2,
    projects: [
      {
        // the project's own tests: `npm test`
        test: {
          name: 'self-tests',
          include: ['test/**/*.test.ts'],
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
