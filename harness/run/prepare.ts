// Everything a run needs before it starts: any bad input is a ConfigError here, before the run creates data.
import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import { loadCatalogue } from '../api/catalogue.js';
import { resolveConfig, type ParsedArgs } from '../config/resolve.js';
import { ConfigError } from '../config/values.js';
import { readExpectedFailures, selectRequirements } from '../config/selection.js';
import { readSigningKey } from '../config/signing-key.js';
import { readBaseline } from '../verdict/baseline.js';

export type PreparedRun = Awaited<ReturnType<typeof prepareRun>>;

/** Finds an unusable REPORT_DIR before the run. */
export async function ensureWritableDir(dir: string) {
  const existing = await stat(dir).catch(() => undefined);
  if (existing && !existing.isDirectory()) throw new ConfigError(`REPORT_DIR ${dir} is a file, not a folder`);
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOTDIR' ? 'a part of the path is a file, not a folder' : (code ?? (err as Error).message);
    throw new ConfigError(`cannot write reports to ${dir}: ${why}`);
  }
}

export async function prepareRun(args: ParsedArgs, env: NodeJS.ProcessEnv, options: { record?: boolean } = {}) {
  const config = resolveConfig(args, env, undefined, options);
  await ensureWritableDir(config.reportDir);
  const catalogue = loadCatalogue();
  return {
    config,
    catalogue,
    selected: selectRequirements(catalogue, config.only, config.skip),
    expectedFailures: config.expectedFailuresFile ? readExpectedFailures(config.expectedFailuresFile, catalogue) : new Map<string, string>(),
    // read now: REPORT_DIR/compliance.json may be it, and the run overwrites it
    baseline: config.baselineFile ? await readBaseline(config.baselineFile) : undefined,
    signKey: config.signKeyFile ? readSigningKey(config.signKeyFile) : undefined,
  };
}
