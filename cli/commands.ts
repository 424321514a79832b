// What the command line does beyond --help and --version: a run, --list, serve,
// judge and verify. cli/cli.ts loads this module only for one of them; each command's
// module is evaluated when it is called. In the CLI's bundle this is dist/cli/run.cjs (load-run.ts).
import type { ParsedArgs } from '../harness/config/resolve.js';

// the bundle's own ConfigError, for cli.ts to know the errors of a run
export { ConfigError } from '../harness/config/values.js';

export async function certify(args: ParsedArgs, env: NodeJS.ProcessEnv): Promise<number> {
  return (await import('./certify.js')).certify(args, env);
}

export async function reportRefusedRun(reason: string, argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return (await import('./refused-run.js')).reportRefusedRun(reason, argv, env);
}

export async function catalogueList(): Promise<string> {
  const [{ loadCatalogue }, { formatCatalogueList }] = await Promise.all([import('../harness/api/catalogue.js'), import('../reporters/catalogue-doc.js')]);
  return formatCatalogueList(loadCatalogue());
}

export async function serveCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return (await import('./serve.js')).serveCommand(argv, env);
}

export async function judgeCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return (await import('./judge.js')).judgeCommand(argv, env);
}

export async function verifyCommand(argv: string[]): Promise<number> {
  return (await import('./verify.js')).verifyCommand(argv);
}
