// Each secret, and the forms a server echoing a header back might give it, replaced by a label.
export interface Secret {
  value: string;
  label: string;
}

/** A short key replaced anywhere would mangle every number in the output. */
const SHORT_SECRET = 12;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class Redactor {
  private readonly forms: Array<[string, string]> = [];
  private pairs: Array<[RegExp, string]> = [];
  /** A text it does not match is not scanned for each secret. */
  private any: RegExp = /(?!)/;

  constructor(secrets: Secret[]) {
    this.add(secrets);
  }

  /** It only grows: a text redacted at one size need not be redacted again. */
  get size(): number {
    return this.forms.length;
  }

  /** A text cut this far beyond a point holds every secret that starts before it. */
  get longest(): number {
    return this.forms[0]?.[0].length ?? 0;
  }

  add(secrets: Secret[]): void {
    for (const { value, label } of secrets) {
      if (!value) continue;
      const variants = [
        value,
        encodeURIComponent(value),
        Buffer.from(value).toString('base64'),
        JSON.stringify(value).slice(1, -1),
        value.replace(/\//g, '\\/'),
      ];
      for (const form of new Set(variants)) if (!this.forms.some(([f]) => f === form)) this.forms.push([form, label]);
    }
    this.forms.sort((a, b) => b[0].length - a[0].length); // longest first, so no secret is half-replaced
    const patterns = this.forms.map(([form]) => (form.length < SHORT_SECRET ? `(?<![A-Za-z0-9])${escapeRegExp(form)}(?![A-Za-z0-9])` : escapeRegExp(form)));
    this.pairs = this.forms.map(([, label], i) => [new RegExp(patterns[i], 'g'), label]);
    this.any = patterns.length ? new RegExp(patterns.map((p) => `(?:${p})`).join('|')) : /(?!)/;
  }

  redact(text: string, labelFor: (label: string) => string = (l) => l): string {
    if (!this.any.test(text)) return text;
    let out = text;
    for (const [pattern, label] of this.pairs) out = out.replace(pattern, () => labelFor(label));
    return out;
  }

  /** For curl lines: a shell variable expanded inside single quotes. */
  redactShell(text: string): string {
    return this.redact(text, (label) => `'"${label}"'`);
  }
}
