// A run whose configuration was refused still writes its reports (not tested, exit code 2),
// so that no earlier run's verdict stays in the report folder for CI or a monitor to read.
import { refusedRunSettings } from '../harness/config/resolve.js';
import { ConfigError } from '../harness/config/values.js';
import { ensureWritableDir } from '../harness/run/prepare.js';
import { readBaseline } from '../harness/verdict/baseline.js';
import { refusedRunReport } from '../harness/verdict/report.js';
import { loadCatalogue } from '../harness/api/catalogue.js';
import { loadSpecs } from '../harness/api/spec.js';
import { finishRun } from '../reporters/finish.js';

export async function reportRefusedRun(reason: string, argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { reportDir, profile, strict, target, baselineFile } = refusedRunSettings(argv, env);
  try {
    await ensureWritableDir(reportDir);
  } catch (err) {
    if (err instanceof ConfigError) return;
    throw err;
  }
  // compared with a baseline, the report carries its failing state forward
  const baseline = baselineFile ? await readBaseline(baselineFile).catch(() => undefined) : undefined;
  const { title, version } = loadSpecs().store;
  await finishRun(refusedRunReport(reason, { profile, strict, target, spec: { title, version } }, loadCatalogue()), {
    reportDir,
    baseline,
    env,
    // the reason is the console's line, which never holds a key
    redact: (text) => text,
    print: () => undefined,
  });
}
