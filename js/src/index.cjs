// shuffle-audit for JavaScript: tells, with calibrated statistics, whether
// a shuffle or a random sampler is fair. The Rust library, compiled to
// WebAssembly, resolves every request (defaults, refusals, words), counts,
// tests and judges; this file only turns JavaScript calls into its
// requests and runs the user's function through the shared runner
// (web/page/runner.js, also the page's).
"use strict";

const assert = require("node:assert");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { performance } = require("node:perf_hooks");
const runner = require("./runner.cjs");
const wasm = require("../wasm/shuffle_audit_web.js");
const workers = require("./workers.cjs");
const { CountingThread, worthCounting } = require("./counter.cjs");

const { UserError, chunkCount, chunkStreams, runShuffleChunk, runSamplerChunk } = runner;

/** The WebAssembly module's memory, where decks are written for the Session. */
const memory = wasm.wasmMemory();

/** Math.random as it was when the package loaded (option `random: "math"`). */
const mathRandom = Math.random;

/** The options every audit takes, and those of each kind. */
const COMMON = ["trials", "seed", "alpha", "name", "random", "workers", "reportDir"];
const OPTIONS = {
  deck: ["n", "deck", "tests", "categories", ...COMMON],
  sample: ["n", "k", "ordered", "base", ...COMMON],
  pick: ["weights", "n", "base", ...COMMON],
  orders: ["n", "trials", "name", "seed", "alpha", "tests", "categories", "reportDir"],
};

/**
 * A value as a form's text field: empty for the library's default; an
 * empty list as a list of nothing (",", which the library refuses), not
 * as the default.
 */
function text(value) {
  if (value === undefined || value === null) return "";
  if (Array.isArray(value)) return value.length === 0 ? "," : value.map(String).join(",");
  return String(value);
}

/**
 * The request `opts` makes for draws holding `holds`, as the library's
 * Form reads it (every field text, empty for its default); refuses an
 * option the call does not take, naming it.
 */
function form(holds, kind, opts, name, from) {
  if (opts === undefined || opts === null) opts = {};
  if (typeof opts !== "object") throw new UserError(`options: expected an object, got ${String(opts)}`);
  const known = OPTIONS[kind];
  for (const key of Object.keys(opts)) {
    if (!known.includes(key)) {
      throw new UserError(`${key}: not an option here; the options are ${known.join(", ")}`);
    }
  }
  return {
    holds,
    name: text(opts.name !== undefined ? opts.name : name),
    from,
    n: text(opts.n),
    k: text(opts.k),
    trials: text(opts.trials),
    seed: text(opts.seed),
    weights: text(opts.weights),
    base: text(opts.base !== undefined ? opts.base : holds === "deck" ? undefined : 0),
    alpha: text(opts.alpha),
    tests: text(opts.tests),
    categories: text(opts.categories),
    deck: text(opts.deck),
  };
}

/**
 * A wasm Session for `asked`, whose judged files are the whole report
 * (report.html, report.md, summary.json, …), dated now; the library's
 * refusal as a UserError.
 */
function session(asked) {
  let run;
  try {
    run = new wasm.Session(JSON.stringify(asked));
  } catch (e) {
    throw new UserError(e && e.message ? e.message : String(e));
  }
  run.reportFrom(Date.now() / 1000);
  return run;
}

/** Whether the run draws from the seeded chunk generators (the default) or Math.random. */
function seeded(opts) {
  const random = opts ? opts.random : undefined;
  if (random === undefined || random === "seeded") return true;
  if (random === "math") return false;
  throw new UserError(`random: ${JSON.stringify(random)}: "seeded" (the default) or "math"`);
}

/** How a function's draws are described in the report. */
function drawnFrom(what, opts) {
  return seeded(opts)
    ? `${what} by a JavaScript function (Node), on the package's seeded generator (xoshiro128**, a stream per chunk)`
    : `${what} by a JavaScript function (Node) on Math.random`;
}

/** The number of worker threads asked for, or all the machine's cores. */
function workerCount(opts) {
  const asked = opts ? opts.workers : undefined;
  if (asked === undefined) return os.availableParallelism ? os.availableParallelism() : os.cpus().length;
  if (!Number.isInteger(asked) || asked < 1) throw new UserError(`workers: ${String(asked)}: a whole number, at least 1`);
  return asked;
}

/**
 * A finished audit: its verdict, what it could detect, its tests, counts
 * and files. Every figure and word is the library's (its view of the
 * audit and its summary.json); nothing is recomputed here.
 */
class AuditResult {
  /** Built from a judged wasm `Shown` (freed here). */
  constructor(shown) {
    const view = JSON.parse(shown.view);
    const files = new Map(shown.fileNames().map(name => [name, shown.file(name)]));
    /** The run's summary.json (what `shuffle-audit audit --json` prints), parsed. */
    this.summary = JSON.parse(Buffer.from(files.get("summary.json")).toString("utf8"));
    const entry = this.summary.audits[0];
    /** The name of what was audited. */
    this.name = entry.subject;
    /** The kind of subject: "shuffle" or "sampler". */
    this.kind = entry.kind;
    /** Items shuffled, or the population sampled. */
    this.n = entry.n;
    /** Trials counted. */
    this.trials = view.trials;
    /** "biased", "no bias detected" or "inconclusive". */
    this.verdict = view.verdict;
    /** Whether no bias was detected by a run large enough to see one. */
    this.passed = view.verdict === "no bias detected";
    /** The p the verdict compared with alpha, after every correction (a number). */
    this.pAdjusted = entry.p_adjusted;
    /** The adjusted p as every output states it ("< 1e-12", "0.420"). */
    this.pText = view.p;
    /** What the run could have detected with 90% power ("±8.8% in a cell"). */
    this.couldDetect = view.could_detect;
    /** The largest deviation in words. */
    this.largestDeviation = view.deviation;
    /** The tests that saw the bias, strongest first (empty unless biased). */
    this.seenBy = view.seen_by;
    /** For an inconclusive run, the trials a verdict needs (else null). */
    this.trialsForVerdict = view.trials_for_verdict === undefined ? null : view.trials_for_verdict;
    /** Every test run, as summary.json states it (test, statistic, df, p, p_holm, method, ...). */
    this.tests = entry.tests;
    const table = JSON.parse(shown.table);
    /**
     * The counts: a shuffle's position-by-value matrix (rows of
     * positions), a sampler's draws per item (one array).
     */
    this.counts = this.kind === "shuffle" ? table : table[0];
    /** Why the audit is not "no bias detected", in the library's words (empty if it passed). */
    this.failureMessage = this.passed ? "" : shown.failureMessage;
    /** A folder-safe name of the subject. */
    this.slug = shown.slug;
    Object.defineProperty(this, "files", { value: files, enumerable: false });
    shown.free();
  }

  /**
   * Writes the audit's report into `dir`, creating it: the files the
   * command line and Python's write_report write (report.html, report.md,
   * summary.json, summary.csv, comparison.png, and the audit's CSV and PNG
   * files in a folder named after it); returns `dir`.
   */
  writeReport(dir) {
    fs.mkdirSync(dir, { recursive: true });
    for (const [name, bytes] of this.files) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), bytes);
    }
    return dir;
  }

  /** One line: the subject, verdict, p, n, trials and what the run could detect. */
  toString() {
    return `${this.name}: ${this.verdict}, p (adj.) ${this.pText}, n = ${this.n}, ` +
      `${this.trials.toLocaleString("en-US")} trials, could detect ${this.couldDetect}`;
  }
}

/** The judged audit of everything `run` counted, in `seconds`, with its files. */
function judged(run, seconds) {
  let shown;
  try {
    shown = run.judge(seconds, true);
  } catch (e) {
    throw new UserError(e && e.message ? e.message : String(e));
  }
  return new AuditResult(shown);
}

/**
 * Runs every chunk of the run `asked` makes in this thread, calling `fn`
 * (the user's shuffle, or sampler for `holds` other than deck), and
 * judges the counts.
 */
function runHere(fn, asked, opts) {
  const run = session(asked);
  let counter = null;
  try {
    const trials = run.trials(), streams = seeded(opts) ? chunkStreams(run.seed()) : null;
    const start = performance.now();
    // A long run of decks is counted on a second thread (counter.cjs),
    // overlapping the shuffles; the same batches in the same order, so
    // the same counts.
    if (asked.holds === "deck" && worthCounting(trials, run.n())) counter = new CountingThread(JSON.stringify(asked), run);
    const into = counter || run, mem = counter ? counter.memory : memory;
    for (let c = 0; c < chunkCount(trials); c++) {
      const random = streams ? streams(c) : mathRandom;
      if (asked.holds === "deck") runShuffleChunk(into, fn, c, trials, random, mem);
      else runSamplerChunk(run, fn, asked, c, trials, random);
    }
    if (counter) {
      const counts = counter.finish();
      if (counts !== null) run.mergeCounts(counts);
    }
    return judged(run, (performance.now() - start) / 1000);
  } finally {
    if (counter) counter.close();
    run.free();
  }
}

/**
 * Runs the audit of `subject`: a function here, or a module path (a
 * string or file: URL exporting a function named `exportName`) on worker
 * threads, each taking chunks, their counts merged.
 */
function run(subject, holds, kind, exportName, opts, what) {
  if (typeof subject === "function") {
    if (opts && opts.workers !== undefined) {
      throw new UserError("workers: a function runs in this thread; give the path of a module that exports " +
        `${exportName} to run it on worker threads`);
    }
    const asked = form(holds, kind, opts, subject.name || exportName, drawnFrom(what, opts));
    return runHere(subject, asked, opts);
  }
  if (typeof subject === "string" || subject instanceof URL) {
    const file = workers.modulePath(subject);
    const asked = form(holds, kind, opts, path.basename(file).replace(/\.[cm]?[jt]s$/, ""), drawnFrom(what, opts));
    const main = session(asked);
    try {
      const start = performance.now();
      const shares = workers.runOnWorkers({
        file, exportName, asked, seeded: seeded(opts),
        chunks: chunkCount(main.trials()), workers: workerCount(opts),
      });
      for (const counts of shares) main.mergeCounts(counts);
      return judged(main, (performance.now() - start) / 1000);
    } finally {
      main.free();
    }
  }
  throw new UserError(`${exportName}: expected a function or the path of a module exporting one, got ${String(subject)}`);
}

/**
 * Where a failing assertion writes its report: `reportDir`, else
 * $SHUFFLE_AUDIT_REPORTS/SLUG, else TMPDIR/shuffle-audit/SLUG.
 */
function reportDir(result, opts) {
  if (opts && opts.reportDir) return String(opts.reportDir);
  const root = process.env.SHUFFLE_AUDIT_REPORTS || path.join(os.tmpdir(), "shuffle-audit");
  return path.join(root, result.slug);
}

/**
 * Returns `result` if no bias was detected by a run large enough to see
 * one; else writes its report and throws node:assert's AssertionError
 * with the library's message (as Python's and Rust's assert_fair).
 */
function passed(result, opts, caller) {
  if (result.passed) return result;
  let where;
  try {
    where = `report: ${path.join(result.writeReport(reportDir(result, opts)), "report.html")}`;
  } catch (e) {
    where = `(the report could not be written: ${e.message})`;
  }
  throw new assert.AssertionError({ message: `${result.failureMessage}\n${where}`, stackStartFn: caller });
}

/**
 * Audits `shuffle(array, random)`: called `trials` times (default: what n
 * needs for a verdict) on a fresh array [0, ..., n-1] (or, with `deck`,
 * the deck's cards: `deck: "shoe:decks=6"` hands it six decks of AS..KC
 * and adds the order tests of repeated cards), which it shuffles
 * in place (or returns shuffled), with `random()` (and Math.random) the
 * seeded generator of each chunk of the run; or, given a module path, the
 * `shuffle` it exports, on worker threads. Throws a UserError for a
 * refused request or a broken shuffle (naming the trial).
 */
function audit(shuffle, opts) {
  return run(shuffle, "deck", "deck", "shuffle", opts, "shuffled");
}

/**
 * audit(), then throws node:assert's AssertionError unless no bias was
 * detected by a run large enough to see one: on "biased" (the decisive
 * test, its p, the largest deviation) and on "inconclusive" (the trials a
 * verdict needs), after writing the report. Returns the result otherwise.
 */
function assertFair(shuffle, opts) {
  return passed(audit(shuffle, opts), opts, assertFair);
}

/**
 * Audits `sample(n, k, random)`, returning k distinct items of 0..n-1 (a
 * combination; with `ordered: true` the order counts too).
 */
function auditSamples(sample, opts) {
  const holds = opts && opts.ordered ? "ordered" : "sample";
  const rest = Object.assign({}, opts);
  delete rest.ordered;
  if (opts && opts.ordered !== undefined && typeof opts.ordered !== "boolean") {
    throw new UserError(`ordered: ${String(opts.ordered)}: true or false`);
  }
  return run(sample, holds, "sample", "sample", rest, "drawn");
}

/** auditSamples(), then throws AssertionError unless no bias was detected (as assertFair). */
function assertFairSamples(sample, opts) {
  return passed(auditSamples(sample, opts), opts, assertFairSamples);
}

/** Audits `pick(weights, random)`, returning one index of the weights, against the weights. */
function auditPicks(pick, opts) {
  return run(pick, "pick", "pick", "pick", opts, "picked");
}

/** auditPicks(), then throws AssertionError unless no bias was detected (as assertFair). */
function assertFairPicks(pick, opts) {
  return passed(auditPicks(pick, opts), opts, assertFairPicks);
}

/**
 * Audits permutations already made: an array of decks (arrays of the
 * integers 0..n-1 or 1..n, or of labels such as "AS", "10H"; repeated
 * labels make a shoe), read as the command line reads a text file of
 * decks, or a Uint8Array/Uint16Array/Uint32Array of trials × n items
 * (permutations of 0..n-1, `n` given), read as binary records.
 * `trials` reads only the first decks.
 */
function auditOrders(orders, opts) {
  const result = shown => new AuditResult(shown);
  return require("./orders.cjs").auditOrders(orders, opts, { form, session, judged, result, memory });
}

/**
 * The trials a default audit of a shuffle of `n` items runs (what n needs
 * for a verdict): 18,500 at n = 10.
 */
function defaultTrials(n, opts) {
  const run = session(form("deck", "deck", Object.assign({}, opts, { n }), "shuffle", ""));
  try {
    return run.trials();
  } finally {
    run.free();
  }
}

module.exports = {
  AuditResult,
  UserError,
  assertFair,
  assertFairPicks,
  assertFairSamples,
  audit,
  auditOrders,
  auditPicks,
  auditSamples,
  defaultTrials,
  CHUNK_TRIALS: runner.CHUNK_TRIALS,
};
