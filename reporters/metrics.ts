// metrics.prom: the run in the Prometheus text exposition format, for node_exporter's
// textfile collector or a Pushgateway, so that scheduled health checks can be alerted on.
//
// Every value describes this one run, so every family is a gauge: a counter must only
// grow, while the next run's file starts again from its own figures (rate() over such a
// "counter" would be wrong). That is also why the request count is `..._run_requests`
// and not `..._requests_total`: Prometheus keeps the `_total` suffix for counters.
import { countedViolations, writesAcceptedCount } from '../harness/verdict/report.js';
import { VERDICTS, type RunReport } from '../harness/model/types.js';

const PREFIX = 'animal_store_conformance_';
const QUANTILES = [
  ['0.5', 'p50'],
  ['0.95', 'p95'],
] as const;

type Labels = Record<string, string>;

/** Milliseconds as seconds, to the microsecond (no float noise such as 0.13219999999999998). */
const seconds = (ms: number) => Math.round(ms * 1000) / 1e6;

/** A label value as the format wants it: backslash, double quote and line feed escaped. */
const escapeLabelValue = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

const labelText = (labels: Labels) =>
  `{${Object.entries(labels)
    .map(([k, v]) => `${k}="${escapeLabelValue(v)}"`)
    .join(',')}}`;

export function renderMetrics(report: RunReport): string {
  // on every series: which server and which profile, so that several checks can share one collector
  const run: Labels = { target: report.target.baseUrl, profile: report.profile };
  const lines: string[] = [];
  const family = (name: string, help: string, samples: Array<[Labels, number]>) => {
    lines.push(`# HELP ${PREFIX}${name} ${help}`, `# TYPE ${PREFIX}${name} gauge`);
    for (const [labels, value] of samples) lines.push(`${PREFIX}${name}${labelText({ ...labels, ...run })} ${value}`);
  };

  // one series per verdict, 1 for this run's: each always exists, so `== 1` and `== 0`
  // both work without absent(), and an aborted run is told apart from a non-compliant one
  family(
    'verdict',
    'The verdict of the last run: 1 for its verdict, 0 for the others.',
    VERDICTS.map((v) => [{ verdict: v }, report.verdict === v ? 1 : 0]),
  );
  family('exit_code', 'Exit code of the last run: 0 compliant, 1 not compliant, 2 incomplete, aborted or not tested.', [[{}, report.exitCode]]);
  family('run_duration_seconds', 'Wall time of the last run.', [[{}, seconds(report.durationMs)]]);
  family('run_requests', 'HTTP requests the last run sent, retries included.', [[{}, report.requestCount]]);
  // a health run changes nothing on a conforming server: alert on any above 0 there
  family('run_writes_accepted', 'Writes (POST, PUT, PATCH, DELETE) the servers accepted from the last run; above 0 in health: the run changed production.', [
    [{}, writesAcceptedCount(report)],
  ]);
  family('last_run_timestamp_seconds', 'When the last run finished, in seconds since the Unix epoch.', [[{}, Date.parse(report.finishedAt) / 1000]]);
  // exactly one series per requirement; its outcome is a label, the value what the verdict counts
  // (an aborted run counts none: what failed before the abort keeps its outcome label)
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
