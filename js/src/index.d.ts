// Types of shuffle-audit (hand-written; the functions live in index.cjs).

/** A generator of numbers in [0, 1), as Math.random returns them. */
export type Random = () => number;

/** A shuffle: shuffles `array` (0..n-1) in place, or returns the shuffled items. */
export type Shuffle = (array: number[], random: Random) => ArrayLike<number> | void;

/** A sampler: returns k distinct items of 0..n-1 (of 1..n with `base: 1`). */
export type Sample = (n: number, k: number, random: Random) => ArrayLike<number>;

/** A weighted pick: returns one index of `weights` (counted from 1 with `base: 1`). */
export type Pick = (weights: number[], random: Random) => number;

/**
 * The user's function, or the path (from the working folder) or file: URL
 * of a module exporting it by name (`shuffle`, `sample` or `pick`), which
 * then runs on worker threads.
 */
export type Subject<F> = F | string | URL;

/** What every audit of a function takes. */
export interface RunOptions {
  /** Trials (default: what n needs for a verdict, the library's rule). */
  trials?: number | string;
  /** The seed of the run's generators (default: the library's, 20261121). */
  seed?: number | string;
  /** The level the verdict is judged at (default 0.001). */
  alpha?: number | string;
  /** The subject's name in messages and reports (default: the function's name). */
  name?: string;
  /**
   * "seeded" (default): `random` and Math.random are the package's seeded
   * generator (a stream per chunk of the run); "math": Math.random itself.
   */
  random?: "seeded" | "math";
  /** Worker threads for a module path (default: os.availableParallelism()); never changes the counts. */
  workers?: number;
  /** Where a failing assertion writes its report (default $SHUFFLE_AUDIT_REPORTS/NAME or TMPDIR/shuffle-audit/NAME). */
  reportDir?: string;
}

/** Options of a shuffle's audit. */
export interface ShuffleOptions extends RunOptions {
  /** Items per deck (set by `deck` when one is given). */
  n?: number | string;
  /**
   * A deck whose cards may repeat, handed to the shuffle instead of
   * [0, ..., n-1] (what the command line's --deck takes: "cards",
   * "shoe:decks=6", "AABB"): a shoe gets the order tests of repeated cards.
   */
  deck?: string;
  /** The tests, comma-separated or a list, "all" or "default" (the command line's names). */
  tests?: string | string[];
  /** How the items fall into categories ("cards"). */
  categories?: string;
}

/** Options of a sampler's audit. */
export interface SampleOptions extends RunOptions {
  /** The population sampled. */
  n: number | string;
  /** Items per sample. */
  k: number | string;
  /** Whether the order of a sample's items counts too (default false). */
  ordered?: boolean;
  /** How items are numbered: 0 (default) or 1. */
  base?: 0 | 1;
}

/** Options of a weighted pick's audit. */
export interface PickOptions extends RunOptions {
  /** The weights: whole numbers, or proportions such as [0.1, 0.9] or [1e-7, 1]. */
  weights?: Array<number | string> | string;
  /** Uniform picks of n items, without weights (the function gets n ones as its weights). */
  n?: number | string;
  /** How items are numbered: 0 (default) or 1. */
  base?: 0 | 1;
}

/** Options of an audit of permutations already made. */
export interface OrdersOptions {
  /** Items per deck: needed for a typed array; an array's first deck's by default. */
  n?: number;
  /** Reads only the first `trials` decks (default: all). */
  trials?: number;
  name?: string;
  seed?: number | string;
  alpha?: number | string;
  tests?: string | string[];
  /** The card columns of decks of card labels ("cards", the only value: no files are read). */
  categories?: string;
  reportDir?: string;
}

/** One test of an audit, as summary.json states it. */
export interface TestRecord {
  test: string;
  statistic: number;
  df: number;
  p: number;
  p_holm: number;
  method: string;
  [key: string]: unknown;
}

/** A finished audit: every figure and word is the library's. */
export class AuditResult {
  private constructor();
  /** The run's summary.json (what `shuffle-audit audit --json` prints), parsed. */
  readonly summary: { audits: Array<Record<string, unknown>>; [key: string]: unknown };
  /** The name of what was audited. */
  readonly name: string;
  /** "shuffle" or "sampler". */
  readonly kind: string;
  /** Items shuffled, or the population sampled. */
  readonly n: number;
  /** Trials counted. */
  readonly trials: number;
  readonly verdict: "biased" | "no bias detected" | "inconclusive";
  /** Whether no bias was detected by a run large enough to see one. */
  readonly passed: boolean;
  /** The p the verdict compared with alpha, after every correction. */
  readonly pAdjusted: number;
  /** The adjusted p as every output states it ("< 1e-12", "0.420"). */
  readonly pText: string;
  /** What the run could have detected ("±20% in a cell"). */
  readonly couldDetect: string;
  /** The largest deviation in words. */
  readonly largestDeviation: string;
  /** The tests that saw the bias, strongest first (empty unless biased). */
  readonly seenBy: string[];
  /** For an inconclusive run, the trials a verdict needs (else null). */
  readonly trialsForVerdict: number | null;
  /** Every test run. */
  readonly tests: TestRecord[];
  /** A shuffle's position-by-value counts (rows of positions), a sampler's draws per item. */
  readonly counts: number[][] | number[];
  /** Why the audit is not "no bias detected", in the library's words ("" if it passed). */
  readonly failureMessage: string;
  /** A folder-safe name of the subject. */
  readonly slug: string;
  /**
   * Writes the report into `dir`: report.html, report.md, summary.json,
   * summary.csv, comparison.png and the audit's CSV and PNG files in a
   * folder named after it, as Python's write_report; returns `dir`.
   */
  writeReport(dir: string): string;
  /** One line: subject, verdict, p, n, trials, what the run could detect. */
  toString(): string;
}

/** A refused request or a broken function (naming the trial): never a verdict. */
export class UserError extends Error {}

/** Trials per chunk of a run: each chunk draws from its own seeded generator. */
export const CHUNK_TRIALS: number;

/** Audits a shuffle (a function, or a module path run on worker threads). */
export function audit(shuffle: Subject<Shuffle>, options: ShuffleOptions): AuditResult;
/** audit(), then throws node:assert's AssertionError on "biased" or "inconclusive". */
export function assertFair(shuffle: Subject<Shuffle>, options: ShuffleOptions): AuditResult;
/** Audits a sampler of k of n items. */
export function auditSamples(sample: Subject<Sample>, options: SampleOptions): AuditResult;
/** auditSamples(), then throws AssertionError unless no bias was detected. */
export function assertFairSamples(sample: Subject<Sample>, options: SampleOptions): AuditResult;
/** Audits a weighted pick against its weights. */
export function auditPicks(pick: Subject<Pick>, options: PickOptions): AuditResult;
/** auditPicks(), then throws AssertionError unless no bias was detected. */
export function assertFairPicks(pick: Subject<Pick>, options: PickOptions): AuditResult;
/** Audits decks already made: numbers, labels (repeated labels make a shoe, read whole) or a typed array of trials × n items. */
export function auditOrders(
  orders: ArrayLike<ArrayLike<number | string>> | Uint8Array | Uint16Array | Uint32Array,
  options?: OrdersOptions,
): AuditResult;
/** The trials a default audit of a shuffle of n items runs. */
export function defaultTrials(n: number, options?: { alpha?: number | string }): number;

declare const api: {
  AuditResult: typeof AuditResult;
  UserError: typeof UserError;
  CHUNK_TRIALS: number;
  audit: typeof audit;
  assertFair: typeof assertFair;
  auditSamples: typeof auditSamples;
  assertFairSamples: typeof assertFairSamples;
  auditPicks: typeof auditPicks;
  assertFairPicks: typeof assertFairPicks;
  auditOrders: typeof auditOrders;
  defaultTrials: typeof defaultTrials;
};
export default api;
