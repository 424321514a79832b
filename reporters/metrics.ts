// metrics.prom: the run in the Prometheus text format, so that scheduled health checks can be
// alerted on. Every value describes this one run, so every family is a gauge (the next run's
// file starts again from its own figures), and none is named `_total`, a counter's suffix.
import { countedViolations, writesAcceptedCount } from '../harness/verdict/report.js';
import { VERDICTS, type RunReport } from '../harness/model/types.js';

const PREFIX = 'animal_store_conformance_';
const QUANTILES = [
  ['0.5', 'p50'],
  ['0.95', 'p95'],
] as const;

type Labels = Record<string, string>;

/** To the microsecond: no float noise such as 0.13219999999999998. */
const seconds = (ms: number) => Math.round(ms * 1000) / 1e6;

const escapeLabelValue = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

const label = ([name, value]: [string, string]) => `${name}="${escapeLabelValue(value)}"`;
const labelText = (labels: Labels) => `{${Object.entries(labels).map(label).join(',')}}`;

export function renderMetrics(report: RunReport): string {
  // on every series, so that one collector, one dashboard and one alert rule cover a fleet of targets
  const { baseUrl, deployment } = report.target;
  const run: Labels = { target: baseUrl, profile: report.profile, ...(deployment && { deployment }) };
  const lines: string[] = [];
  const family = (name: string, help: string, samples: Array<[Labels, number]>) => {
    lines.push(`# HELP ${PREFIX}${name} ${help}`, `# TYPE ${PREFIX}${name} gauge`);
    for (const [labels, value] of samples) lines.push(`${PREFIX}${name}${labelText({ ...labels, ...run })} ${value}`);
  };

  // each verdict always has its series, so `== 1` and `== 0` both work without absent()
  family(
    'verdict',
    'The verdict of the last run: 1 for its verdict, 0 for the others.',
    VERDICTS.map((v) => [{ verdict: v }, report.verdict === v ? 1 : 0]),
  );
  family('exit_code', 'Exit code of the last run: 0 compliant, 1 not compliant, 2 incomplete, aborted or not tested.', [[{}, report.exitCode]]);
  family('run_duration_seconds', 'Wall time of the last run.', [[{}, seconds(report.durationMs)]]);
  family('run_requests', 'HTTP requests the last run sent, retries included.', [[{}, report.requestCount]]);
  family('run_writes_accepted', 'Writes (POST, PUT, PATCH, DELETE) the servers accepted from the last run; above 0 in health: the run changed production.', [
    [{}, writesAcceptedCount(report)],
  ]);
  family('last_run_timestamp_seconds', 'When the last run finished, in seconds since the Unix epoch.', [[{}, Date.parse(report.finishedAt) / 1000]]);
  const violated = new Set(countedViolations(report));
  family(
    'requirement_violated',
    'Per requirement of the last run: 1 when it failed (not a listed known deviation, not in an aborted run), else 0; the outcome label says what happened (error: could not be judged).',
    report.requirements.map((r) => [{ id: r.id, level: r.level, area: r.area, outcome: r.outcome }, violated.has(r) ? 1 : 0]),
  );
  const latency = (stats: RunReport['latency']) =>
    Object.entries(stats).flatMap(([operation, s]) => QUANTILES.map(([quantile, key]): [Labels, number] => [{ operation, quantile }, seconds(s[key])]));
  family(
    'latency_seconds',
    "Response time per operation in the last run, under the run's own load, at the quantile given (0.5 median, 0.95).",
    latency(report.latency),
  );
  if (report.latencyQuiet) {
    family(
      'latency_quiet_seconds',
      'Response time per operation in the last run, one request at a time after every check (PERF-LATENCY-P95), at the quantile given.',
      latency(report.latencyQuiet),
    );
  }
  return lines.join('\n') + '\n';
}
