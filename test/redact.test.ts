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

  it('keeps the near-miss key of the same form: a digit for a digit, a letter for a letter', () => {
    expect(nearMiss('sk_live_8f3a9c1d2e4b', '$API_KEY')).toEqual({ value: 'sk_live_8f3a9c1d2e4c', label: '${API_KEY%?}c' });
    expect(nearMiss('key-129', '$API_KEY').value).toBe('key-120');
    expect(nearMiss('KEYZ', '$QUICKSTART_API_KEY')).toEqual({ value: 'KEYA', label: '${QUICKSTART_API_KEY%?}A' });
  });

  it('replaces a short key only where it stands alone', () => {
    const short = new Redactor([{ value: 'k3y', label: '$API_KEY' }]);
    expect(short.redact('Bearer k3y; sk3yline 200')).toBe('Bearer $API_KEY; sk3yline 200');
  });
});
