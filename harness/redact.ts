// Keeps secrets out of every output: each secret (and its URL- and base64-encoded
// forms, in case a server echoes a header back) is replaced by a label.
export interface Secret { value: string; label: string }

export class Redactor {
  private readonly pairs: Array<[string, string]> = [];

  constructor(secrets: Secret[]) {
    for (const { value, label } of secrets) {
      if (!value) continue;
      for (const form of new Set([value, encodeURIComponent(value), Buffer.from(value).toString('base64')])) {
        this.pairs.push([form, label]);
      }
    }
    this.pairs.sort((a, b) => b[0].length - a[0].length); // longest first, so no secret is half-replaced
  }

  redact(text: string, labelFor: (label: string) => string = (l) => l): string {
    let out = text;
    for (const [form, label] of this.pairs) out = out.split(form).join(labelFor(label));
    return out;
  }

  /** For curl lines: the label becomes a shell variable expanded inside single quotes. */
  redactShell(text: string): string {
    return this.redact(text, (label) => `'"${label}"'`);
  }
}
