// `animal-store-conformance serve`: the reference store and its quickstart service, for a
// client team to develop and test against, with any allowed variant or deliberate fault.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { nearestFlag } from '../harness/config/resolve.js';
import { ConfigError } from '../harness/config/values.js';
import { FAULTS, FAULT_NAMES, faultSpec, type FaultName } from '../reference/faults.js';
import { startReferenceServer, type ReferenceServer } from '../reference/server.js';
import type { RequestLog } from '../reference/options.js';
import { VARIANTS, VARIANT_NAMES, VARIANT_SPECS, type VariantName } from '../reference/variants.js';

const NAME = 'animal-store-conformance serve';
const DEFAULT_PORT = 8080;
const DEFAULT_QUICKSTART_PORT = 8081;

const SERVE_USAGE = [
  `Usage: ${NAME} [--port ${DEFAULT_PORT}] [--quickstart-port ${DEFAULT_QUICKSTART_PORT}] [--host 127.0.0.1] [--api-key KEY]`,
  '         [--variant NAME]... [--fault NAME]... [--prefill N]',
  `       ${NAME} --list`,
  '',
  'Serves the reference Animal Store (base address http://HOST:PORT/v1) and its quickstart',
  'message service (http://HOST:QUICKSTART-PORT) until Ctrl-C, logging one line per request.',
  '',
  "  --port N              the store's port (0: any free port)",
  "  --quickstart-port N   the quickstart service's port (0: any free port)",
  '  --host ADDRESS        where both listen (0.0.0.0 for every interface, e.g. in a container)',
  '  --api-key KEY         the key both accept (also API_KEY); unset: a random key, printed',
  '  --variant NAME        an allowed reading of the description (repeatable); --list shows them',
  '  --fault NAME          a deliberate violation (repeatable); --list shows them',
  '  --prefill N           animals in the store from the start, spread over every status',
  '  --list                list the variants and faults with what each does',
].join('\n');

function port(name: string, value: string | undefined, fallback: number) {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new ConfigError(`--${name} must be a port from 0 to 65535, got ${value}`);
  return Number(value);
}

function names<T extends string>(kind: string, given: string[], known: readonly T[]) {
  for (const name of given) {
    if (known.includes(name as T)) continue;
    const near = nearestFlag(name, [...known]);
    throw new ConfigError(`unknown ${kind} ${name}${near ? `: did you mean ${near}?` : ''} (--list shows them)`);
  }
  return [...new Set(given)] as T[];
}

function serveList() {
  const width = Math.max(...[...VARIANT_NAMES, ...FAULT_NAMES].map((n) => n.length)) + 2;
  const variant = (name: VariantName) => {
    const spec = VARIANT_SPECS[name];
    const notes = [
      spec?.shouldFail && `fails the SHOULD ${spec.shouldFail.join(', ')}`,
      spec?.apiKey && 'serves a key of its own format',
      spec?.now && `certify with --now ${spec.now}`,
    ].filter(Boolean);
    return `  ${name.padEnd(width)}${VARIANTS[name]}${notes.length ? ` [${notes.join('; ')}]` : ''}`;
  };
  const fault = (name: FaultName) => `  ${name.padEnd(width)}${FAULTS[name].breaks} [fails ${faultSpec(name).expect.join(', ')}]`;
  return [
    `Allowed variants (${VARIANT_NAMES.length}): readings the description leaves open; the suite certifies each compliant. --variant NAME`,
    ...VARIANT_NAMES.map(variant),
    '',
    `Faults (${FAULT_NAMES.length}): each breaks one documented behaviour; the suite certifies each non-compliant (one that breaks only a SHOULD, with --strict). --fault NAME`,
    ...FAULT_NAMES.map(fault),
  ].join('\n');
}

/** A log line never shows any 8 characters of the key (all of a shorter one), as sent or URL-decoded. */
function scrubber(key: string): (text: string) => string {
  const size = Math.min(8, key.length);
  const windows = new Set(Array.from({ length: key.length - size + 1 }, (_, i) => key.slice(i, i + size)));
  const holds = (text: string) => {
    let decoded = text;
    try {
      decoded = decodeURIComponent(text);
    } catch {
      // not URL-encoded
    }
    return [...windows].some((w) => text.includes(w) || decoded.includes(w));
  };
  return (part) => (holds(part) ? '***' : part);
}

/** "GET /v1/pets?limit=5 200 1.2 ms", each path segment and query value that holds part of the key as ***. */
function requestLine(entry: RequestLog, scrub: (text: string) => string) {
  const [path, query] = entry.url.split(/\?(.*)/s, 2);
  const shownPath = path.split('/').map(scrub).join('/');
  const scrubPair = (pair: string) => pair.split(/=(.*)/s, 2).map(scrub).join('=');
  const shownQuery = query === undefined ? '' : `?${query.split('&').map(scrubPair).join('&')}`;
  const answer = entry.status === 0 ? 'no answer' : String(entry.status);
  const time = new Date().toISOString().slice(11, 23);
  return `${time} ${entry.service.padEnd(10)} ${entry.method} ${shownPath}${shownQuery} ${answer} ${entry.ms.toFixed(1)} ms`;
}

async function startServing(argv: string[], env: NodeJS.ProcessEnv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        'quickstart-port': { type: 'string' },
        host: { type: 'string' },
        'api-key': { type: 'string' },
        variant: { type: 'string', multiple: true },
        fault: { type: 'string', multiple: true },
        prefill: { type: 'string' },
      },
    });
  } catch (err) {
    throw new ConfigError((err as Error).message.split('\n')[0]);
  }
  const v = parsed.values;
  const variants = names('variant', v.variant ?? [], VARIANT_NAMES);
  const faults = names('fault', v.fault ?? [], FAULT_NAMES);
  if (v.prefill !== undefined && !/^\d+$/.test(v.prefill)) throw new ConfigError(`--prefill must be a number of animals, got ${v.prefill}`);
  // what a fault needs to show at all comes with it: the animals it must find, the variants it builds on
  const specs = faults.map(faultSpec);
  const allVariants = [...new Set([...variants, ...specs.flatMap((s) => s.variants ?? [])])];
  const prefill = Math.max(Number(v.prefill ?? 0), ...specs.map((s) => s.prefill ?? 0));
  // a key-format variant accepts keys of its format only: it serves its own
  const formatKeys = [...new Set(allVariants.flatMap((name) => VARIANT_SPECS[name]?.apiKey ?? []))];
  if (formatKeys.length > 1)
    throw new ConfigError(`${allVariants.filter((n) => VARIANT_SPECS[n]?.apiKey).join(' and ')} each serve a key of their own format: choose one`);
  const given = v['api-key'] ?? env.API_KEY;
  if (given === '') throw new ConfigError('the API key is set but empty: give it a value, or leave it out for a random one');
  if (formatKeys.length && given !== undefined && given !== formatKeys[0]) {
    throw new ConfigError(`a key-format variant serves its own key: leave out --api-key (and API_KEY)`);
  }
  const apiKey = formatKeys[0] ?? given ?? randomBytes(18).toString('base64url');
  const scrub = scrubber(apiKey);
  let server: ReferenceServer;
  try {
    server = await startReferenceServer({
      apiKey,
      variants: allVariants,
      faults,
      prefill,
      listen: {
        host: v.host ?? '127.0.0.1',
        port: port('port', v.port, DEFAULT_PORT),
        quickstartPort: port('quickstart-port', v['quickstart-port'], DEFAULT_QUICKSTART_PORT),
      },
      onRequest: (entry) => process.stdout.write(`${requestLine(entry, scrub)}\n`),
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') throw new ConfigError(`a port is in use (${e.message}): give another, or 0 for any free port`);
    if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND') throw new ConfigError(`cannot listen on ${v.host}: ${e.code}`);
    throw err;
  }

  // the key is printed only when serve made it up: a key someone gave stays theirs
  const shownKey = given === undefined ? apiKey : '$API_KEY';
  const keyLine =
    given === undefined
      ? `${apiKey} (${formatKeys.length ? 'the key its variant serves' : 'random; --api-key KEY to choose one'})`
      : 'the one given (not shown)';
  const now = allVariants.map((n) => VARIANT_SPECS[n]?.now).find(Boolean);
  const seed = specs.map((s) => s.seed).find((s) => s !== undefined);
  const latency = specs.map((s) => s.maxLatencyMs).find((m) => m !== undefined);
  const extra = [now && `--now ${now}`, seed !== undefined && `--seed ${seed}`, latency !== undefined && `--max-latency-ms ${latency}`].filter(Boolean);
  const switches = [variants.length ? `variants: ${variants.join(', ')}` : '', faults.length ? `faults: ${faults.join(', ')}` : ''].filter(Boolean).join('; ');
  const banner = [
    `Animal Store reference server${switches ? ` (${switches})` : ': the store as the API description has it'}`,
    `  store        ${server.baseUrl}`,
    `  quickstart   ${server.quickstartBaseUrl}`,
    `  API key      ${keyLine}`,
    ...(prefill ? [`  animals      ${prefill} from the start`] : []),
    '',
    'Certify it:',
    `  BASE_URL=${server.baseUrl} QUICKSTART_BASE_URL=${server.quickstartBaseUrl} API_KEY=${shownKey} npm run conformance${extra.length ? ` -- ${extra.join(' ')}` : ''}`,
    'Call it:',
    `  curl -H "Authorization: Bearer ${shownKey}" ${server.baseUrl}/pets`,
    '',
    'One line per request (time, service, method, path, status, duration); Ctrl-C stops it.',
  ];
  console.log(banner.join('\n'));
  return server;
}

export async function serveCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(SERVE_USAGE);
    return 0;
  }
  if (argv.includes('--list')) {
    console.log(serveList());
    return 0;
  }
  let server;
  try {
    server = await startServing(argv, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`${NAME}: ${err.message} (see --help)`);
    return 2;
  }
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  await server.close();
  console.log(`${signal}: stopped`);
  return 0;
}
