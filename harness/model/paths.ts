import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Not dist/cli, whose package.json only makes its scripts CommonJS. */
function findPackageRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'spec'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`package.json and spec/ not found above ${start}`);
    dir = parent;
  }
  return dir;
}

export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
export const SPEC_DIR = join(PACKAGE_ROOT, 'spec');

/** Set by the build's run of the CLI: cli/load-run.ts writes the code cache of run.cjs as the process exits. */
export const WRITE_CODE_CACHE = 'ANIMAL_STORE_CONFORMANCE_WRITE_CODE_CACHE';
