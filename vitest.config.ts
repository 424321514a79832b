import { defineConfig } from 'vitest/config';
import { AreaSequencer } from './suites/sequencer.js';

export default defineConfig({
  test: {
    // the compliance reporter writes reports only for conformance runs
    reporters: ['default', './reporters/vitest-compliance.ts'],
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
          // one worker, files in area order, so every suite shares one session (one seeding)
          isolate: false,
          fileParallelism: false,
          sequence: { sequencer: AreaSequencer },
          testTimeout: 150_000,
        },
      },
    ],
  },
});
