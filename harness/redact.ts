// Keeps secrets out of every output: each secret, and the forms a server echoing a
// header back might give it (URL-encoded, base64, JSON-escaped), is replaced by a label.
export interface Secret { value: string; label: string }

/**
 * A key that is not valid but looks it: the key with its last character changed to
 * another of the same kind (digit, lower- or upper-case letter), so a server that
 * checks only the form of a key accepts it and one that checks the key refuses it.
 * Printed as ${VAR%?}c, which a shell expands to the same value.
 */
export function nearMiss(key: string, variable: string): Secret {
  const last = key.slice(-1);
  const next = (from: string, size: number) => String.fromCharCode(from.charCodeAt(0) + ((last.charCodeAt(0) - from.charCodeAt(0) + 1) % size));
  const changed = /[0-9]/.test(last) ? next('0', 10) : /[a-z]/.test(last) ? next('a', 26) : /[A-Z]/.test(last) ? next('A', 26) : 'X';
  return { value: key.slice(0, -1) + changed, label: `\${${variable.slice(1)}%?}${changed}` };
}

/** Below this length a secret is replaced only where it stands alone, so that a short key does not mangle every number in the output. */
const SHORT_SECRET = 12;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class Redactor {
  private readonly pairs: Array<[RegExp, string]> = [];

  constructor(secrets: Secret[]) {
    const forms: Array<[string, string]> = [];
    for (const { value, label } of secrets) {
      if (!value) continue;
      // as sent, and as a server might echo it: URL-encoded, base64, JSON-escaped, with / escaped
      const variants = [value, encodeURIComponent(value), Buffer.from(value).toString('base64'),
        JSON.stringify(value).slice(1, -1), value.replace(/\//g, '\\/')];
      for (const form of new Set(variants)) forms.push([form, label]);
    }
    forms.sort((a, b) => b[0].length - a[0].length); // longest first, so no secret is half-replaced
    for (const [form, label] of forms) {
      const pattern = form.length < SHORT_SECRET ? `(?<![A-Za-z0-9])${escapeRegExp(form)}(?![A-Za-z0-9])` : escapeRegExp(form);
      this.pairs.push([new RegExp(pattern, 'g'), label]);
    }
  }

  redact(text: string, labelFor: (label: string) => string = (l) => l): string {
    let out = text;
    for (const [pattern, label] of this.pairs) out = out.replace(pattern, () => labelFor(label));
    return out;
  }

  /** For curl lines: the label becomes a shell variable expanded inside single quotes. */
  redactShell(text: string): string {
    return this.redact(text, (label) => `'"${label}"'`);
  }
}
