// All the command line does beyond --help and --version; cli/cli.ts loads it only for one of
// them, and each command's module is evaluated when it is called. The CLI's bundle makes it dist/cli/run.cjs.
import type { ParsedArgs } from '../harness/config/resolve.js';

// the bundle's own ConfigError, for cli.ts to know the errors of a run
export { ConfigError } from '../harness/config/values.js';

export const certify = async (args: ParsedArgs, env: NodeJS.ProcessEnv) => (await import('./certify.js')).certify(args, env);

export const reportRefusedRun = async (reason: string, argv: string[], env: NodeJS.ProcessEnv) =>
  (await import('./refused-run.js')).reportRefusedRun(reason, argv, env);

export async function catalogueList(): Promise<string> {
  const [{ loadCatalogue }, { formatCatalogueList }] = await Promise.all([import('../harness/api/catalogue.js'), import('../reporters/catalogue-doc.js')]);
  return formatCatalogueList(loadCatalogue());
}

export const serveCommand = async (argv: string[], env: NodeJS.ProcessEnv) => (await import('./serve.js')).serveCommand(argv, env);

export const judgeCommand = async (argv: string[], env: NodeJS.ProcessEnv) => (await import('./judge.js')).judgeCommand(argv, env);

export const verifyCommand = async (argv: string[]) => (await import('./verify.js')).verifyCommand(argv);
