// No key reaches any output: every form a server may echo it in is redacted.
import { describe, expect, it } from 'vitest';
import { Redactor, nearMiss } from '../harness/redact.js';

describe('redaction', () => {
  const key = 'Zm9v/YmFy+cXV4==';
  const redactor = new Redactor([{ value: key, label: '$API_KEY' }, nearMiss(key, '$API_KEY')]);

  it.each([
    ['as sent', `Bearer ${key}`],
    ['URL-encoded', `token=${encodeURIComponent(key)}`],
    ['base64', Buffer.from(key).toString('base64')],
    ['JSON with / escaped', JSON.stringify({ auth: key }).replace(/\//g, '\\/')],
  ])('removes the key %s', (_form, text) => {
    expect(redactor.redact(text)).not.toContain('YmFy');
    expect(redactor.redact(text)).toContain('$API_KEY');
  });

  it('shows the near-miss key as a shell expansion that gives it back', () => {
    const bad = nearMiss(key, '$API_KEY');
    expect(bad.value).toBe('Zm9v/YmFy+cXV4=X');
    expect(redactor.redactShell(`-H 'authorization: Bearer ${bad.value}'`)).toBe(`-H 'authorization: Bearer '"\${API_KEY%?}X"''`);
  });

  it('replaces a short key only where it stands alone', () => {
    const short = new Redactor([{ value: 'k3y', label: '$API_KEY' }]);
    expect(short.redact('Bearer k3y; sk3yline 200')).toBe('Bearer $API_KEY; sk3yline 200');
  });
});
