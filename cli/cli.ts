// The command line. --help and --version are answered here from light modules; the rest is
// in cli/commands.ts, loaded only when needed (the HTTP client, the validators and the
// reporters take most of the start-up time).
import { parseCommandLine } from '../harness/config/resolve.js';
import { ConfigError } from '../harness/config/values.js';
import { helpRows } from '../harness/config/settings-doc.js';
import { TOOL } from '../harness/model/tool.js';

const NAME = 'animal-store-conformance';

const commands = () => import('./commands.js');

export function usage(): string {
  return [
    `Usage: ${NAME} [options]`,
    `       ${NAME} serve [--port N] [--variant NAME]... [--fault NAME]... (serve --help)`,
    `       ${NAME} verify <certificate.json> [--public-key FILE] [--reports DIR] (verify --help)`,
    `       ${NAME} judge <file.har> [options] (judge --help)`,
    '',
    'Certifies an Animal Store server against its API description and writes',
    'REPORT_DIR/compliance.json, junit.xml, report.html, metrics.prom and exchanges.har, and for a',
    'judged run certificate.json and badge.svg. With no target configured (or TARGET=embedded),',
    'the embedded reference server is started on 127.0.0.1 and certified. `serve` runs the',
    'reference server for a client team; `verify` checks a certificate and the reports it covers;',
    '`judge` judges a record of traffic (HAR) with the same requirements, sending nothing.',
    '',
    'Options (each also as an environment variable or in .env; flags win):',
    ...helpRows(),
    '  --list'.padEnd(56) + 'Print the requirement catalogue and exit.',
    '  -h, --help'.padEnd(56) + 'Show this help.',
    '  --version'.padEnd(56) + 'Show the version.',
    '',
    'Exit codes: 0 compliant (a requirement was judged, and no MUST failed or could not be judged; skipped and inconclusive',
    'ones and listed known deviations do not count), 1 not compliant (a MUST failed), 2 no verdict: incomplete (a MUST could',
    'not be judged), the run could not be made or stopped (bad configuration, the target stopped answering), or it judged',
    'nothing; with --strict a SHOULD counts as a MUST; 130/143 stopped by SIGINT/SIGTERM (the reports are still written; a',
    'second signal exits at once).',
  ].join('\n');
}

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (argv[0] === 'serve') return (await commands()).serveCommand(argv.slice(1), env);
  if (argv[0] === 'verify') return (await commands()).verifyCommand(argv.slice(1));
  const judging = argv[0] === 'judge';
  try {
    if (judging) return await (await commands()).judgeCommand(argv.slice(1), env);
    const args = parseCommandLine(argv);
    if (args.help) {
      console.log(usage());
      return 0;
    }
    if (args.version) {
      console.log(`${NAME} ${TOOL.version}`);
      return 0;
    }
    if (args.list) {
      console.log(await (await commands()).catalogueList());
      return 0;
    }
    return await (await commands()).certify(args, env);
  } catch (err) {
    // in the CLI's bundle the run's modules are a script of their own, with their own ConfigError
    if (!(err instanceof ConfigError || err instanceof (await commands()).ConfigError)) throw err;
    console.error(judging ? `${NAME} judge: ${err.message}` : `${NAME}: ${err.message} (see --help)`);
    // the reports say so too, in place of an earlier run's
    await (await commands()).reportRefusedRun(err.message, argv.slice(judging ? 1 : 0), env);
    return 2;
  }
}
