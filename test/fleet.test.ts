// A fleet of deployments on the engines operators already run: the GitHub Actions matrix
// (examples/github-actions-fleet.yml) evaluated per entry with GitHub's own expression
// library, the Kubernetes CronJobs (examples/kubernetes-fleet.yaml) validated against the
// Kubernetes schema (kubernetes-models: Kubernetes 1.33's, compiled into the package, no
// download) and their script run against a reference server with a fault and a stand-in
// Pushgateway, and the metrics of two deployments compared with their identity masked.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { CronJob } from 'kubernetes-models/batch/v1/CronJob';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { PACKAGE_ROOT } from '../harness/model/paths.js';
import { SETTINGS } from '../harness/config/settings.js';
import { parseCommandLine, resolveConfig } from '../harness/config/resolve.js';
import type { RunReport } from '../harness/model/types.js';
import { main } from '../cli/cli.js';
import { renderMetrics } from '../reporters/metrics.js';
import { startReferenceServer } from '../reference/server.js';
import { evaluateCondition, substitute } from './support/action-runner.js';
import { parsePrometheusText } from './support/prometheus.js';

const read = (path: string) => readFile(join(PACKAGE_ROOT, path), 'utf8');

describe('examples/github-actions-fleet.yml: one matrix job a deployment', async () => {
  const workflow = parse(await read('examples/github-actions-fleet.yml'));
  const inputs = Object.keys(parse(await read('action.yml')).inputs);
  const [job] = Object.values<any>(workflow.jobs);
  // an include-only matrix: each entry is one job (axes would need GitHub's cross product)
  const entries: Array<Record<string, string>> = job.strategy.matrix.include;
  const secretOf = (name: string) => `key-in-${name}`;

  /** The contexts of one matrix job: a scheduled run, with this deployment's previous report in the cache or none. */
  const contextsOf = (matrix: Record<string, string>, cacheHit = true) => ({
    matrix,
    secrets: Object.fromEntries(entries.map((e) => [e['api-key-secret'], secretOf(e['api-key-secret'])])),
    vars: { PUSHGATEWAY_URL: 'https://pushgateway.example' },
    github: { event_name: 'schedule', run_id: '4242', run_attempt: '1' },
    steps: { previous: { outputs: cacheHit ? { 'cache-matched-key': `health-baseline/${matrix.deployment}/4241-1` } : {} } },
  });
  /** The status functions after the check failed, its reports written (hashFiles finds this deployment's only). */
  const afterAFailure = (matrix: Record<string, string>) => ({
    always: () => true,
    success: () => false,
    failure: () => true,
    cancelled: () => false,
    hashFiles: (pattern: string) => (pattern.startsWith(`reports/${matrix.deployment}/`) ? 'a-hash' : ''),
  });

  /** Each step with its with:, env: and if: as that matrix job has them. */
  const stepsOf = (matrix: Record<string, string>, cacheHit = true) => {
    const contexts = contextsOf(matrix, cacheHit);
    const values = (block: Record<string, unknown> = {}) => Object.fromEntries(Object.entries(block).map(([k, v]) => [k, substitute(String(v), contexts)]));
    return job.steps.map((step: any) => ({
      uses: step.uses as string | undefined,
      name: step.name === undefined ? undefined : substitute(step.name, contexts),
      with: values(step.with),
      env: values(step.env),
      runsAfterAFailure: step.if === undefined ? false : evaluateCondition(step.if, contexts, afterAFailure(matrix)),
    }));
  };
  const step = (steps: ReturnType<typeof stepsOf>, uses: string) => steps.find((s: any) => s.uses === uses)!;

  it('runs every deployment to its end: fail-fast off, a concurrency group and a job name of its own', () => {
    expect(job.strategy['fail-fast']).toBe(false);
    expect(Object.keys(job.strategy.matrix)).toEqual(['include']);
    expect(entries.length).toBeGreaterThanOrEqual(2);
    // a group shared by the entries would queue them behind one another, and cancel-in-progress would stop them
    expect(new Set(entries.map((matrix) => substitute(job.concurrency.group, { matrix }))).size).toBe(entries.length);
    expect(job.concurrency['cancel-in-progress']).toBe(false);
    expect(new Set(entries.map((matrix) => substitute(job.name, { matrix }))).size).toBe(entries.length);
  });

  it("gives each deployment its own name, base address, key, report folder, baseline cache and artifact, through the action's own inputs", () => {
    const seen = { deployment: new Set(), secret: new Set(), reportDir: new Set(), artifact: new Set(), cacheKey: new Set() };
    for (const matrix of entries) {
      const steps = stepsOf(matrix);
      const check = step(steps, './');
      for (const name of Object.keys(check.with)) expect(inputs, name).toContain(name);
      expect(check.with).toMatchObject({
        deployment: matrix.deployment,
        'base-url': matrix['base-url'],
        'api-key': secretOf(matrix['api-key-secret']),
        profile: 'health',
        baseline: `baseline/${matrix.deployment}/compliance.json`,
      });
      // a valid DEPLOYMENT, and a base address the tool takes
      expect(SETTINGS.deployment.parse('DEPLOYMENT', check.with.deployment)).toBe(matrix.deployment);
      expect(check.with['base-url']).toMatch(/^https:\/\/[^/]+\/v1$/);
      // the secret's presence is checked first, by its name
      expect(steps[0].env).toEqual({ API_KEY: secretOf(matrix['api-key-secret']) });

      const restore = step(steps, 'actions/cache/restore@v4').with;
      const save = step(steps, 'actions/cache/save@v4').with;
      const upload = step(steps, 'actions/upload-artifact@v4').with;
      expect(restore.path).toBe(`baseline/${matrix.deployment}`);
      expect(save).toEqual({ path: restore.path, key: restore.key });
      expect(restore.key.startsWith(restore['restore-keys'])).toBe(true);
      expect(upload.path).toBe(`${check.with['report-dir']}/`);
      // a deployment's pushed metrics replace only its own group in the Pushgateway
      const push = steps.find((s: any) => s.env.PUSH_URL)!;
      expect(push.env.PUSH_URL).toBe(`https://pushgateway.example/metrics/job/animal-store-conformance/deployment/${matrix.deployment}`);

      seen.deployment.add(check.with.deployment);
      seen.secret.add(check.with['api-key']);
      seen.reportDir.add(check.with['report-dir']);
      seen.artifact.add(upload.name);
      seen.cacheKey.add(restore.key);
    }
    for (const [what, values] of Object.entries(seen)) expect(values.size, what).toBe(entries.length);
  });

  it("restores no other deployment's baseline, also where one name begins another's (eu, eu-west)", () => {
    const restoreOf = (deployment: string) => step(stepsOf({ ...entries[0], deployment }), 'actions/cache/restore@v4').with;
    for (const [a, b] of [
      ['eu', 'eu-west'],
      ['eu-west', 'eu'],
      ['eu', 'eu.west'],
      ['eu', 'eu_west'],
    ])
      expect(restoreOf(b).key.startsWith(restoreOf(a)['restore-keys']), `${a} restoring ${b}'s`).toBe(false);
    expect(restoreOf('eu').key.startsWith(restoreOf('eu')['restore-keys'])).toBe(true);
  });

  it('with no previous report, leaves the baseline unset', () => {
    expect(step(stepsOf(entries[0], false), './').with.baseline).toBe('(unset)');
  });

  it('after a failed check, still keeps the baseline, pushes the metrics and uploads the reports', () => {
    const steps = stepsOf(entries[0]);
    const after = steps.slice(steps.findIndex((s: any) => s.uses === './') + 1);
    expect(after.map((s: any) => [s.name ?? s.uses, s.runsAfterAFailure])).toEqual(after.map((s: any) => [s.name ?? s.uses, true]));
    expect(after.length).toBe(4);
  });

  it('holds no key: every key comes from a secret named by the matrix entry', async () => {
    const text = await read('examples/github-actions-fleet.yml');
    expect(text.match(/\$\{\{ secrets[^}]*\}\}/g)).toEqual(['${{ secrets[matrix.api-key-secret] }}', '${{ secrets[matrix.api-key-secret] }}']);
    const runs = job.steps.map((s: any) => s.run ?? '');
    expect(runs.filter((r: string) => /npm run conformance|dist\/cli\/main\.js/.test(r))).toEqual([]);
  });
});

/** A kubernetes-models class: its validate() checks `this` against the schema of its kind. */
type Model = { prototype: { validate(): void } };

// What kubectl's strict field validation refuses, and a JSON schema check alone lets
// through (the Kubernetes schema allows unknown fields): a field no schema reads.
function unknownFields(model: Model, document: object): string[] {
  // each object of the document: where it is, and the fields the validator read of it
  const objects = new Map<object, { path: string; read: Set<string> }>();
  const watch = (value: unknown, path: string): unknown => {
    if (value === null || typeof value !== 'object') return value;
    if (!objects.has(value)) objects.set(value, { path, read: new Set() });
    const { read } = objects.get(value)!;
    return new Proxy(value, {
      get: (target, key) => {
        const v = Reflect.get(target, key);
        if (typeof key !== 'string' || !Object.hasOwn(target, key)) return v;
        read.add(key);
        return watch(v, `${path}.${key}`);
      },
    });
  };
  model.prototype.validate.call(watch(document, ''));
  return [...objects].flatMap(([value, { path, read }]) =>
    Object.keys(value)
      .filter((key) => !read.has(key))
      .map((key) => `${path}.${key}`),
  );
}

describe('examples/kubernetes-fleet.yaml: one CronJob a deployment', async () => {
  const documents = parseAllDocuments(await read('examples/kubernetes-fleet.yaml')).map((d) => d.toJS());
  const MODELS: Record<string, Model> = { CronJob, ConfigMap, PersistentVolumeClaim };
  const cronJobs = documents.filter((d) => d.kind === 'CronJob');
  const byName = (kind: string, name: string) => documents.find((d) => d.kind === kind && d.metadata.name === name);

  it('validates against the Kubernetes schema, with no field the schema does not know', () => {
    expect(documents.map((d) => d.kind).sort()).toEqual(['ConfigMap', 'CronJob', 'CronJob', 'PersistentVolumeClaim', 'PersistentVolumeClaim']);
    for (const document of documents) {
      expect(() => MODELS[document.kind].prototype.validate.call(document), document.metadata.name).not.toThrow();
      expect(unknownFields(MODELS[document.kind], document), document.metadata.name).toEqual([]);
    }
  });

  it('the validator catches what it must: a wrong value, a missing field, a misspelt one', () => {
    const broken = (edit: (c: any) => void) => {
      const copy = structuredClone(cronJobs[0]);
      edit(copy);
      return copy;
    };
    expect(() => CronJob.prototype.validate.call(broken((c) => (c.spec.concurrencyPolicy = 'Never')))).toThrow(/concurrencyPolicy/);
    expect(() =>
      CronJob.prototype.validate.call(broken((c) => (c.spec.jobTemplate.spec.template.spec.containers[0].resources.limits.memory = '256 MB'))),
    ).toThrow(/memory/);
    expect(() => CronJob.prototype.validate.call(broken((c) => delete c.spec.schedule))).toThrow(/schedule/);
    const misspelt = broken((c) => {
      c.spec.concurencyPolicy = c.spec.concurrencyPolicy;
      delete c.spec.concurrencyPolicy;
    });
    expect(() => CronJob.prototype.validate.call(misspelt)).not.toThrow();
    expect(unknownFields(CronJob, misspelt)).toEqual(['.spec.concurencyPolicy']);
  });

  it('each CronJob: never two runs at once, no retry of a verdict, limits, a read-only root, its own reports volume and Secret', () => {
    expect(cronJobs.length).toBeGreaterThanOrEqual(2);
    const own = { deployment: new Set(), secret: new Set(), claim: new Set() };
    for (const cronJob of cronJobs) {
      const name = cronJob.metadata.name;
      expect(cronJob.spec.concurrencyPolicy, name).toBe('Forbid');
      const { spec: jobSpec } = cronJob.spec.jobTemplate;
      expect(jobSpec.backoffLimit, name).toBe(0);
      const pod = jobSpec.template.spec;
      expect(pod.restartPolicy).toBe('Never');
      expect(pod.containers).toHaveLength(1);
      const [container] = pod.containers;
      for (const kind of ['requests', 'limits']) expect(Object.keys(container.resources[kind]).sort(), `${name} ${kind}`).toEqual(['cpu', 'memory']);
      expect(container.securityContext.readOnlyRootFilesystem).toBe(true);

      // the key from a Secret only: no variable holds a key as a value, no Secret in the file
      const env = Object.fromEntries(container.env.map((e: any) => [e.name, e]));
      expect(env.API_KEY.value).toBeUndefined();
      expect(Object.keys(env.API_KEY.valueFrom)).toEqual(['secretKeyRef']);
      expect(container.env.filter((e: any) => /KEY/.test(e.name) && 'value' in e)).toEqual([]);

      // the reports on a claim of its own, at STATE_DIR (the last report is the next baseline)
      const mountAt = (path: string) => pod.volumes.find((v: any) => v.name === container.volumeMounts.find((m: any) => m.mountPath === path)?.name);
      const reports = mountAt(env.STATE_DIR.value);
      expect(byName('PersistentVolumeClaim', reports.persistentVolumeClaim.claimName), name).toBeDefined();
      // the command and the settings file: the ConfigMap's, mounted read-only
      expect(container.command).toEqual(['bash', '/etc/animal-store/check.sh']);
      expect(container.volumeMounts.find((m: any) => m.mountPath === '/etc/animal-store').readOnly).toBe(true);
      expect(byName('ConfigMap', mountAt('/etc/animal-store').configMap.name).data).toHaveProperty('check.sh');

      own.deployment.add(env.DEPLOYMENT.value);
      own.secret.add(env.API_KEY.valueFrom.secretKeyRef.name);
      own.claim.add(reports.persistentVolumeClaim.claimName);
    }
    for (const [what, values] of Object.entries(own)) expect(values.size, what).toBe(cronJobs.length);
  });

  it('the settings each CronJob hands the tool are valid: the health profile, its deployment, base address and key', async () => {
    const { data } = documents.find((d) => d.kind === 'ConfigMap');
    // check.sh runs the cron script with the mounted settings file, which sets the profile and the report folder
    expect(data['check.sh']).toContain('/opt/animal-store-conformance/examples/health-check.sh /etc/animal-store/health.env');
    expect(data['check.sh']).toContain('/metrics/job/animal-store-conformance/deployment/$DEPLOYMENT');
    expect(spawnSync('bash', ['-n', '-c', data['check.sh']]).status).toBe(0);
    const dir = await mkdtemp(join(tmpdir(), 'fleet-k8s-'));
    try {
      const settingsFile = join(dir, 'health.env');
      await writeFile(settingsFile, data['health.env']);
      for (const cronJob of cronJobs) {
        const [container] = cronJob.spec.jobTemplate.spec.template.spec.containers;
        const env = Object.fromEntries(
          container.env.map((e: any) => [e.name, e.value ?? `key-from-${e.valueFrom.secretKeyRef.name}-${e.valueFrom.secretKeyRef.key}`]),
        );
        // the flags examples/health-check.sh gives the tool
        const args = parseCommandLine(['--dotenv', settingsFile, '--profile', 'health', '--report-dir', env.STATE_DIR]);
        const config = resolveConfig(args, env, dir);
        expect(config).toMatchObject({ profile: 'health', keyVariants: false, deployment: env.DEPLOYMENT, baseUrl: env.BASE_URL, apiKey: env.API_KEY });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  it("check.sh as the container runs it: a failed check's exit code, and its metrics pushed to its own deployment's group", async () => {
    const { data } = documents.find((d) => d.kind === 'ConfigMap');
    const [container] = cronJobs[0].spec.jobTemplate.spec.template.spec.containers;
    const env = Object.fromEntries(container.env.filter((e: any) => e.value).map((e: any) => [e.name, e.value]));
    const key = 'fleet-k8s-secret-key-5c1d9e';
    const ref = await startReferenceServer({ apiKey: key, faults: ['no-auth-on-list'], prefill: 30 });
    const pushes: Array<{ method?: string; url?: string; body: string }> = [];
    const gateway = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        pushes.push({ method: req.method, url: req.url, body });
        res.end();
      });
    });
    await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
    const dir = await mkdtemp(join(tmpdir(), 'fleet-pod-'));
    try {
      // the image's and the mounts' paths, here
      await writeFile(join(dir, 'health.env'), data['health.env']);
      const script = data['check.sh'].replaceAll('/opt/animal-store-conformance', PACKAGE_ROOT).replaceAll('/etc/animal-store', dir);
      const child = spawn('bash', ['-c', script], {
        env: {
          PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
          ...env,
          BASE_URL: ref.baseUrl,
          API_KEY: key,
          STATE_DIR: join(dir, 'reports'),
          PUSHGATEWAY_URL: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`,
        },
      });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect(code, output).toBe(1);
      expect(output).not.toContain(key);
      expect(pushes.map((p) => [p.method, p.url])).toEqual([['POST', `/metrics/job/animal-store-conformance/deployment/${env.DEPLOYMENT}`]]);
      expect(pushes[0].body).toMatch(
        new RegExp(
          `^animal_store_conformance_verdict\\{verdict="non-compliant",target="${ref.baseUrl}",profile="health",deployment="${env.DEPLOYMENT}"\\} 1$`,
          'm',
        ),
      );
    } finally {
      await ref.close();
      await new Promise((r) => gateway.close(r));
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the metrics of a fleet: one series set for every deployment, told apart by its labels', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** A health run of the embedded server (in-process, quiet), and what it wrote. */
  async function healthRun(env: Record<string, string>) {
    const dir = await mkdtemp(join(tmpdir(), 'fleet-metrics-'));
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const code = await main(['--profile', 'health', '--report-dir', dir, '--dotenv', '/dev/null'], env);
    const refusal = errors.mock.calls.join('\n');
    vi.restoreAllMocks();
    const report = JSON.parse(await readFile(join(dir, 'compliance.json'), 'utf8')) as RunReport;
    const metrics = await readFile(join(dir, 'metrics.prom'), 'utf8');
    await rm(dir, { recursive: true, force: true });
    return { code, report, metrics, refusal };
  }

  // two deployments, the same seed: each run's embedded server has a port of its own
  let eu: Awaited<ReturnType<typeof healthRun>>;
  let us: typeof eu;
  beforeAll(async () => {
    eu = await healthRun({ DEPLOYMENT: 'eu-west', SEED: '7' });
    us = await healthRun({ DEPLOYMENT: 'us-east', SEED: '7' });
  });

  /** Each series by its family and labels, the target and deployment labels masked. */
  const seriesOf = (text: string) =>
    new Map(
      parsePrometheusText(text).flatMap((f) =>
        f.metrics.map((m) => [
          `${f.name}${JSON.stringify({ ...m.labels, target: '*', deployment: '*' })}`,
          { family: f.name, value: m.value, labels: m.labels! },
        ]),
      ),
    );

  it('two reports that differ only in their target write metrics that differ only in the target and deployment labels', () => {
    const other: RunReport = { ...eu.report, target: { environment: 'production', baseUrl: 'https://us-east.api.example.com/v1', deployment: 'us-east' } };
    const [a, b] = [renderMetrics(eu.report), renderMetrics(other)];
    const mask = (text: string) => text.replace(/target="[^"]*",profile="health",deployment="[^"]*"\}/g, 'target="*",profile="health",deployment="*"}');
    expect(mask(a)).toBe(mask(b));
    // and every sample carries both, so none of one deployment's series is another's
    const samples = (text: string) => text.split('\n').filter((line) => line && !line.startsWith('#'));
    expect(samples(a).length).toBeGreaterThan(80);
    expect(samples(a).every((line) => line.includes(`target="${eu.report.target.baseUrl}",profile="health",deployment="eu-west"}`))).toBe(true);
    expect(samples(b).every((line) => line.includes('target="https://us-east.api.example.com/v1",profile="health",deployment="us-east"}'))).toBe(true);
  });

  it('two health runs against two targets: the same series, equal but for the figures of time', () => {
    expect([eu.code, us.code]).toEqual([0, 0]);
    expect(eu.report.target.baseUrl).not.toBe(us.report.target.baseUrl);
    const [a, b] = [seriesOf(eu.metrics), seriesOf(us.metrics)];
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    // durations, latencies and the time of the run differ from one run to the next; everything else must not
    const TIMING = /_(duration_seconds|timestamp_seconds|latency_seconds|latency_quiet_seconds)$/;
    let compared = 0;
    for (const [key, series] of a) {
      expect(series.labels).toMatchObject({ target: eu.report.target.baseUrl, deployment: 'eu-west', profile: 'health' });
      expect(b.get(key)!.labels).toMatchObject({ target: us.report.target.baseUrl, deployment: 'us-east', profile: 'health' });
      if (TIMING.test(series.family)) continue;
      expect(b.get(key)!.value, key).toBe(series.value);
      compared++;
    }
    expect(compared).toBeGreaterThan(70);
  });

  it("a run refused for its settings still names its deployment: the fleet's not-checked alert says whose", async () => {
    const { code, report, metrics, refusal } = await healthRun({ DEPLOYMENT: 'eu-west', RETRIES: 'abc' });
    expect([code, report.verdict, report.target.deployment]).toEqual([2, 'not-tested', 'eu-west']);
    expect(refusal).toMatch(/RETRIES must be an integer/);
    expect(metrics).toMatch(/^animal_store_conformance_verdict\{verdict="not-tested",target="",profile="health",deployment="eu-west"\} 1$/m);
  });
});
