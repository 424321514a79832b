// `animal-store-conformance judge <file.har>`: judges a record of traffic the suite did not
// send (harness/run/record.ts) with a run's settings, reports and exit codes.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseCommandLine } from '../harness/config/resolve.js';
import { ConfigError } from '../harness/config/values.js';
import { prepareRun } from '../harness/run/prepare.js';
import { judgeRecord } from '../harness/run/record.js';
import { redactorFor, sessionOptionsFor } from '../harness/run/session.js';
import { sha256 } from '../harness/api/documents.js';
import { RECORD_CHECKS } from '../checks/record.js';
import { EXCHANGE_LOG_FILE } from '../reporters/har.js';
import { configuredTarget, finishCliRun } from './target.js';

const JUDGE_USAGE = [
  'Usage: animal-store-conformance judge <file.har> [options]',
  '',
  "Judges a record of traffic (HAR: a browser export, Playwright recordHar, this tool's exchanges.har)",
  'against the requirements a record can speak to; nothing is sent. BASE_URL (and QUICKSTART_BASE_URL)',
  "say which entries are each service's; API_KEY, when given, which bearer token is valid. Other",
  'options as for a run (--help). Writes the same reports; exit 0 compliant, 1 not compliant, 2 no verdict.',
].join('\n');

export async function judgeCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [file, ...rest] = argv;
  if (file === '--help' || file === '-h') {
    console.log(JUDGE_USAGE);
    return 0;
  }
  if (!file || file.startsWith('-')) throw new ConfigError('judge needs a HAR file first: judge <file.har> [options]');
  const run = await prepareRun(parseCommandLine(rest), env, { record: true });
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    throw new ConfigError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const target = configuredTarget(run.config);
  const { report, summary } = await judgeRecord({
    checks: RECORD_CHECKS,
    ...sessionOptionsFor(run.config, target),
    har: bytes.toString('utf8'),
    file,
    catalogue: run.catalogue,
    selected: run.selected,
    expectedFailures: run.expectedFailures,
  });
  const redactor = redactorFor(target);
  process.stderr.write(`${redactor.redact(summary)}\n`);
  // the record itself where a run writes its exchanges.har: kept, and covered by the certificate
  const inPlace = resolve(file) === resolve(run.config.reportDir, EXCHANGE_LOG_FILE);
  await finishCliRun(report, run, redactor, env, inPlace ? { written: [{ name: EXCHANGE_LOG_FILE, digest: { sha256: sha256(bytes) } }] } : {});
  return report.exitCode;
}
