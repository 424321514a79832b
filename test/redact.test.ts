// No key reaches any output: every form a server may echo it in is redacted.
import { execFileSync } from 'node:child_process';
import { createHmac, randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../harness/http/redact.js';
import { Exchange, MAX_EVIDENCE_BODY_CHARS, curlCommand } from '../harness/http/exchange.js';
import { keyFormat, nearMiss, nearMisses, randomKeyLike, secretsOf } from '../harness/api/credentials.js';
import { loadSpecs } from '../harness/api/spec.js';
import { parseCommandLine, resolveConfig } from '../harness/config/resolve.js';
import { Session, sessionOptionsFor } from '../harness/run/session.js';
import { API_KEY, certifyReference } from './support/run.js';

/** An HS256 JWT whose signature's last base64url character carries 2 unused bits. */
const JWT = jwtWithUnusedBits();

function jwtWithUnusedBits(): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  for (let i = 0; ; i++) {
    const unsigned = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: `conformance-${i}` })}`;
    const token = `${unsigned}.${createHmac('sha256', 'secret').update(unsigned).digest('base64url')}`;
    // the last character's two low bits are unused: a different last character may decode the same
    if ('AEIMQUYcgkosw048'.includes(token.slice(-1))) return token;
  }
}

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

  it('shows the near-miss key as a shell expansion that gives it back, changing a character that carries bits (not padding)', () => {
    const bad = nearMiss(key, '$API_KEY');
    expect(bad.value).toBe('Zm9v/YmFy+cXW4==');
    expect(redactor.redactShell(`-H 'authorization: Bearer ${bad.value}'`)).toBe(`-H 'authorization: Bearer '"\${API_KEY:0:12}W\${API_KEY:13}"''`);
  });

  it('keeps the near-miss key of the same form: a digit for a digit, a letter for a letter, a hex digit in a hex key', () => {
    expect(nearMiss('sk_live_8f3a9c1d2e4b', '$API_KEY')).toEqual({ value: 'sk_live_8f3a9c1d2e5b', label: '${API_KEY:0:18}5${API_KEY:19}' });
    expect(nearMiss('key-129', '$API_KEY').value).toBe('key-139');
    expect(nearMiss('KEYZ', '$QUICKSTART_API_KEY')).toEqual({ value: 'KEZZ', label: '${QUICKSTART_API_KEY:0:2}Z${QUICKSTART_API_KEY:3}' });
    // hex and UUID keys: the last digit, still a hex digit (f wraps to a)
    expect(nearMiss('00ff', '$API_KEY')).toEqual({ value: '00fa', label: '${API_KEY%?}a' });
    expect(nearMiss('123e4567-e89b-12d3-a456-42661417400f', '$API_KEY').value).toBe('123e4567-e89b-12d3-a456-42661417400a');
  });

  it('replaces a short key only where it stands alone', () => {
    const short = new Redactor([{ value: 'k3y', label: '$API_KEY' }]);
    expect(short.redact('Bearer k3y; sk3yline 200')).toBe('Bearer $API_KEY; sk3yline 200');
  });
});

describe("an exchange's record", () => {
  it('is redacted once, and again once the redactor hides a secret more (a credential the run made later)', () => {
    const redactor = new Redactor([{ value: 'first-secret-value', label: '$API_KEY' }]);
    const ex = new Exchange(
      { method: 'POST', url: 'http://127.0.0.1:1/v1/pets', headers: { authorization: 'Bearer first-secret-value' }, body: '{"name":"later-secret-value"}' },
      redactor,
    );
    ex.status = 201;
    ex.text = '{"echo":"later-secret-value"}';
    const first = ex.transcribed();
    expect(first.request.headers.authorization).toBe('Bearer $API_KEY');
    expect(ex.transcribed()).toBe(first);
    redactor.add([{ value: 'later-secret-value', label: '$OTHER' }]);
    const again = ex.record();
    expect(JSON.stringify(again)).not.toContain('later-secret-value');
    expect(again.response?.body).toBe('{"echo":"$OTHER"}');
    expect(again.curl).toContain('$OTHER');
  });

  // only the part shown and the longest secret beyond it are redacted: a body may be megabytes
  it.each([-30, -10, -1, 0, 1, 10])('never shows part of a secret at the cut of a long body (the secret %i characters from it)', (offset) => {
    const secret = 'a-long-secret-value-of-thirty-chars'.slice(0, 30);
    const redactor = new Redactor([{ value: secret, label: '$K' }]);
    const ex = new Exchange({ method: 'GET', url: 'http://127.0.0.1:1/v1/pets' }, redactor);
    ex.status = 200;
    ex.text = `${'x'.repeat(MAX_EVIDENCE_BODY_CHARS + offset)}${secret}${'y'.repeat(1_000_000)}`;
    const { body, truncated } = ex.record().response!;
    expect(truncated).toBe(true);
    expect(body.length).toBeLessThanOrEqual(MAX_EVIDENCE_BODY_CHARS);
    for (let n = 4; n <= secret.length; n++) expect(body.endsWith(secret.slice(0, n)), `${n} characters of it`).toBe(false);
    if (offset <= -secret.length) expect(body).toContain('$K');
  });
});

describe('the near-miss key family', () => {
  it('derives each variant from the key, labelled by the bash expression that gives it back', () => {
    expect(nearMisses('sk_live_8f3a9c1d2e4b', '$API_KEY').map(({ kind, value, label }) => [kind, value, label])).toEqual([
      ['changed', 'sk_live_8f3a9c1d2e5b', '${API_KEY:0:18}5${API_KEY:19}'],
      ['extended', 'sk_live_8f3a9c1d2e4bcc', '${API_KEY}cc'],
      ['shortened', 'sk_live_8f3a9c1d2e', '${API_KEY%??}'],
      ['case-changed', 'SK_LIVE_8F3A9C1D2E4B', '${API_KEY^^}'],
      ['prefixed', 'tsk_live_8f3a9c1d2e4b', 't${API_KEY}'],
      ['second-word', 'sk_live_8f3a9c1d2e4b sk_live_8f3a9c1d2e4b', '${API_KEY} ${API_KEY}'],
    ]);
  });

  it('lower-cases a key that is all upper case, and leaves the case alone where the key has no letters', () => {
    expect(nearMisses('KEY-42', '$QUICKSTART_API_KEY').find((v) => v.kind === 'case-changed')).toMatchObject({
      value: 'key-42',
      label: '${QUICKSTART_API_KEY,,}',
    });
    const digits = nearMisses('1234567890', '$API_KEY');
    expect(digits.map((v) => v.kind)).toEqual(['changed', 'extended', 'shortened', 'prefixed']);
    expect(new Set(digits.map((v) => v.value)).size).toBe(digits.length);
  });

  it('puts characters in and out before the padding of a base64 key, and sends it no second word', () => {
    expect(nearMisses('Zm9v/YmFy+cXV4==', '$API_KEY').map(({ kind, value, label }) => [kind, value, label])).toEqual([
      ['changed', 'Zm9v/YmFy+cXW4==', '${API_KEY:0:12}W${API_KEY:13}'],
      ['extended', 'Zm9v/YmFy+cXV455==', '${API_KEY:0:14}55${API_KEY:14}'],
      ['shortened', 'Zm9v/YmFy+cX==', '${API_KEY:0:12}${API_KEY:14}'],
      ['case-changed', 'ZM9V/YMFY+CXV4==', '${API_KEY^^}'],
      ['prefixed', 'AZm9v/YmFy+cXV4==', 'A${API_KEY}'],
    ]);
  });

  // every near-miss of a key a server decodes (base64 or base64url, padded or not, of
  // every length modulo 4; hex of even length) decodes to other bytes than the key, with
  // the lenient decoders that drop a trailing partial byte and stop at padding
  it.each(['Zm9vYmFy', 'Zm9vYmE', 'Zm9vYg', 'Zm9vYmFyYg==', 'Zm9vYmE=', 'q83vASNFZ4mrze8BI0VniQ', 'q83vASNFZ4mrze8BI0VniQ==', 'deadbeef0042'])(
    'changes what %s decodes to, in every variant',
    (key) => {
      const encoding = keyFormat(key) === 'hex' ? 'hex' : 'base64';
      const bytes = (token: string) => Buffer.from(token, encoding);
      for (const v of nearMisses(key, '$API_KEY')) expect(bytes(v.value).equals(bytes(key)), `${v.kind}: ${v.value}`).toBe(false);
    },
  );

  it('reads the key format: a JWT, a UUID, hex, or text', () => {
    expect(keyFormat(JWT)).toBe('jwt');
    expect(keyFormat('123e4567-e89b-12d3-a456-426614174000')).toBe('uuid');
    expect(keyFormat('DEADbeef0042')).toBe('hex');
    expect(keyFormat('sk_live_8f3a9c1d2e4b')).toBe('text');
  });

  it('sends no case change where case names nothing: a UUID or hex key compared as its value', () => {
    for (const key of ['123e4567-e89b-12d3-a456-426614174000', 'deadbeef0042']) {
      expect(nearMisses(key, '$API_KEY').map((v) => v.kind)).toEqual(['changed', 'extended', 'shortened', 'prefixed']);
    }
  });

  // a decoder that drops the unused bits of the last base64url character reads the
  // same bytes for every near-miss that is not the key: none of them decodes to the signature
  it('changes what a JWT signature decodes to, in every variant', () => {
    const signature = (token: string) => Buffer.from(token.split('.')[2] ?? '', 'base64url');
    const valid = signature(JWT);
    for (const v of nearMisses(JWT, '$API_KEY')) {
      const parts = v.value.split('.');
      const same = parts.length === 3 && parts[0] === JWT.split('.')[0] && parts[1] === JWT.split('.')[1] && signature(v.value).equals(valid);
      expect(same, v.kind).toBe(false);
    }
    // the old derivation, the last character changed, decodes to the very signature
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const lastChanged = JWT.slice(0, -1) + alphabet[alphabet.indexOf(JWT.slice(-1)) + 1];
    expect(signature(lastChanged).equals(valid)).toBe(true);
  });

  const keys = ['Zm9v/YmFy+cXV4==', 'sk_live_8f3a9c1d2e4b', 'k3y', 'ABCDEFGHIJKLMNOP1234', JWT, '123e4567-e89b-12d3-a456-426614174000'];

  it.each(keys)('no variant of %s leaks in any form a server may echo', async (key) => {
    // the redactor of a session: the key, then every credential it makes from it (Session.credentials)
    const config = resolveConfig(parseCommandLine(['--key-variants']), { BASE_URL: 'http://127.0.0.1:9/v1', API_KEY: key }, '/nonexistent');
    const session = new Session(sessionOptionsFor(config, { environment: 'production', baseUrl: config.baseUrl!, apiKey: key }), loadSpecs());
    const secrets = secretsOf(session.credentials('store'));
    await session.close();
    expect(secrets.length).toBeGreaterThanOrEqual(nearMisses(key, '$API_KEY').length);
    const { redactor } = session;
    for (const v of secrets.map((s) => ({ ...s, kind: s.label }))) {
      const forms = [
        v.value,
        encodeURIComponent(v.value),
        Buffer.from(v.value).toString('base64'),
        JSON.stringify(v.value).slice(1, -1),
        JSON.stringify({ auth: `Bearer ${v.value}` }).replace(/\//g, '\\/'),
      ];
      for (const form of forms) {
        const out = redactor.redact(`echo: ${form} .`);
        expect(out, `${v.kind} as ${form}`).not.toContain(form);
        expect(out, `${v.kind} as ${form}`).not.toContain(key);
      }
    }
  });

  it('curl lines reproduce every variant: bash expands the redacted header to the value sent', () => {
    const key = 'Zm9v/YmFy+cXV4==';
    const qsKey = JWT;
    const redactor = new Redactor([
      { value: key, label: '$API_KEY' },
      { value: qsKey, label: '$QUICKSTART_API_KEY' },
      ...nearMisses(key, '$API_KEY'),
      ...nearMisses(qsKey, '$QUICKSTART_API_KEY'),
    ]);
    const sent = [...nearMisses(key, '$API_KEY'), ...nearMisses(qsKey, '$QUICKSTART_API_KEY')].map((v) => `Bearer ${v.value}`);
    const lines = sent.map((header) =>
      redactor.redactShell(curlCommand({ method: 'GET', url: 'http://localhost/v1/pets', headers: { authorization: header } })),
    );
    for (const line of lines) {
      expect(line).not.toContain(key);
      expect(line).not.toContain(qsKey);
    }
    // curl is replaced by a function that prints its authorization argument
    const script = `curl() { while [ $# -gt 0 ]; do [ "$1" = -H ] && printf '%s\\n' "$2"; shift; done; }\n${lines.join('\n')}`;
    const out = execFileSync('bash', ['--norc', '--noprofile', '-c', script], { env: { API_KEY: key, QUICKSTART_API_KEY: qsKey }, encoding: 'utf8' });
    expect(out.split('\n').slice(0, -1)).toEqual(sent.map((h) => `authorization: ${h}`));
  });
});

describe('a whole run', () => {
  it('shows every near-miss key it sent as its shell expression, and none of their values', async () => {
    const report = await certifyReference({ faults: ['key-prefix-accepted'] });
    const text = JSON.stringify(report);
    const family = nearMisses(API_KEY, '$API_KEY');
    for (const v of family) {
      expect(text).not.toContain(v.value);
      expect(text).toContain(`Bearer '\\"${v.label}\\"'`); // in a curl line (JSON-escaped)
    }
    expect(text).not.toContain(API_KEY);
    const failed = report.requirements.find((r) => r.id === 'AUTH-INVALID-KEY');
    expect(failed?.outcome).toBe('failed');
    expect(failed?.message).toContain('an invalid bearer key (the key with two more characters)');
  });
});

describe("a random key of the key's format", () => {
  it('keeps the format and length, and shares no letter or digit with the key at any place', () => {
    const keys = ['sk_live_8f3a9c1d2e4b', JWT, '123e4567-e89b-12d3-a456-42661417400f', '00FF00ff', 'Zm9v/YmFy+cXV4==', 'KEY-42'];
    for (const key of keys) {
      for (let i = 0; i < 20; i++) {
        const random = randomKeyLike(key, randomInt);
        expect(random).toHaveLength(key.length);
        expect(keyFormat(random), `${key} -> ${random}`).toBe(keyFormat(key));
        for (let at = 0; at < key.length; at++) if (/[A-Za-z0-9]/.test(key[at])) expect(random[at], `${key} -> ${random}`).not.toBe(key[at]);
        // the separators of the format stay where they were
        expect(random.replace(/[A-Za-z0-9]/g, '')).toBe(key.replace(/[A-Za-z0-9]/g, ''));
      }
    }
  });
});
