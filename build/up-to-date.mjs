// `node build/up-to-date.mjs`: exit 0 when dist/ was built from the sources as they are
// now (npm test skips its build then: npm ci has just made one), else 1.
// `--begin`, the build's first step: empties dist/ and notes the sources' digest as they
// are when the build reads them; `--stamp`, its last: records that digest as dist/'s.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';

const SOURCES = [
  'harness',
  'checks',
  'reference',
  'reporters',
  'cli',
  'build',
  'bench',
  'suites',
  'spec',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
];
// what `npm run bench` writes is not built
const NOT_BUILT = ['bench/results.md'];
const STAMP = 'dist/sources.sha256';
const PENDING = `${STAMP}.pending`;

function digest() {
  const hash = createHash('sha256').update(process.version);
  const add = (path) => {
    if (NOT_BUILT.includes(path)) return;
    if (!statSync(path).isDirectory()) return hash.update(`${path}\0`).update(readFileSync(path));
    for (const name of readdirSync(path).sort()) add(join(path, name));
  };
  SOURCES.forEach(add);
  return hash.digest('hex');
}

if (process.argv.includes('--begin')) {
  rmSync('dist', { recursive: true, force: true });
  mkdirSync('dist');
  writeFileSync(PENDING, digest());
} else if (process.argv.includes('--stamp')) renameSync(PENDING, STAMP);
else {
  let stamped = '';
  try {
    stamped = readFileSync(STAMP, 'utf8');
  } catch {
    // never built
  }
  process.exitCode = stamped === digest() ? 0 : 1;
}
