// A real parser of the Prometheus text exposition format (parse-prometheus-text-format,
// a port of the official Python client's parser), typed for what the tests read.
import parserModule from 'parse-prometheus-text-format';

export interface MetricFamily {
  name: string;
  help: string;
  /** GAUGE, COUNTER, ...; UNTYPED when the family has no TYPE line. */
  type: string;
  metrics: Array<{ value: string; labels?: Record<string, string> }>;
}

// CommonJS: the function itself under Vitest, or under `.default` when loaded as a module object
const parse = ((parserModule as any).default ?? parserModule) as (text: string) => MetricFamily[];

export const parsePrometheusText = (text: string): MetricFamily[] => parse(text);
