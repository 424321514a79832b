// Shared shapes: the requirement catalogue, one observed HTTP exchange, the result
// of one requirement, and the whole run report (what reporters/ write).

export type Level = 'MUST' | 'SHOULD';
export type Profile = 'certify' | 'health';
export const PROFILES: readonly Profile[] = ['certify', 'health'];

/** One entry of spec/requirements.yaml. */
export interface Requirement {
  id: string;
  level: Level;
  area: string;
  operation: string;
  title: string;
  /** The sentence of the API description this requirement proves. */
  source: string;
  profiles: Profile[];
  /** Where the description leaves a choice open: what the check accepts and why. */
  accepts?: string;
  /** Judged on every exchange of the run: its check runs after every other selected check. */
  observer?: boolean;
  /** Its check runs last and alone, after the observers, with nothing else of the run in flight (a latency sample). */
  quiet?: boolean;
}

/**
 * passed: the behaviour was shown; failed: an answer showed the server breaking it;
 * error: could not be judged, the run could not observe an answer (the body cut at
 * the size cap, the run deadline, the target stopped answering): never a violation;
 * skipped: not run (profile, deadline of the operation, nothing configured);
 * inconclusive: run, but the server's data did not allow a verdict.
 */
export type Outcome = 'passed' | 'failed' | 'error' | 'skipped' | 'inconclusive';

/** One request and what came back, with every secret already redacted. */
export interface ExchangeRecord {
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body?: string;
  };
  response?: {
    status: number;
    headers: Record<string, string>;
    body: string;
    /** The body was cut at the size cap. */
    truncated: boolean;
  };
  /** Set when no complete response arrived (timeout, reset, refused, body too large). */
  error?: string;
  durationMs: number;
  /** Which attempt this was, when a request was retried (--retries). */
  attempt?: number;
  /** The operationId the request was sent to. */
  operation?: string;
  /** A reproducing curl command line with the key shown as $API_KEY. */
  curl: string;
}

/** A requirement's catalogue entry (less its profiles and choices) and how the run judged it. */
export interface RequirementResult extends Pick<Requirement, 'id' | 'level' | 'area' | 'operation' | 'title' | 'source'> {
  outcome: Outcome;
  message?: string;
  notes: string[];
  durationMs: number;
  /** The exchanges that show the outcome; for a failure, the violating one first. */
  evidence: ExchangeRecord[];
  /** Listed in the known-deviations file with this reason: a failure does not count. */
  expectedFailure?: string;
  /**
   * An error's cause in one line, with the setting that helps ("a response body was cut
   * off at 16 MiB; try --max-body 64MiB"): the report's incompleteReason is built from these.
   */
  cause?: string;
  /** A failure that follows from another (the animals its answers show were created breaking their Pet): that failure's id, listed first. */
  followsFrom?: string;
}

export interface LatencyStats {
  count: number;
  p50: number;
  p95: number;
  max: number;
}

/**
 * incomplete: no MUST failed, but one could not be judged (with --strict, a SHOULD too);
 * not-tested: no requirement (of the run, or of an area) was judged; see Coverage.
 */
export const VERDICTS = ['compliant', 'non-compliant', 'incomplete', 'aborted', 'not-tested'] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface Counts {
  total: number;
  passed: number;
  failed: number;
  error: number;
  skipped: number;
  inconclusive: number;
  /** MUST requirements that failed (expected failures aside; none in an aborted run, which judged nothing to the end). */
  mustViolations: number;
  /** SHOULD requirements that failed (expected failures aside; none in an aborted run). */
  shouldViolations: number;
}

/**
 * How much of the catalogue the verdict rests on. Judged: passed or failed. Errors
 * could not be judged (no answer could be observed); skipped and inconclusive
 * results were not judged either: none of them shows the behaviour or breaks it.
 */
export interface Coverage {
  judged: number;
  total: number;
  /** Could not be judged (outcome error). */
  error: number;
  skipped: number;
  inconclusive: number;
}

export interface AreaReport {
  area: string;
  verdict: Verdict;
  counts: Counts;
}

/** The two services a run certifies: the animal store, and the quickstart message service at its own address. */
export type Service = 'store' | 'quickstart';

/** production or staging: a configured server; embedded: the reference server the run started. */
export type Environment = 'production' | 'staging' | 'embedded';
export const ENVIRONMENTS: readonly Environment[] = ['production', 'staging', 'embedded'];

/** The server a run certifies, with the keys it is certified with. */
export interface Target {
  environment: Environment;
  baseUrl: string;
  apiKey: string;
  quickstartBaseUrl?: string;
  quickstartApiKey?: string;
}

export interface RunReport {
  tool: { name: string; version: string };
  spec: { title: string; version: string };
  target: {
    /** production, staging, or embedded (the reference server started by the run). */
    environment: Environment;
    baseUrl: string;
    quickstartBaseUrl?: string;
  };
  profile: Profile;
  /** SHOULD failures count against the verdict. */
  strict: boolean;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  verdict: Verdict;
  exitCode: 0 | 1 | 2;
  /** Why the run was aborted (exit code 2). */
  abortReason?: string;
  /** Why the verdict is incomplete (exit code 2): how many MUSTs could not be judged, the cause, the setting that helps. */
  incompleteReason?: string;
  /** Why the run could not start: its configuration was refused (verdict not-tested, exit code 2), in the line the console printed. */
  configError?: string;
  /** The services the run could not reach (down from the start, or stopped answering), each with why and its address setting: their requirements could not be judged. */
  unreachable?: string[];
  /** How much of the catalogue was judged. */
  coverage: Coverage;
  /** Every animal and message the run creates is named with this prefix (the API has no delete). */
  runPrefix?: string;
  /** Animals the store accepted from this run (2xx answers to createPet). */
  animalsCreated?: number;
  /**
   * Writes the servers accepted from this run (2xx answers to POST, PUT, PATCH and DELETE),
   * by operation (or method and path where none is documented). In health, whose writes
   * a conforming server refuses every one of, any is a warning (report.ts dataWarning).
   */
  writesAccepted?: Record<string, number>;
  /** Seed of every value the run drew at random (interior query values, generated animals): --seed replays them. */
  seed?: number;
  requestCount: number;
  /** How many of those requests were retries. */
  retries: number;
  /** Rate-limit answers the run received: 429, and 503 with Retry-After (each was waited out and the request sent again). */
  rateLimited: number;
  /** Response time per operation under the run's own load (the quiet sample left out), in ms. */
  latency: Record<string, LatencyStats>;
  /** Response time per operation of the quiet sample: requests sent one at a time after every other check (PERF-LATENCY-P95), in ms. */
  latencyQuiet?: Record<string, LatencyStats>;
  counts: Counts;
  areas: AreaReport[];
  requirements: RequirementResult[];
  /** Set when the run was given a baseline (--baseline): what changed since. */
  sinceBaseline?: SinceBaseline;
}

/** A requirement whose state changed, or did not, since the baseline. */
export interface BaselineChange extends Pick<RequirementResult, 'id' | 'level' | 'title' | 'outcome'> {
  baselineOutcome: Outcome;
  /** Failing ones: when the first run known to fail it started (carried along a chain of baselines). */
  failingSince?: string;
}

/** This run compared with a previous report, over the requirement ids both hold (harness/verdict/baseline.ts). */
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
  /** Requirement ids both reports hold: the only ones compared. */
  compared: number;
  /** What differs from this run (versions, target, profile, ids, an aborted baseline), in words. */
  notes: string[];
  /** A violation now (failed, not an expected failure), not in the baseline. */
  newlyFailing: BaselineChange[];
  /** A violation in the baseline, passed now. */
  recovered: BaselineChange[];
  /** A violation in both. */
  stillFailing: BaselineChange[];
  /**
   * A violation in the baseline (or carried as one by it) that this run could not judge
   * (could not be judged, skipped, inconclusive, or the run aborted): its failing state
   * and failingSince are carried forward to the next run that takes this report as baseline.
   */
  unjudged: BaselineChange[];
}
