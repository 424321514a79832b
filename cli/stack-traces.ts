// Stack traces that name the TypeScript sources, for the CLI's bundle (build/bundle.ts):
// a frame in one of its files that has a source map beside it (the project's code; the
// packages' have none) is mapped, and each map is read and parsed the first time a stack
// shows a frame of its file. Not Node's own source maps (--enable-source-maps,
// process.setSourceMapsEnabled): those read the map of every module as it loads, and parse
// one whenever any error's stack is formatted (a stream destroyed by an error formats its
// stack: undici's, mid-run), and they do not map scripts run through vm (bundle-loader.ts).
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, isAbsolute, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Lines the loader put before a script's own (its wrapper), by file. */
export const scriptLineOffsets = new Map<string, number>();

const DIST = `${sep}dist${sep}`;
const maps = new Map<string, SourceMap | undefined>();

function mapOf(file: string): SourceMap | undefined {
  if (!maps.has(file)) {
    const path = `${file}.map`;
    maps.set(file, existsSync(path) ? new SourceMap(JSON.parse(readFileSync(path, 'utf8'))) : undefined);
  }
  return maps.get(file);
}

/** One frame as V8 prints it, its place in the bundle replaced by the place in the sources when there is one. */
function frameText(frame: NodeJS.CallSite): string {
  const text = String(frame);
  try {
    const name = frame.getFileName();
    const line = frame.getLineNumber();
    const column = frame.getColumnNumber();
    if (!name || line === null || column === null) return text;
    const file = name.startsWith('file:') ? fileURLToPath(name) : name;
    if (!file.includes(DIST)) return text;
    const map = mapOf(file);
    const entry = map?.findEntry(line - 1 - (scriptLineOffsets.get(file) ?? 0), column - 1) as
      { originalSource?: string; originalLine?: number; originalColumn?: number } | undefined;
    if (!entry?.originalSource || entry.originalLine === undefined || entry.originalColumn === undefined) return text;
    const source = entry.originalSource.startsWith('file:')
      ? fileURLToPath(entry.originalSource)
      : isAbsolute(entry.originalSource)
        ? entry.originalSource
        : resolve(dirname(file), entry.originalSource);
    return text.replace(`${name}:${line}:${column}`, `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`);
  } catch {
    return text;
  }
}

/**
 * undici's own errors (code UND_ERR_*) are never shown with their stack (the suite says
 * their code and message), and Node formats the stack of each one it destroys a socket
 * with, several at the end of every run: those are left as V8 formats them, so that no map
 * is parsed for them.
 */
const unshown = (error: unknown) => /^UND_ERR_/.test(String((error as { code?: unknown })?.code ?? ''));

/** From now on, every stack trace of the process is mapped so (V8's format otherwise). */
export function mapStackTraces(): void {
  Error.prepareStackTrace = (error: Error, frames: NodeJS.CallSite[]) => {
    let head: string;
    try {
      head = Error.prototype.toString.call(error);
    } catch {
      head = '<error>';
    }
    const lines = unshown(error) ? frames.map(String) : frames.map(frameText);
    return lines.length ? `${head}\n    at ${lines.join('\n    at ')}` : head;
  };
}
