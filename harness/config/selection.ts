import { readFileSync } from 'node:fs';
import { ConfigError } from './values.js';
import type { Requirement } from '../model/types.js';

/** An id, an id prefix ending in "-" (LIST-), an area or a level. */
function matches(r: Requirement, selector: string): boolean {
  const upper = selector.toUpperCase();
  return r.id === upper || r.level === upper || r.area === selector.toLowerCase() || (upper.endsWith('-') && r.id.startsWith(upper));
}

/** Throws ConfigError for a selector that matches nothing. */
export function selectRequirements(catalogue: Requirement[], only: string[], skip: string[]): Set<string> {
  for (const selector of [...only, ...skip]) {
    if (!catalogue.some((r) => matches(r, selector))) {
      throw new ConfigError(`"${selector}" matches no requirement (use an id, an id prefix such as LIST-, an area or MUST/SHOULD; --list shows them)`);
    }
  }
  return new Set(
    catalogue
      .filter((r) => only.length === 0 || only.some((s) => matches(r, s)))
      .filter((r) => !skip.some((s) => matches(r, s)))
      .map((r) => r.id),
  );
}

/** One "<ID> <reason>" per line, # starts a comment; throws ConfigError for an unreadable file or unknown id. */
export function readExpectedFailures(file: string, catalogue: Requirement[]): Map<string, string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read the expected-failures file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const expected = new Map<string, string>();
  text.split('\n').forEach((raw, index) => {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) return;
    const [id, ...reason] = line.split(/\s+/);
    if (!catalogue.some((r) => r.id === id)) throw new ConfigError(`${file}:${index + 1}: ${id} is not a requirement id`);
    expected.set(id, reason.join(' ') || '(no reason given)');
  });
  return expected;
}
