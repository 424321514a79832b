// A run whose configuration was refused (a ConfigError before the run) still writes its
// reports: not tested, exit code 2, the reason as configError, every requirement not
// run, so that no earlier run's verdict stays in the report folder for CI or a monitor
// to read. The folder is REPORT_DIR as given where it can be read, else the default;
// where the folder itself is the problem, nothing is written (the one line says why).
import { refusedRunSettings } from '../harness/config/resolve.js';
import { ConfigError } from '../harness/config/values.js';
import { ensureWritableDir } from '../harness/run/prepare.js';
import { readBaseline } from '../harness/verdict/baseline.js';
import { refusedRunReport } from '../harness/verdict/report.js';
import { loadCatalogue } from '../harness/api/catalogue.js';
import { loadSpecs } from '../harness/api/spec.js';
import { finishRun } from '../reporters/finish.js';

/** Writes the reports of a run refused for `reason`, configured by `argv` and `env`; the console line is the caller's. */
export async function reportRefusedRun(reason: string, argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { reportDir, profile, strict, target, baselineFile } = refusedRunSettings(argv, env);
  try {
    await ensureWritableDir(reportDir);
  } catch (err) {
    if (err instanceof ConfigError) return;
    throw err;
  }
  // compared with a readable baseline, the report carries its failing state forward, as any run that judged nothing does
  const baseline = baselineFile ? await readBaseline(baselineFile).catch(() => undefined) : undefined;
  const { title, version } = loadSpecs().store;
  await finishRun(refusedRunReport(reason, { profile, strict, target, spec: { title, version } }, loadCatalogue()), {
    reportDir,
    baseline,
    env,
    // the reason is the console's line, which never holds a key, and the address is one without credentials
    redact: (text) => text,
    // the console says the one line (the caller's), not a summary
    print: () => undefined,
  });
}
