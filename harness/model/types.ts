// The catalogue, an exchange, a result and the run report that reporters/ write.

type Level = 'MUST' | 'SHOULD';
export type Profile = 'certify' | 'health';
export const PROFILES: readonly Profile[] = ['certify', 'health'];

export interface Requirement {
  id: string;
  level: Level;
  area: string;
  operation: string;
  title: string;
  source: string;
  profiles: Profile[];
  accepts?: string;
  /** Judged on every exchange: its check runs after every other. */
  observer?: boolean;
  /** Its check runs last and alone (a latency sample). */
  quiet?: boolean;
}

/** error: no answer could be observed, never a violation; inconclusive: the server's data allowed no verdict. */
export type Outcome = 'passed' | 'failed' | 'error' | 'skipped' | 'inconclusive';

export interface ExchangeRecord {
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response?: { status: number; headers: Record<string, string>; body: string; truncated: boolean };
  error?: string;
  durationMs: number;
  attempt?: number;
  operation?: string;
  /** The key shown as $API_KEY. */
  curl: string;
}

export interface RequirementResult extends Pick<Requirement, 'id' | 'level' | 'area' | 'operation' | 'title' | 'source'> {
  outcome: Outcome;
  message?: string;
  notes: string[];
  durationMs: number;
  /** For a failure, the violating one first. */
  evidence: ExchangeRecord[];
  /** Listed in the known-deviations file with this reason: a failure does not count. */
  expectedFailure?: string;
  /** An error's cause with the setting that helps: the report's incompleteReason is built from these. */
  cause?: string;
  /** The failure this one follows from (its animals were created breaking their Pet), listed first. */
  followsFrom?: string;
}

export interface LatencyStats {
  count: number;
  p50: number;
  p95: number;
  max: number;
}

/** incomplete: no MUST failed, but one could not be judged (with --strict, a SHOULD too). */
export const VERDICTS = ['compliant', 'non-compliant', 'incomplete', 'aborted', 'not-tested'] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface Counts {
  total: number;
  passed: number;
  failed: number;
  error: number;
  skipped: number;
  inconclusive: number;
  /** Expected failures aside; none in an aborted run. */
  mustViolations: number;
  shouldViolations: number;
}

/** Judged: passed or failed; the rest neither shows the behaviour nor breaks it. */
export interface Coverage extends Pick<Counts, 'total' | 'error' | 'skipped' | 'inconclusive'> {
  judged: number;
}

export interface AreaReport {
  area: string;
  verdict: Verdict;
  counts: Counts;
}

export type Service = 'store' | 'quickstart';

/** embedded: the reference server the run started. */
export type Environment = 'production' | 'staging' | 'embedded';
export const ENVIRONMENTS: readonly Environment[] = ['production', 'staging', 'embedded'];

export interface Target {
  environment: Environment;
  baseUrl: string;
  apiKey: string;
  quickstartBaseUrl?: string;
  quickstartApiKey?: string;
  /** DEPLOYMENT: the name the metrics label this target with. */
  deployment?: string;
}

export interface RunReport {
  tool: { name: string; version: string };
  spec: { title: string; version: string };
  target: { environment: Environment; baseUrl: string; quickstartBaseUrl?: string; deployment?: string };
  profile: Profile;
  strict: boolean;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  verdict: Verdict;
  exitCode: 0 | 1 | 2;
  abortReason?: string;
  /** How many MUSTs could not be judged, the cause, the setting that helps. */
  incompleteReason?: string;
  /** The refused configuration's line (verdict not-tested, exit code 2). */
  configError?: string;
  /** Each with why and its address setting. */
  unreachable?: string[];
  coverage: Coverage;
  /** Every animal and message the run creates is named with it (the API has no delete). */
  runPrefix?: string;
  animalsCreated?: number;
  /** 2xx answers to writes, by operation (or method and path); in health any is a warning. */
  writesAccepted?: Record<string, number>;
  /** --seed replays the values drawn at random. */
  seed?: number;
  requestCount: number;
  retries: number;
  /** 429s, and 503s with Retry-After. */
  rateLimited: number;
  latency: Record<string, LatencyStats>;
  /** Of the quiet sample (PERF-LATENCY-P95): one request at a time after every other check. */
  latencyQuiet?: Record<string, LatencyStats>;
  counts: Counts;
  areas: AreaReport[];
  requirements: RequirementResult[];
  sinceBaseline?: SinceBaseline;
}

export interface BaselineChange extends Pick<RequirementResult, 'id' | 'level' | 'title' | 'outcome'> {
  baselineOutcome: Outcome;
  /** When the first run known to fail it started, carried along a chain of baselines. */
  failingSince?: string;
}

/** Over the requirement ids both reports hold (harness/verdict/baseline.ts). */
export interface SinceBaseline {
  baseline: {
    startedAt: string;
    finishedAt: string;
    verdict: string;
    tool: { name: string; version: string };
    spec: { title: string; version: string };
    baseUrl: string;
    profile: string;
  };
  compared: number;
  /** What differs (versions, target, profile, ids, an aborted baseline), in words. */
  notes: string[];
  /** Expected failures aside. */
  newlyFailing: BaselineChange[];
  recovered: BaselineChange[];
  stillFailing: BaselineChange[];
  /** A violation in the baseline this run could not judge: carried forward to the next run that takes this report as baseline. */
  unjudged: BaselineChange[];
}
