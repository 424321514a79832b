// The built CLI (dist/, made by npm test's pretest build) run as a user runs it: an
// environment built from scratch (no inherited target settings) and a working
// directory without .env.
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../harness/model/paths.js';

export const BIN = join(PACKAGE_ROOT, 'dist/cli/main.js');

export interface BinRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** From spawning the process to its exit. */
  wallMs: number;
}

export interface BinOptions {
  cwd?: string;
  /** The process is killed (SIGKILL) when it has not ended after this long. */
  killAfterMs?: number;
  /** Called with the process and the stderr so far, at each chunk of stderr (to signal it mid-run). */
  onStderr?: (child: ChildProcess, stderr: string) => void;
}

export function runBin(args: string[], env: Record<string, string> = {}, options: BinOptions = {}): Promise<BinRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, cwd: options.cwd ?? tmpdir() });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
    options.onStderr?.(child, stderr);
  });
  const killer = options.killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), options.killAfterMs);
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr, wallMs: performance.now() - started });
    }),
  );
}
