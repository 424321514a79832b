// The Chromium that the HTML report's browser test drives, found in this order:
// CHROMIUM_PATH, Debian's /usr/bin/chromium, else the headless Chromium shipped
// inside the @sparticuz/chromium devDependency, so that `npm test` needs no system package.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

export interface FoundChromium {
  executablePath: string;
  /** Where it came from, for messages. */
  source: string;
}

export async function findChromium(env: NodeJS.ProcessEnv = process.env): Promise<FoundChromium> {
  if (env.CHROMIUM_PATH) {
    if (!existsSync(env.CHROMIUM_PATH)) throw new Error(`CHROMIUM_PATH=${env.CHROMIUM_PATH} does not exist`);
    return { executablePath: env.CHROMIUM_PATH, source: 'CHROMIUM_PATH' };
  }
  if (existsSync(SYSTEM_CHROMIUM)) return { executablePath: SYSTEM_CHROMIUM, source: SYSTEM_CHROMIUM };
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`no Chromium: set CHROMIUM_PATH (the one in @sparticuz/chromium is for Linux x64, this is ${process.platform} ${process.arch})`);
  }
  return { executablePath: await extractPackagedChromium(), source: '@sparticuz/chromium' };
}

/**
 * Extracts the brotli-packed binary (and the SwiftShader libraries it needs to start) once per
 * package version, into <tmpdir>/animal-store-chromium-<version>/. The package itself extracts
 * straight to <tmpdir>/chromium and reuses whatever file is there, so an interrupted extraction,
 * another package version or a concurrent run would hand us a broken binary: we let it extract
 * into a fresh folder and rename that folder into place, which is atomic.
 */
async function extractPackagedChromium(): Promise<string> {
  const main = createRequire(import.meta.url).resolve('@sparticuz/chromium');
  const { version } = JSON.parse(await readFile(join(dirname(main), '..', '..', 'package.json'), 'utf8')) as { version: string };
  const home = tmpdir();
  const dir = join(home, `animal-store-chromium-${version}`);
  const binary = join(dir, 'chromium');
  if (existsSync(binary)) return binary;

  const staging = await mkdtemp(join(home, 'animal-store-chromium-tmp-'));
  const { default: packaged } = await import('@sparticuz/chromium');
  // the package extracts into os.tmpdir(), which follows TMPDIR at each call
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = staging;
  try {
    const extracted = await packaged.executablePath();
    if (extracted !== join(staging, 'chromium')) throw new Error(`@sparticuz/chromium extracted to ${extracted}, not into ${staging}`);
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
  try {
    await rename(staging, dir);
  } catch (err) {
    // another run put its copy in place first: use that one
    await rm(staging, { recursive: true, force: true });
    if (!existsSync(binary)) throw err;
  }
  return binary;
}
