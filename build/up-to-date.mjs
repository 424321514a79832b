// `node build/up-to-date.mjs`: exit 0 when dist/ was built from the sources as they are
// now (npm test skips its build then: npm ci has just made one), else 1.
// `--stamp`: records the sources' digest in dist/, as the last step of the build.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';

const SOURCES = ['harness', 'checks', 'reference', 'reporters', 'cli', 'build', 'bench', 'suites', 'spec', 'package.json', 'package-lock.json'];
const STAMP = 'dist/sources.sha256';

function digest() {
  const hash = createHash('sha256').update(process.version);
  const add = (path) => {
    if (!statSync(path).isDirectory()) return hash.update(`${path}\0`).update(readFileSync(path));
    for (const name of readdirSync(path).sort()) add(join(path, name));
  };
  SOURCES.forEach(add);
  return hash.digest('hex');
}

if (process.argv.includes('--stamp')) writeFileSync(STAMP, digest());
else {
  let stamped = '';
  try {
    stamped = readFileSync(STAMP, 'utf8');
  } catch {
    // never built
  }
  process.exitCode = stamped === digest() ? 0 : 1;
}
