// A textfile collector, a CI step or the next run's --baseline never reads half a report: written beside it, then renamed.
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Not ending as the file does: a textfile collector reads *.prom. */
const temporaryFor = (file: string) => join(dirname(file), `.${basename(file)}.${randomUUID()}.tmp`);

export async function writeAtomically(dir: string, name: string, data: string | Buffer): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, name);
  const temporary = temporaryFor(file);
  try {
    await writeFile(temporary, data);
    await rename(temporary, file);
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
  return file;
}
