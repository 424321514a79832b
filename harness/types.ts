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
}

/**
 * passed: the behaviour was shown; failed: the server violated it; error: the
 * check could not be carried out (timeout, network error, deadline);
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
}

export interface LatencyStats {
  count: number;
  p50: number;
  p95: number;
  max: number;
}

export type Verdict = 'compliant' | 'non-compliant' | 'aborted';

export interface Counts {
  total: number;
  passed: number;
  failed: number;
  error: number;
  skipped: number;
  inconclusive: number;
  /** MUST requirements that failed or could not be carried out (expected failures aside). */
  mustViolations: number;
  /** SHOULD requirements that failed or could not be carried out (expected failures aside). */
  shouldViolations: number;
}

export interface AreaReport {
  area: string;
  verdict: Verdict;
  counts: Counts;
}

export interface RunReport {
  tool: { name: string; version: string };
  spec: { title: string; version: string };
  target: {
    /** production, staging, or embedded (the reference server started by the run). */
    environment: 'production' | 'staging' | 'embedded';
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
  /** Seed of the animals generated from the schema (--seed replays them); absent when none were. */
  seed?: number;
  requestCount: number;
  /** How many of those requests were retries. */
  retries: number;
  /** Response time per operation, in ms. */
  latency: Record<string, LatencyStats>;
  counts: Counts;
  areas: AreaReport[];
  requirements: RequirementResult[];
}
