// The reference server in a process of its own, for the benchmark's external cases (a
// certify run against a server on loopback that does not share the run's CPU time):
//
//   node dist/bench/reference.js
//
// prints one line of JSON ({"baseUrl", "quickstartBaseUrl", "apiKey"}) when it listens,
// and serves until its standard input closes (the benchmark ends it so) or SIGTERM.
import { randomBytes } from 'node:crypto';
import { startReferenceServer } from '../reference/server.js';

const apiKey = randomBytes(18).toString('base64url');
const server = await startReferenceServer({ apiKey });
process.stdout.write(`${JSON.stringify({ baseUrl: server.baseUrl, quickstartBaseUrl: server.quickstartBaseUrl, apiKey })}\n`);
const stop = () => void server.close().then(() => process.exit(0));
process.stdin.on('end', stop).resume();
process.on('SIGTERM', stop);
